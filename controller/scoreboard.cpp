#include "controller/scoreboard.h"

namespace raidtlm::controller {

void scoreboard::write_issued(int64_t lbn, uint64_t token) { m_in_progress.emplace(lbn, pending{token, false}); }

void scoreboard::write_acknowledged(int64_t lbn, uint64_t token) {
    // This write's entry, and what failed writes left: written over now.
    bool found = false;
    auto [b, e] = m_in_progress.equal_range(lbn);
    for (auto it = b; it != e;) {
        if (it->second.failed || (!found && it->second.token == token)) {
            found = found || !it->second.failed;
            it = m_in_progress.erase(it);
        } else {
            ++it;
        }
    }
    m_acknowledged.set(lbn, token);
}

void scoreboard::write_failed(int64_t lbn, uint64_t token) {
    auto [b, e] = m_in_progress.equal_range(lbn);
    for (auto it = b; it != e; ++it) {
        if (!it->second.failed && it->second.token == token) {
            it->second.failed = true;
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
    auto [b, e] = m_in_progress.equal_range(lbn);
    for (auto it = b; it != e; ++it)
        if (it->second.token == token) return true;
    ++m_errors;
    if (m_mismatches.size() < max_kept_mismatches) m_mismatches.push_back({lbn, want, token});
    return false;
}

}  // namespace raidtlm::controller
