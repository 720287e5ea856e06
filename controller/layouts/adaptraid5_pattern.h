// AdaptRaid5's block distribution (Cortes and Labarta, "Extending Heterogeneity to RAID level 5",
// USENIX 2001, ../shared/papers/003_*.txt sections 4.1 and 4.2): a heterogeneous RAID 5 whose
// stripes get narrower as the disks that hold fewer blocks run out of room. Pure C++; positions
// are in stripe units (blocks).
//
// The pattern is built on a "smaller array" where disk d has budget[d] blocks:
//   1. every disk with room takes part while the one with least room has some (a phase); when it
//      is full the next phase uses the others;
//   2. a phase's stripe width w is the widest (w <= disks with room) whose data count w-1 divides
//      the reference (widest, first-phase) stripe's, so a file system's full stripe is always
//      whole narrower stripes;
//   3. stripe k of a phase starts one disk to the left of stripe k-1 (cyclically over the
//      phase's disks; the phase's stripe 0 on its lowest disk); its data units follow in disk
//      order and its parity is last, where a regular left-symmetric RAID 5 of w disks puts it;
//   4. "Tetris": every block drops to its disk's lowest free position, so no hole is left;
//   5. data per pattern is a whole number of reference stripes: trailing stripes are dropped
//      until it is (the phase-1 stripes alone always are), so every repetition of the pattern
//      starts on a file system full stripe.
// With utilisation factors UF and SIP stripes in the pattern, budget[d] = floor(UF[d] * SIP) and
// the pattern holds at most SIP stripes. The pattern is then repeated down the disks.
//
// The steps are flags so the paper's intermediate versions (its Figures 1-4) can be built too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::controller {

struct adaptraid5_steps {
    bool divisible_widths = true;  // step 2 (off: Figure 1's "intuitive" widths = disks with room)
    bool fill_holes = true;        // step 4 (off: a stripe sits on one row of its disks, Figure 3)
    bool whole_reference_stripes = true;  // step 5
};

// A block's place in the pattern: disk, position on that disk within one repetition.
struct pattern_place {
    int disk = 0;
    int64_t pos = 0;
};

// What a position of a disk holds in the pattern: data unit `unit` of `stripe`, its parity
// (unit == parity_unit), or nothing (stripe == -1, only where the pattern leaves a hole).
struct pattern_slot {
    static constexpr int parity_unit = -1;
    int stripe = -1;
    int unit = parity_unit;
};

struct pattern_stripe {
    int64_t first_data_block = 0;  // in the pattern
    int data_blocks = 0;           // width - 1
    pattern_place parity;
    std::vector<pattern_place> data;  // data unit j of the stripe
};

// The pattern and section 4.2's three tables.
class adaptraid5_pattern {
public:
    // From per-disk budgets (blocks of the smaller array), at most `max_stripes` stripes (<= 0:
    // until fewer than two disks have room). Throws layout_error unless there are >= 2 disks and
    // every budget is >= 1.
    adaptraid5_pattern(const std::vector<int64_t> &budget_blocks, int max_stripes, adaptraid5_steps steps = {});
    // From utilisation factors and stripes-in-pattern. Throws layout_error naming the bad value:
    // fewer than 2 disks, a UF outside (0, 1], SIP < 1, or SIP too small for a disk to get one
    // block (UF * SIP < 1).
    static adaptraid5_pattern from_utilisation(const std::vector<double> &uf, int sip, adaptraid5_steps steps = {});

    int disks() const { return int(m_blocks_per_disk.size()); }
    int reference_data_blocks() const { return m_reference_data_blocks; }
    int64_t data_blocks() const { return int64_t(m_location.size()); }
    int stripes() const { return int(m_stripes.size()); }

    // Section 4.2's tables: location (one entry per data block of the pattern), parity (one per
    // stripe) and Blks_per_disk_in_pattern (one per disk, data and parity).
    const std::vector<pattern_place> &location() const { return m_location; }
    std::vector<pattern_place> parity() const;
    const std::vector<int64_t> &blocks_per_disk() const { return m_blocks_per_disk; }

    const pattern_stripe &stripe(int s) const { return m_stripes[size_t(s)]; }
    // The pattern stripe holding pattern data block b, and b's data unit index in it.
    int stripe_of_block(int64_t b) const { return m_stripe_of_block[size_t(b)]; }
    // The inverse of the tables, for rebuilding a disk: what position pos (< blocks_per_disk) of
    // a disk holds.
    pattern_slot slot(int disk, int64_t pos) const { return m_slots[size_t(disk)][size_t(pos)]; }

    // Section 4.2's formulas over the repeated pattern, for any array block B >= 0.
    int disk_of(int64_t block) const { return m_location[size_t(block % data_blocks())].disk; }
    int64_t pos_of(int64_t block) const;
    // A place of pattern repetition `repetition`.
    pattern_place repeated(pattern_place p, int64_t repetition) const {
        return {p.disk, p.pos + repetition * m_blocks_per_disk[size_t(p.disk)]};
    }

    // Rows of text, one per position, a column per disk: "8-2" (data block 8 of stripe 2), "P2",
    // "." (empty), as the paper draws its figures.
    std::string picture() const;

private:
    std::vector<pattern_stripe> m_stripes;
    std::vector<pattern_place> m_location;
    std::vector<int> m_stripe_of_block;
    std::vector<int64_t> m_blocks_per_disk;
    std::vector<std::vector<pattern_slot>> m_slots;  // [disk][pos]
    int m_reference_data_blocks = 0;
};

}  // namespace raidtlm::controller
