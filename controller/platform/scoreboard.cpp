#include "controller/platform/scoreboard.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include "controller/kit/data_token.h"

namespace raidtlm::controller {

bool scoreboard::named_by_request(int64_t lbn, uint64_t token, int64_t request) {
    return request >= 0 && make_token(lbn, uint64_t(request)) == token;
}

void scoreboard::write_issued(int64_t lbn, uint64_t token, int64_t request) {
    if (!named_by_request(lbn, token, request)) {
        m_in_flight.emplace(lbn, in_flight_write{token, no_request, 0});
        return;
    }
    m_next_request = std::max(m_next_request, uint64_t(request) + 1);
    // A write with a higher id that already completed (ids out of issue order) may have been a
    // write of this sector: count it as having overtaken this one.
    const uint64_t overtaken_by = m_completed_bound > uint64_t(request) ? m_completed_bound : 0;
    m_in_flight.emplace(lbn, in_flight_write{token, request, overtaken_by});
}

uint64_t scoreboard::settle(int64_t lbn, uint64_t token, int64_t request) {
    uint64_t overtaken_by = m_next_request;  // not announced: as if every write issued so far completed first
    auto [b, e] = m_in_flight.equal_range(lbn);
    for (auto it = b; it != e; ++it)
        if (it->second.token == token) {
            overtaken_by = it->second.overtaken_by;
            m_in_flight.erase(it);
            break;
        }
    if (request != no_request) {
        m_next_request = std::max(m_next_request, uint64_t(request) + 1);
        m_completed_bound = std::max(m_completed_bound, uint64_t(request) + 1);
        std::tie(b, e) = m_in_flight.equal_range(lbn);
        for (auto it = b; it != e; ++it)
            if (it->second.request != no_request && it->second.request < request)
                it->second.overtaken_by = std::max(it->second.overtaken_by, uint64_t(request) + 1);
    }
    return overtaken_by;
}

uint64_t scoreboard::watermark(int64_t lbn) const {
    const auto kept = m_watermarks.find(lbn);
    if (kept != m_watermarks.end()) return kept->second;
    const uint64_t acknowledged = m_acknowledged.get(lbn);
    if (acknowledged == 0) return 0;  // never written: every write of it is in flight or failed
    uint64_t request = 0;
    // Only a named write's token is acknowledged without a kept watermark; should it not invert,
    // no failed write is left to the watermark (they are all kept one by one).
    if (!token_write_sequence(lbn, acknowledged, &request)) return std::numeric_limits<uint64_t>::max();
    return request + 1;
}

void scoreboard::write_acknowledged(int64_t lbn, uint64_t token, int64_t request) {
    if (!named_by_request(lbn, token, request)) request = no_request;
    const uint64_t overtaken_by = settle(lbn, token, request);
    // What failed writes left: written over now.
    const auto failed = m_failed.find(lbn);
    if (failed != m_failed.end()) {
        m_failed_tokens -= failed->second.size();
        m_failed.erase(failed);
    }
    m_acknowledged.set(lbn, token);
    if (request == no_request) {
        // Every named write issued so far is taken to have completed before this one. None
        // issued yet: nothing kept; the watermark read from an unnamed token is an arbitrary
        // 64-bit number, beyond every id but as rarely as two tokens collide, so failed writes
        // issued later are kept one by one (exact).
        if (m_next_request > 0) m_watermarks[lbn] = m_next_request;
        else if (!m_watermarks.empty()) m_watermarks.erase(lbn);
        return;
    }
    const uint64_t mark = std::max(uint64_t(request) + 1, overtaken_by);
    if (mark != uint64_t(request) + 1) m_watermarks[lbn] = mark;
    else if (!m_watermarks.empty()) m_watermarks.erase(lbn);  // the token says it
}

void scoreboard::write_failed(int64_t lbn, uint64_t token, int64_t request) {
    if (!named_by_request(lbn, token, request)) request = no_request;
    const auto [b, e] = m_in_flight.equal_range(lbn);
    if (std::none_of(b, e, [&](const auto &w) { return w.second.token == token; })) return;  // not announced
    settle(lbn, token, request);
    // Issued after the sector's last acknowledged write: accepted by its id (check_read).
    if (request != no_request && uint64_t(request) >= watermark(lbn)) return;
    m_failed[lbn].push_back(token);
    ++m_failed_tokens;
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
        if (it->second.token == token) return true;
    const auto failed = m_failed.find(lbn);
    if (failed != m_failed.end() && std::find(failed->second.begin(), failed->second.end(), token) != failed->second.end())
        return true;
    // A named write of this sector issued after its last acknowledged write: in flight or failed.
    uint64_t request = 0;
    if (token_write_sequence(lbn, token, &request) && request >= watermark(lbn) && request < m_next_request) return true;
    ++m_errors;
    if (m_mismatches.size() < max_kept_mismatches) m_mismatches.push_back({lbn, want, token});
    return false;
}

}  // namespace raidtlm::controller
