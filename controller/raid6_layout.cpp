#include "controller/raid6_layout.h"

#include "controller/raid10_layout.h"

namespace raidtlm::controller {

raid6_layout::raid6_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors)
    : m_disks(int(disk_sectors.size())), m_unit(unit_sectors) {
    const int64_t smallest = smallest_disk_sectors(disk_sectors, 4, "RAID 6");
    check_stripe_unit(unit_sectors, smallest);
    m_stripes = smallest / unit_sectors;
    m_capacity = m_stripes * stripe_data_sectors();
}

std::string raid6_layout::describe() const {
    return "RAID 6 left-symmetric (P+Q), " + std::to_string(m_disks) + " disks, " + std::to_string(m_unit) +
           "-sector stripe unit";
}

void raid6_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    const int data_units = m_disks - 2;
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        const int64_t stripe = unit / data_units;
        const int j = int(unit % data_units);
        out.push_back({at, n, {{data_disk(stripe, j), 0, {{stripe * m_unit + offset, n, false}}}}});
    });
}

}  // namespace raidtlm::controller
