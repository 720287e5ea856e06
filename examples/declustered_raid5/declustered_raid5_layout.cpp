#include "declustered_raid5_layout.h"

#include <algorithm>
#include <utility>
#include <stdexcept>

namespace declustered_raid5 {

namespace rc = raidtlm::controller;

declustered_raid5_layout::declustered_raid5_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors,
                                                   int stripe_width)
    : m_disks(int(disk_sectors.size())), m_unit(unit_sectors), m_width(stripe_width) {
    if (m_width < 3 || m_width > m_disks)
        throw rc::layout_error("declustered_raid5: controller.declustered_raid5.stripe_width " +
                               std::to_string(m_width) + " must lie in [3, " + std::to_string(m_disks) +
                               "] (disks.count " + std::to_string(m_disks) + ")");
    const int64_t smallest = *std::min_element(disk_sectors.begin(), disk_sectors.end());
    const int64_t rows = smallest / m_unit;  // whole units on every disk
    m_stripes_per_row = m_disks / m_width;
    m_stripes = rows * m_stripes_per_row;
    if (m_stripes == 0) throw rc::layout_error("declustered_raid5: the disks hold no whole stripe");
}

std::string declustered_raid5_layout::describe() const {
    return "declustered RAID 5 (pseudo-random rows), " + std::to_string(m_disks) + " disks, stripes of " + std::to_string(m_width) +
           " units, " + std::to_string(m_unit) + "-sector unit";
}

std::vector<int> declustered_raid5_layout::row_order(int64_t row) const {
    std::vector<int> order(static_cast<size_t>(m_disks));
    for (int d = 0; d < m_disks; ++d) order[size_t(d)] = d;
    uint64_t state = uint64_t(row) * 0x2545F4914F6CDD1Dull;
    for (int i = m_disks - 1; i > 0; --i) {
        state += 0x9E3779B97F4A7C15ull;  // splitmix64
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        std::swap(order[size_t(i)], order[size_t(z % uint64_t(i + 1))]);
    }
    return order;
}

rc::unit_place declustered_raid5_layout::slot(int64_t stripe, int i) const {
    const int64_t row = stripe / m_stripes_per_row;
    const int place = int(stripe % m_stripes_per_row) * m_width + i;
    return {row_order(row)[size_t(place)], row * m_unit};
}

rc::unit_place declustered_raid5_layout::parity_unit(int64_t stripe) const { return slot(stripe, int(stripe % m_width)); }

rc::unit_place declustered_raid5_layout::data_unit(int64_t stripe, int j) const {
    const int parity = int(stripe % m_width);
    return slot(stripe, j < parity ? j : j + 1);
}

void declustered_raid5_layout::map(int64_t lbn, int32_t sectors, std::vector<rc::chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    rc::for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        const int64_t stripe = unit / (m_width - 1);
        const rc::unit_place u = data_unit(stripe, int(unit % (m_width - 1)));
        rc::chunk c;
        c.lbn = at;
        c.sectors = n;
        c.replicas.push_back({u.disk, 0, {{u.drive_lbn + offset, n, false}}});
        out.push_back(std::move(c));
    });
}

}  // namespace declustered_raid5
