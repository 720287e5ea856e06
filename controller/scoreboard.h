// Data-integrity scoreboard: remembers the last acknowledged token of every logical sector and
// checks every read against it. A read that overlaps a write still in progress may see either
// the acknowledged token or the one being written, so writes are announced when issued and
// settled when acknowledged. Never-written sectors hold token 0. stats.json reports
// integrity_errors().
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
    // Checks a read's token; returns false and counts an integrity error when it is neither the
    // acknowledged token nor one of a write in progress.
    bool check_read(int64_t lbn, uint64_t token);

    uint64_t expected(int64_t lbn) const;
    uint64_t integrity_errors() const { return m_errors; }
    uint64_t reads_checked() const { return m_checked; }
    // The first mismatches (at most max_kept_mismatches), for the report.
    const std::vector<mismatch> &first_mismatches() const { return m_mismatches; }
    static constexpr size_t max_kept_mismatches = 16;

private:
    protocol::sector_token_store m_acknowledged;
    std::unordered_multimap<int64_t, uint64_t> m_in_progress;  // few: the writes in flight
    uint64_t m_errors = 0;
    uint64_t m_checked = 0;
    std::vector<mismatch> m_mismatches;
};

}  // namespace raidtlm::controller
