#include "controller/layouts/raid6_layout.h"

#include "controller/layouts/pq_parity.h"
#include "controller/layouts/raid10_layout.h"

namespace raidtlm::controller {

raid6_layout::raid6_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors, int checks)
    : m_disks(int(disk_sectors.size())), m_checks(checks), m_unit(unit_sectors) {
    if (checks < 2 || checks > pq::max_checks)
        throw layout_error("RAID 6 with " + std::to_string(checks) + " check units; expected 2 (P+Q) or 3 (P+Q+R)");
    const int64_t smallest = smallest_disk_sectors(disk_sectors, checks + 2, checks == 2 ? "RAID 6" : "triple-check RAID");
    // Data unit j's coefficients g^(k j) are distinct only for j < 255 (g has order 255).
    if (m_disks - checks > 255)
        throw layout_error("RAID 6 with " + std::to_string(checks) + " checks takes at most " +
                           std::to_string(255 + checks) + " disks (255 data units); got " + std::to_string(m_disks));
    check_stripe_unit(unit_sectors, smallest);
    m_stripes = smallest / unit_sectors;
    m_capacity = m_stripes * stripe_data_sectors();
}

std::string raid6_layout::describe() const {
    return std::string(m_checks == 2 ? "RAID 6 left-symmetric (P+Q), " : "triple-check left-symmetric (P+Q+R), ") +
           std::to_string(m_disks) + " disks, " + std::to_string(m_unit) + "-sector stripe unit";
}

unit_place raid6_layout::check_unit(int64_t stripe, int k) const {
    if (k < 0 || k >= m_checks) return parity_stripe_layout::check_unit(stripe, k);  // throws
    return {check_disk(stripe, k), stripe * m_unit};
}

void raid6_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    const int data_units = m_disks - m_checks;
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        const int64_t stripe = unit / data_units;
        const int j = int(unit % data_units);
        out.push_back({at, n, {{data_disk(stripe, j), 0, {{stripe * m_unit + offset, n, false}}}}});
    });
}

}  // namespace raidtlm::controller
