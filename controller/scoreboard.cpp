#include "controller/scoreboard.h"

#include <algorithm>

namespace raidtlm::controller {

void scoreboard::write_issued(int64_t lbn, uint64_t token) { m_in_flight.emplace(lbn, token); }

void scoreboard::write_acknowledged(int64_t lbn, uint64_t token) {
    // This write's entry, and what failed writes left: written over now.
    auto [b, e] = m_in_flight.equal_range(lbn);
    for (auto it = b; it != e; ++it)
        if (it->second == token) {
            m_in_flight.erase(it);
            break;
        }
    const auto failed = m_failed.find(lbn);
    if (failed != m_failed.end()) {
        m_failed_tokens -= failed->second.size();
        m_failed.erase(failed);
    }
    m_acknowledged.set(lbn, token);
}

void scoreboard::write_failed(int64_t lbn, uint64_t token) {
    auto [b, e] = m_in_flight.equal_range(lbn);
    for (auto it = b; it != e; ++it) {
        if (it->second == token) {
            m_in_flight.erase(it);
            m_failed[lbn].push_back(token);
            ++m_failed_tokens;
            return;
        }
    }
}

uint64_t scoreboard::expected(int64_t lbn) const {
    return m_acknowledged.get(lbn);
}

bool scoreboard::check_read(int64_t lbn, uint64_t token) {
    ++m_checked;
    const uint64_t want = expected(lbn);
    if (token == want) return true;
    auto [b, e] = m_in_flight.equal_range(lbn);
    for (auto it = b; it != e; ++it)
        if (it->second == token) return true;
    const auto failed = m_failed.find(lbn);
    if (failed != m_failed.end() && std::find(failed->second.begin(), failed->second.end(), token) != failed->second.end())
        return true;
    ++m_errors;
    if (m_mismatches.size() < max_kept_mismatches) m_mismatches.push_back({lbn, want, token});
    return false;
}

}  // namespace raidtlm::controller
