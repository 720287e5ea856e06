#include "controller/kit/rebuild/rebuild_cursor.h"

#include <stdexcept>

namespace raidtlm::controller {

void rebuild_cursor::advance() {
    if (done()) throw std::logic_error("rebuild_cursor: advanced past the last unit");
    ++m_next;
}

std::vector<std::pair<uint64_t, uint64_t>> rebuild_cursor::lost_units(
    const std::function<bool(uint64_t)> &needs_both) const {
    std::vector<std::pair<uint64_t, uint64_t>> runs;
    for (uint64_t u = m_next; u < m_units; ++u) {
        if (!needs_both(u)) continue;
        if (!runs.empty() && runs.back().second == u) ++runs.back().second;
        else runs.push_back({u, u + 1});
    }
    return runs;
}

}  // namespace raidtlm::controller
