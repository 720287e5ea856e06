// stats.json's account of the logical sectors a run lost (controller.firmware):
//   lost_sectors          every sector lost, exact;
//   lost_range_count      the separate ranges they form (touching or overlapping ones merged);
//   lost_ranges           [first logical sector, sectors] pairs in address order, the first
//                         max_listed of them;
//   lost_ranges_left_out  the ranges beyond those (lost_range_count - the pairs listed).
// The list is capped because a loss beyond the checks can cover most of an array in a pattern
// (a RAID 5 that loses two disks loses a unit or two of every stripe: 208,397 ranges, ~35 MB of
// JSON for four 9 GB drives; EXPERIMENTS.md 19.11); the count and the sectors stay exact, and the
// ranges are built one at a time, never held.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace raidtlm::controller {

class lost_range_report {
public:
    // Enough to name every range a few faults lose (a unit or a media error's rows each), small
    // enough that the report stays a few tens of KB whatever the array lost.
    static constexpr size_t max_listed = 1024;

    // Adds [first, end); ranges come in ascending order of `first` (they may overlap or touch).
    void add(int64_t first, int64_t end);
    // Writes the fields above into `out`.
    void write(nlohmann::json &out);

private:
    void close_open_range();

    int64_t m_first = 0, m_end = 0;  // the range being merged; empty when m_first == m_end
    int64_t m_sectors = 0;
    uint64_t m_count = 0;
    nlohmann::json m_listed = nlohmann::json::array();
};

}  // namespace raidtlm::controller
