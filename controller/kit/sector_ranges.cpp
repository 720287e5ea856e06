#include "controller/kit/sector_ranges.h"

#include <algorithm>
#include <iterator>

namespace raidtlm::controller {

void sector_ranges::insert(int64_t first, int64_t end) {
    if (first >= end) return;
    // The first range that could touch [first, end): the one before `first`, if it reaches it.
    auto it = m_ranges.upper_bound(first);
    if (it != m_ranges.begin() && std::prev(it)->second >= first) --it;
    while (it != m_ranges.end() && it->first <= end) {
        first = std::min(first, it->first);
        end = std::max(end, it->second);
        it = m_ranges.erase(it);
    }
    m_ranges.emplace(first, end);
}

void sector_ranges::erase(int64_t first, int64_t end) {
    if (first >= end || m_ranges.empty()) return;
    auto it = m_ranges.upper_bound(first);
    if (it != m_ranges.begin() && std::prev(it)->second > first) --it;
    while (it != m_ranges.end() && it->first < end) {
        const int64_t lo = it->first, hi = it->second;
        it = m_ranges.erase(it);
        if (lo < first) m_ranges.emplace(lo, first);
        if (hi > end) {
            m_ranges.emplace(end, hi);
            break;
        }
    }
}

bool sector_ranges::overlaps(int64_t first, int64_t end) const {
    if (first >= end || m_ranges.empty()) return false;
    auto it = m_ranges.upper_bound(first);
    if (it != m_ranges.begin() && std::prev(it)->second > first) return true;
    return it != m_ranges.end() && it->first < end;
}

bool sector_ranges::covers(int64_t first, int64_t end) const {
    if (first >= end) return true;
    auto it = m_ranges.upper_bound(first);
    if (it == m_ranges.begin()) return false;
    --it;  // the range starting at or before `first`: ranges do not touch, so it alone can cover it
    return it->first <= first && it->second >= end;
}

int64_t sector_ranges::sectors() const {
    int64_t n = 0;
    for (const auto &[first, end] : m_ranges) n += end - first;
    return n;
}

}  // namespace raidtlm::controller
