// Which sectors of a drive range are unreadable, found as firmware finds them: a drive that
// answers MEDIUM ERROR moves no data and says only that some sector of the command could not be
// read, so the range is read again in halves, and each half that fails in halves again, down to
// single sectors. The readable pieces are read on the way (their data land where `read` puts
// them), so the caller ends with every readable sector of the range and the list of the others.
// Costs one read for a clean range, about 2 log2(n) per isolated bad sector, 2n - 1 for a range
// all bad.
//
// Used where a redundant layout cannot rebuild a piece and must know exactly what is lost: a
// rebuild step whose source answered MEDIUM ERROR, a read beyond the layout's redundancy (lost
// sectors are recorded per sector, not per unit: EXPERIMENTS 19.2).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace raidtlm::controller {

struct sector_run {
    uint64_t first = 0;  // offset within the range
    uint64_t count = 0;
    bool operator==(const sector_run &o) const { return first == o.first && count == o.count; }
};

// `read(offset, count)`: reads that piece of the range; false: it failed. `read` is not called
// for the whole range: the caller has seen it fail. Runs ascending, adjacent runs merged.
std::vector<sector_run> narrow_unreadable(uint64_t sectors, const std::function<bool(uint64_t, uint64_t)> &read);

// Whether `offset` is in one of `runs` (ascending).
bool in_runs(const std::vector<sector_run> &runs, uint64_t offset);

}  // namespace raidtlm::controller
