// A declustered RAID 5 (parity declustering: Muntz and Lui 1990, Holland and Gibson 1992): stripes
// of G units (G - 1 data and one parity) over N > G disks, so that a lost disk's stripes take
// their units from only part of every other disk and its rebuild reads about (G - 1) / (N - 1)
// of each surviving disk instead of all of it. The mapping here is a simple pseudo-random one,
// not Holland and Gibson's balanced block designs: drive row r (unit r of every disk) holds
// floor(N / G) stripes laid along a permutation of the disks drawn from r (a fixed hash, so the
// mapping is a pure function), the parity at position s mod G of stripe s. Over many rows every
// disk holds as much parity and shares as many stripes with every other disk, within a few
// per cent; a row's N mod G units left over are unused (choose G dividing N to use them all).
//
// Plain C++ against raidtlm's installed headers: raidtlm's RAID firmware serves it through
// parity_stripe_layout (stripes numbered in logical order, each with its data units and one
// parity unit on distinct disks), as it serves AdaptRaid5's stripes of different widths.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "controller/layouts/parity_stripe_layout.h"

namespace declustered_raid5 {

class declustered_raid5_layout final : public raidtlm::controller::parity_stripe_layout {
public:
    // `disk_sectors`: each member's data sectors; throws raidtlm::controller::layout_error when
    // the stripe width does not fit the disks.
    declustered_raid5_layout(const std::vector<int64_t> &disk_sectors, int64_t unit_sectors, int stripe_width);

    std::string describe() const override;
    int disks() const override { return m_disks; }
    int64_t capacity_sectors() const override { return m_stripes * (m_width - 1) * m_unit; }
    int copies() const override { return 1; }
    void map(int64_t lbn, int32_t sectors, std::vector<raidtlm::controller::chunk> &out) const override;

    int64_t unit_sectors() const override { return m_unit; }
    int64_t stripe_of(int64_t lbn) const override { return lbn / ((m_width - 1) * m_unit); }
    int64_t stripe_first_lbn(int64_t stripe) const override { return stripe * (m_width - 1) * m_unit; }
    int stripe_data_units(int64_t) const override { return m_width - 1; }
    raidtlm::controller::unit_place data_unit(int64_t stripe, int j) const override;
    raidtlm::controller::unit_place parity_unit(int64_t stripe) const override;

private:
    // Unit i (0 .. G - 1) of the stripe: its row's permutation at the stripe's place in the row.
    raidtlm::controller::unit_place slot(int64_t stripe, int i) const;
    // Row r's permutation of the disks (Fisher-Yates on a splitmix64 stream seeded by r).
    std::vector<int> row_order(int64_t row) const;

    int m_disks;
    int64_t m_unit;
    int m_width;
    int m_stripes_per_row;
    int64_t m_stripes;
};

}  // namespace declustered_raid5
