// The stripes of a parity array that lost more members than its checks cover (their data are
// gone, and host requests that touch them fail), kept as runs of consecutive stripes that lost
// the same members: a RAID 5 that loses two disks loses every stripe, all with the same two
// members, which is one run here rather than one set node per stripe and one lost range per
// unit (11 MB and ~30 MB for a 4-disk array of 9 GB drives; EXPERIMENTS.md 19.11). Memory grows
// with the number of separate runs, not with the size of the array.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace raidtlm::controller {

class lost_stripe_runs {
public:
    struct run {
        int64_t first = 0;       // first stripe
        int64_t end = 0;         // one past the last
        std::vector<int> disks;  // the members absent from each of them, ascending
    };

    // Records `stripe` lost with `absent_disks` absent; false (and nothing changes) when it
    // already was. Merged with the run before or after it when they lost the same members.
    bool add(int64_t stripe, std::vector<int> absent_disks);
    bool contains(int64_t stripe) const;
    // The members `stripe` lost (ascending), nullptr when it is not lost.
    const std::vector<int> *absent_of(int64_t stripe) const;
    // Whether any stripe of [first, last] is lost.
    bool touches(int64_t first, int64_t last) const;
    bool empty() const { return m_runs.empty(); }
    int64_t stripes() const { return m_stripes; }  // stripes lost
    size_t runs() const { return m_runs.size(); }  // separate runs kept
    // The lowest and highest stripe lost (the set must not be empty).
    int64_t first_stripe() const { return m_runs.begin()->second.first; }
    int64_t last_stripe() const { return m_runs.rbegin()->second.end - 1; }

    // The runs in stripe order.
    auto begin() const { return m_runs.begin(); }
    auto end() const { return m_runs.end(); }

private:
    std::map<int64_t, run> m_runs;  // by first stripe; disjoint
    int64_t m_stripes = 0;
};

}  // namespace raidtlm::controller
