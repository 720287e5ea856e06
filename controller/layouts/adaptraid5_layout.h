// AdaptRaid5 as an address map (the pattern: adaptraid5_pattern.h). The pattern repeats down the
// disks as often as every disk holds its share of it; what is left at the end of the larger disks
// is unused. Stripes have different widths, and a stripe's blocks sit at different drive LBNs on
// different disks, so this is not a parity_layout; the RAID 5 firmware asks for a stripe's data
// units and parity through parity_stripe_layout.
#pragma once

#include <string>
#include <vector>

#include "controller/layouts/adaptraid5_pattern.h"
#include "controller/layouts/parity_stripe_layout.h"

namespace raidtlm::controller {

class adaptraid5_layout final : public parity_stripe_layout {
public:
    // Throws layout_error (see adaptraid5_pattern::from_utilisation; also a unit the smallest
    // disk cannot hold, UF given for a different number of disks, or a disk too small for one
    // repetition of the pattern).
    adaptraid5_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors,
                      const std::vector<double> &utilisation, int stripes_in_pattern);

    std::string describe() const override;
    int disks() const override { return m_pattern.disks(); }
    int64_t capacity_sectors() const override { return m_capacity; }
    int copies() const override { return 1; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

    const adaptraid5_pattern &pattern() const { return m_pattern; }
    int64_t unit_sectors() const override { return m_unit; }
    int64_t repetitions() const { return m_repetitions; }
    // The file system's full stripe: the first phase's, over every disk.
    int64_t reference_stripe_data_sectors() const { return m_unit * m_pattern.reference_data_blocks(); }

    // What RAID 5 firmware needs: stripes are numbered in logical order over the whole array.
    int64_t stripes() const { return m_repetitions * m_pattern.stripes(); }
    int64_t stripe_of(int64_t lbn) const override;
    int stripe_data_units(int64_t stripe) const override { return pattern_stripe_of(stripe).data_blocks; }
    int64_t stripe_first_lbn(int64_t stripe) const override;
    int64_t stripe_data_sectors(int64_t stripe) const { return stripe_data_sectors_of(stripe); }
    // Data unit j (0 .. stripe_data_units - 1) and the parity unit of a stripe.
    unit_place data_unit(int64_t stripe, int j) const override;
    unit_place parity_unit(int64_t stripe) const override;
    // What the stripe unit holding drive_lbn of a disk belongs to: a stripe (numbered as above)
    // and its data unit or pattern_slot::parity_unit; stripe -1 beyond the last repetition (or in
    // a hole of the pattern).
    pattern_slot unit_at(int disk, int64_t drive_lbn) const;

private:
    const pattern_stripe &pattern_stripe_of(int64_t stripe) const {
        return m_pattern.stripe(int(stripe % m_pattern.stripes()));
    }
    unit_place place(pattern_place p, int64_t repetition) const;

    adaptraid5_pattern m_pattern;
    std::vector<double> m_utilisation;
    int m_sip;
    int64_t m_unit;
    int64_t m_repetitions = 0;
    int64_t m_capacity = 0;
};

}  // namespace raidtlm::controller
