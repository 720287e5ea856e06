// RAID 0, RAID 1 and RAID 10 by drive LBN: stripe units go round-robin over `columns`, and each
// column is `copies` disks holding the same data at the same drive LBNs. RAID 0 is one copy,
// RAID 1 (a D-way mirror) one column, RAID 10 both. Column c is disks c*copies .. c*copies +
// copies - 1; unit u is on column u % columns at drive LBN (u / columns) * unit + offset.
#pragma once

#include <string>
#include <vector>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

class raid10_layout final : public layout {
public:
    // Every disk contributes the same whole number of stripe units (of the smallest disk).
    static raid10_layout raid0(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors);
    // A D-way mirror of the smallest disk (no striping).
    static raid10_layout raid1(const std::vector<int64_t> &disk_sectors);
    static raid10_layout raid10(const std::vector<int64_t> &disk_sectors, int copies, int64_t unit_sectors);

    std::string describe() const override;
    int disks() const override { return m_columns * m_copies; }
    int64_t capacity_sectors() const override { return m_capacity; }
    int copies() const override { return m_copies; }
    int columns() const { return m_columns; }
    int64_t unit_sectors() const { return m_unit; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

private:
    raid10_layout(std::string name, int columns, int copies, int64_t unit_sectors, int64_t capacity);
    std::string m_name;
    int m_columns;
    int m_copies;
    int64_t m_unit;
    int64_t m_capacity;
};

// The smallest disk's capacity; throws layout_error naming `what` when there are fewer than
// `min_disks` disks.
int64_t smallest_disk_sectors(const std::vector<int64_t> &disk_sectors, int min_disks, const std::string &what);
// Throws layout_error unless 0 < unit_sectors <= smallest_sectors.
void check_stripe_unit(int64_t unit_sectors, int64_t smallest_sectors);

}  // namespace raidtlm::controller
