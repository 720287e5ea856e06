// Data-integrity scoreboard: remembers the last acknowledged token of every logical sector and
// checks every read against it. A read that overlaps a write still in progress may see either
// the acknowledged token or the one being written, so writes are announced when issued and
// settled when acknowledged. Never-written sectors hold token 0. stats.json reports
// integrity_errors().
// Memory: the acknowledged tokens in a paged array bounded by the logical space written
// (tlm/sector_token_store.h), the writes in flight, and the tokens of failed writes until a
// later write is acknowledged over their sector (any of them may be on the media, so an exact
// check keeps each: 8 bytes a token in a list per sector, not a hash node per token, since a
// sector no write can reach again, e.g. of a stripe that lost two members, collects one from
// every write that fails there; EXPERIMENTS.md 19.5); nothing per request completed.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tlm/sector_token_store.h"

namespace raidtlm::controller {

class scoreboard {
public:
    struct mismatch {
        int64_t lbn;
        uint64_t expected;  // the acknowledged token
        uint64_t got;
    };

    // A write of `token` to logical sector lbn has been issued (not yet acknowledged).
    void write_issued(int64_t lbn, uint64_t token);
    // The write is acknowledged to the host: token is now what every later read must return.
    void write_acknowledged(int64_t lbn, uint64_t token);
    // The write failed: the sector may hold its token or the acknowledged one (a failed write
    // leaves its blocks undetermined) until a later write to it is acknowledged.
    void write_failed(int64_t lbn, uint64_t token);
    // Checks a read's token; returns false and counts an integrity error when it is neither the
    // acknowledged token nor one of a write in progress or failed since.
    bool check_read(int64_t lbn, uint64_t token);

    uint64_t expected(int64_t lbn) const;
    uint64_t integrity_errors() const { return m_errors; }
    uint64_t reads_checked() const { return m_checked; }
    size_t writes_pending() const { return m_in_flight.size() + m_failed_tokens; }
    // The first mismatches (at most max_kept_mismatches), for the report.
    const std::vector<mismatch> &first_mismatches() const { return m_mismatches; }
    static constexpr size_t max_kept_mismatches = 16;

private:
    protocol::sector_token_store m_acknowledged;
    // The writes in flight (few): their tokens by sector.
    std::unordered_multimap<int64_t, uint64_t> m_in_flight;
    // The tokens of failed writes not yet written over, by sector.
    std::unordered_map<int64_t, std::vector<uint64_t>> m_failed;
    size_t m_failed_tokens = 0;
    uint64_t m_errors = 0;
    uint64_t m_checked = 0;
    std::vector<mismatch> m_mismatches;
};

}  // namespace raidtlm::controller
