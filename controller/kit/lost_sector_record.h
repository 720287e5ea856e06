// The sectors a firmware has recorded lost (a second fault: no copy, no redundancy left to give
// them back) and not written since. Reads of them fail rather than return what a stale parity or
// a blank drive holds; a write makes them good again.
// Both look at the losses noted while they were out (a mark taken before, noted_since after): a
// rebuild step that found a survivor's rows unreadable writes the XOR of the rest over the new
// drive's rows, under its stripe lock, possibly after a write of the host's reached that stripe
// and before the write as a whole is done (its other stripes queued). Such a write makes good only
// what no loss noted during it touches, and a read out at the time returns an error, not what it
// read (explorer case 161:35, EXPERIMENTS.md 19.44).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "controller/kit/sector_ranges.h"

namespace raidtlm::controller {

class lost_sector_record {
public:
    // [first, end) lost: reads of it fail until it is written.
    void note(int64_t first, int64_t end);
    // [first, end) written by a write that began at `mark`: good again, but for what a loss noted
    // since touches (lost after the write reached it, or before: which one, only the stripe knows).
    void written(int64_t first, int64_t end, uint64_t mark);
    bool overlaps(int64_t first, int64_t end) const { return m_current.overlaps(first, end); }
    bool covers(int64_t first, int64_t end) const { return m_current.covers(first, end); }
    // A mark before a read goes out: noted_since(mark, ...) once its data are in.
    uint64_t mark() const { return m_notes.size(); }
    // Whether a loss noted after `mark` touches [first, end), written since or not.
    bool noted_since(uint64_t mark, int64_t first, int64_t end) const;
    const sector_ranges &current() const { return m_current; }

private:
    sector_ranges m_current;
    // Every note in order (a mark is an index): few, a run notes only what second faults lose.
    std::vector<std::pair<int64_t, int64_t>> m_notes;
};

}  // namespace raidtlm::controller
