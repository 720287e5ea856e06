#include "controller/layouts/raid10_layout.h"

#include <algorithm>

namespace raidtlm::controller {

int64_t smallest_disk_sectors(const std::vector<int64_t> &disk_sectors, int min_disks, const std::string &what) {
    if (int(disk_sectors.size()) < min_disks)
        throw layout_error(what + " needs at least " + std::to_string(min_disks) + " disk" + (min_disks == 1 ? "" : "s") +
                           "; the array has " + std::to_string(disk_sectors.size()));
    return *std::min_element(disk_sectors.begin(), disk_sectors.end());
}

void check_stripe_unit(int64_t unit_sectors, int64_t smallest_sectors) {
    if (unit_sectors <= 0)
        throw layout_error("stripe unit of " + std::to_string(unit_sectors) + " sectors; expected a positive number");
    if (unit_sectors > smallest_sectors)
        throw layout_error("stripe unit of " + std::to_string(unit_sectors) + " sectors exceeds the smallest disk's " +
                           std::to_string(smallest_sectors) + " sectors");
}

raid10_layout::raid10_layout(std::string name, int columns, int copies, int64_t unit_sectors, int64_t capacity)
    : m_name(std::move(name)), m_columns(columns), m_copies(copies), m_unit(unit_sectors), m_capacity(capacity) {}

raid10_layout raid10_layout::raid0(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors) {
    const int64_t smallest = smallest_disk_sectors(disk_sectors, 1, "RAID 0");
    check_stripe_unit(unit_sectors, smallest);
    const int d = int(disk_sectors.size());
    return raid10_layout("RAID 0", d, 1, unit_sectors, d * (smallest / unit_sectors) * unit_sectors);
}

raid10_layout raid10_layout::raid1(const std::vector<int64_t> &disk_sectors) {
    const int64_t smallest = smallest_disk_sectors(disk_sectors, 2, "RAID 1");
    if (smallest <= 0) throw layout_error("RAID 1 over a disk with no sectors");
    return raid10_layout("RAID 1", 1, int(disk_sectors.size()), smallest, smallest);
}

raid10_layout raid10_layout::raid10(const std::vector<int64_t> &disk_sectors, int copies, int64_t unit_sectors) {
    if (copies < 2) throw layout_error("RAID 10 needs at least 2 copies; got " + std::to_string(copies));
    const int64_t smallest = smallest_disk_sectors(disk_sectors, copies, "RAID 10 with " + std::to_string(copies) + "-way mirrors");
    const int d = int(disk_sectors.size());
    if (d % copies != 0)
        throw layout_error("RAID 10 with " + std::to_string(copies) + "-way mirrors needs a multiple of " +
                           std::to_string(copies) + " disks; the array has " + std::to_string(d));
    check_stripe_unit(unit_sectors, smallest);
    const int columns = d / copies;
    return raid10_layout("RAID 10", columns, copies, unit_sectors, columns * (smallest / unit_sectors) * unit_sectors);
}

std::string raid10_layout::describe() const {
    std::string s = m_name + ", " + std::to_string(disks()) + " disks";
    if (m_copies > 1 && m_columns > 1) s += ", " + std::to_string(m_copies) + "-way mirrors";
    if (m_columns > 1) s += ", " + std::to_string(m_unit) + "-sector stripe unit";
    return s;
}

void raid10_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t unit, int64_t offset, int64_t at, int32_t n) {
        chunk c;
        c.lbn = at;
        c.sectors = n;
        const int column = int(unit % m_columns);
        const int64_t drive_lbn = (unit / m_columns) * m_unit + offset;
        c.replicas.reserve(size_t(m_copies));
        for (int m = 0; m < m_copies; ++m) c.replicas.push_back({column * m_copies + m, m, {{drive_lbn, n, false}}});
        out.push_back(std::move(c));
    });
}

}  // namespace raidtlm::controller
