#include "controller/layouts/parity_layout.h"

#include "config/enum_names.h"
#include "controller/layouts/raid10_layout.h"

namespace raidtlm::controller {

namespace {
const config::enum_name<parity_placement> placement_names[] = {
    {parity_placement::dedicated, "dedicated"},
    {parity_placement::left_symmetric, "left-symmetric"},
    {parity_placement::left_asymmetric, "left-asymmetric"},
    {parity_placement::right_symmetric, "right-symmetric"},
    {parity_placement::right_asymmetric, "right-asymmetric"},
};
}  // namespace

std::string to_string(parity_placement p) { return config::name_of(placement_names, p); }

parity_placement parse_parity_placement(const std::string &name) {
    return config::parse_name<layout_error>(placement_names, name, "parity placement");
}

parity_layout::parity_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors, parity_placement placement)
    : m_disks(int(disk_sectors.size())), m_unit(unit_sectors), m_placement(placement) {
    const std::string what = placement == parity_placement::dedicated ? "RAID 4" : "RAID 5";
    const int64_t smallest = smallest_disk_sectors(disk_sectors, 3, what);
    check_stripe_unit(unit_sectors, smallest);
    m_stripes = smallest / unit_sectors;
    m_capacity = m_stripes * stripe_data_sectors();
}

std::string parity_layout::describe() const {
    std::string s = m_placement == parity_placement::dedicated ? "RAID 4" : "RAID 5 " + to_string(m_placement);
    return s + ", " + std::to_string(m_disks) + " disks, " + std::to_string(m_unit) + "-sector stripe unit";
}

int parity_layout::parity_disk(int64_t stripe) const {
    const int turn = int(stripe % m_disks);
    switch (m_placement) {
    case parity_placement::dedicated: return m_disks - 1;
    case parity_placement::left_symmetric:
    case parity_placement::left_asymmetric: return m_disks - 1 - turn;
    case parity_placement::right_symmetric:
    case parity_placement::right_asymmetric: return turn;
    }
    return m_disks - 1;
}

int parity_layout::data_disk(int64_t stripe, int j) const {
    const int p = parity_disk(stripe);
    if (m_placement == parity_placement::left_symmetric || m_placement == parity_placement::right_symmetric)
        return (p + 1 + j) % m_disks;
    return j < p ? j : j + 1;
}

int parity_layout::data_unit_on_disk(int64_t stripe, int disk) const {
    const int p = parity_disk(stripe);
    if (disk == p) return -1;
    if (m_placement == parity_placement::left_symmetric || m_placement == parity_placement::right_symmetric)
        return (disk - p - 1 + m_disks) % m_disks;
    return disk < p ? disk : disk - 1;
}

void parity_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        const int64_t stripe = unit / (m_disks - 1);
        const int j = int(unit % (m_disks - 1));
        out.push_back({at, n, {{data_disk(stripe, j), 0, {{stripe * m_unit + offset, n, false}}}}});
    });
}

}  // namespace raidtlm::controller
