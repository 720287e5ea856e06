// RAID 6 address map: stripe s is unit s (drive LBNs [s*unit, (s+1)*unit)) of every disk, with
// two check units, P (XOR) and Q (the GF(2^8) syndrome, pq_parity.h), and D-2 data units. The
// checks rotate left-symmetrically as in Linux md's RAID 6 (ALGORITHM_LEFT_SYMMETRIC): P on disk
// D-1 - s%D, Q on the disk after it, data unit j on disk (P + 2 + j) % D, so consecutive data
// units go round the disks as in RAID 5's left-symmetric layout.
//
// With three checks (controller.raid6_checks: 3, the triple-check array; R = sum g^(2j) D_j,
// pq_parity.h) R sits on the disk after Q and data unit j on (P + 3 + j) % D: the same rotation
// with one more check unit, D-3 data units.
//
// On 5 disks (data unit numbers):
//     Q  0  1  2  P
//     3  4  5  P  Q
//     7  8  P  Q  6
//    11  P  Q  9 10
//     P  Q 12 13 14
#pragma once

#include <string>
#include <vector>

#include "controller/layouts/parity_stripe_layout.h"

namespace raidtlm::controller {

class raid6_layout final : public parity_stripe_layout {
public:
    // At least checks + 2 disks (two data units) and at most checks + 255 (distinct coefficients
    // g^j); each contributes the same whole number of units (of the smallest disk). checks: 2 or 3.
    raid6_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors, int checks = 2);

    std::string describe() const override;
    int disks() const override { return m_disks; }
    int64_t capacity_sectors() const override { return m_capacity; }
    int copies() const override { return 1; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

    int64_t unit_sectors() const override { return m_unit; }
    int64_t stripe_data_sectors() const { return m_unit * (m_disks - m_checks); }
    int64_t stripes() const { return m_stripes; }
    int64_t stripe_of(int64_t lbn) const override { return lbn / stripe_data_sectors(); }
    int64_t stripe_first_lbn(int64_t stripe) const override { return stripe * stripe_data_sectors(); }
    int stripe_data_units(int64_t) const override { return m_disks - m_checks; }
    unit_place data_unit(int64_t stripe, int j) const override { return {data_disk(stripe, j), stripe * m_unit}; }
    unit_place parity_unit(int64_t stripe) const override { return {p_disk(stripe), stripe * m_unit}; }
    bool has_q() const override { return true; }
    unit_place q_unit(int64_t stripe) const override { return {q_disk(stripe), stripe * m_unit}; }
    int check_units() const override { return m_checks; }
    unit_place check_unit(int64_t stripe, int k) const override;

    int p_disk(int64_t stripe) const { return m_disks - 1 - int(stripe % m_disks); }
    int q_disk(int64_t stripe) const { return (p_disk(stripe) + 1) % m_disks; }
    // Check k's disk: P's, then the disks after it.
    int check_disk(int64_t stripe, int k) const { return (p_disk(stripe) + k) % m_disks; }
    int data_disk(int64_t stripe, int j) const { return (p_disk(stripe) + m_checks + j) % m_disks; }

private:
    int m_disks;
    int m_checks;
    int64_t m_unit;
    int64_t m_stripes;
    int64_t m_capacity;
};

}  // namespace raidtlm::controller
