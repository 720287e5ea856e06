#include "controller/kit/lost_stripe_runs.h"

#include <algorithm>
#include <iterator>

namespace raidtlm::controller {

bool lost_stripe_runs::add(int64_t stripe, std::vector<int> absent_disks) {
    if (contains(stripe)) return false;
    std::sort(absent_disks.begin(), absent_disks.end());
    ++m_stripes;
    auto next = m_runs.upper_bound(stripe);  // the first run after the stripe
    const bool joins_next = next != m_runs.end() && next->first == stripe + 1 && next->second.disks == absent_disks;
    if (next != m_runs.begin()) {
        run &before = std::prev(next)->second;
        if (before.end == stripe && before.disks == absent_disks) {
            before.end = stripe + 1;
            if (joins_next) {
                before.end = next->second.end;
                m_runs.erase(next);
            }
            return true;
        }
    }
    if (joins_next) {
        run moved = std::move(next->second);
        m_runs.erase(next);
        moved.first = stripe;
        m_runs.emplace(stripe, std::move(moved));
        return true;
    }
    m_runs.emplace(stripe, run{stripe, stripe + 1, std::move(absent_disks)});
    return true;
}

bool lost_stripe_runs::contains(int64_t stripe) const { return touches(stripe, stripe); }

const std::vector<int> *lost_stripe_runs::absent_of(int64_t stripe) const {
    auto it = m_runs.upper_bound(stripe);  // the first run starting after the stripe
    if (it == m_runs.begin()) return nullptr;
    const run &r = std::prev(it)->second;
    return r.end > stripe ? &r.disks : nullptr;
}

bool lost_stripe_runs::touches(int64_t first, int64_t last) const {
    if (m_runs.empty() || first > last) return false;
    auto it = m_runs.upper_bound(first);  // the first run starting after `first`
    if (it != m_runs.begin() && std::prev(it)->second.end > first) return true;
    return it != m_runs.end() && it->first <= last;
}

}  // namespace raidtlm::controller
