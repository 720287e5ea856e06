// A set of logical sectors kept as disjoint, merged [first, end) ranges: memory grows with the
// number of separate ranges, not with the sectors they hold. The sectors lost to a second fault
// (every stripe of a RAID 5 that lost two disks: most of the array) were kept one set node per
// sector, 1.4 GB for a 4-disk array of 9 GB drives (EXPERIMENTS.md 19.5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace raidtlm::controller {

class sector_ranges {
public:
    // Adds [first, end): merged with the ranges it overlaps or touches.
    void insert(int64_t first, int64_t end);
    // Removes [first, end): ranges it covers go, ranges it cuts are trimmed or split.
    void erase(int64_t first, int64_t end);
    // Whether every sector of [first, end) is in the set.
    bool covers(int64_t first, int64_t end) const;
    // Whether any sector of [first, end) is in the set.
    bool overlaps(int64_t first, int64_t end) const;
    bool empty() const { return m_ranges.empty(); }
    size_t ranges() const { return m_ranges.size(); }
    int64_t sectors() const;
    void clear() { m_ranges.clear(); }
    // The ranges in address order, as (first, end) pairs.
    auto begin() const { return m_ranges.begin(); }
    auto end() const { return m_ranges.end(); }

private:
    std::map<int64_t, int64_t> m_ranges;  // first -> end, disjoint and not touching
};

}  // namespace raidtlm::controller
