// RAID 4 and RAID 5 address maps: stripe s is unit s (drive LBNs [s*unit, (s+1)*unit)) of every
// disk; one of them holds the stripe's parity, the other D-1 its data units 0..D-2 in logical
// order. Where the parity goes and how the data units follow it (Lee and Katz's names):
//
//   dedicated          RAID 4: parity on the last disk, data unit j on disk j
//   left_symmetric     parity on disk D-1 - s%D, data unit j on disk (parity + 1 + j) % D
//   left_asymmetric    parity on disk D-1 - s%D, data unit j on disk j, skipping the parity disk
//   right_symmetric    parity on disk s%D,       data unit j on disk (parity + 1 + j) % D
//   right_asymmetric   parity on disk s%D,       data unit j on disk j, skipping the parity disk
//
// Left-symmetric on 5 disks (data unit numbers, P = parity):
//     0  1  2  3  P
//     5  6  7  P  4
//    10 11  P  8  9
//    15  P 12 13 14
//     P 16 17 18 19
#pragma once

#include <string>
#include <vector>

#include "controller/layouts/parity_stripe_layout.h"

namespace raidtlm::controller {

enum class parity_placement { dedicated, left_symmetric, left_asymmetric, right_symmetric, right_asymmetric };

// "left-symmetric" etc.; parse throws layout_error naming the accepted names.
std::string to_string(parity_placement p);
parity_placement parse_parity_placement(const std::string &name);

class parity_layout final : public parity_stripe_layout {
public:
    // RAID 5 with the given rotation, or RAID 4 with parity_placement::dedicated. At least 3
    // disks; each contributes the same whole number of units (of the smallest disk).
    parity_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors,
                  parity_placement placement = parity_placement::left_symmetric);

    std::string describe() const override;
    int disks() const override { return m_disks; }
    int64_t capacity_sectors() const override { return m_capacity; }
    int copies() const override { return 1; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

    parity_placement placement() const { return m_placement; }
    int64_t unit_sectors() const override { return m_unit; }
    int data_units_per_stripe() const { return m_disks - 1; }
    int64_t stripe_data_sectors() const { return m_unit * (m_disks - 1); }
    int64_t stripes() const { return m_stripes; }

    // parity_stripe_layout: stripe s is row s of every disk.
    int64_t stripe_first_lbn(int64_t stripe) const override { return stripe * stripe_data_sectors(); }
    int stripe_data_units(int64_t) const override { return m_disks - 1; }
    unit_place data_unit(int64_t stripe, int j) const override { return {data_disk(stripe, j), stripe * m_unit}; }
    unit_place parity_unit(int64_t stripe) const override { return {parity_disk(stripe), stripe * m_unit}; }

    int parity_disk(int64_t stripe) const;
    // The disk holding data unit j (0 .. D-2) of the stripe.
    int data_disk(int64_t stripe, int j) const;
    // Which data unit of its stripe a disk holds, or -1 for the parity disk.
    int data_unit_on_disk(int64_t stripe, int disk) const;
    // The stripe and the drive LBN (on every disk of the stripe) of logical sector lbn.
    int64_t stripe_of(int64_t lbn) const override { return lbn / stripe_data_sectors(); }
    int64_t drive_lbn_of(int64_t lbn) const { return stripe_of(lbn) * m_unit + lbn % m_unit; }
    int64_t logical_lbn(int64_t stripe, int j, int64_t offset_in_unit) const {
        return stripe * stripe_data_sectors() + j * m_unit + offset_in_unit;
    }

private:
    int m_disks;
    int64_t m_unit;
    parity_placement m_placement;
    int64_t m_stripes;
    int64_t m_capacity;
};

}  // namespace raidtlm::controller
