// Data-integrity scoreboard: remembers the last acknowledged token of every logical sector and
// checks every read against it. A read that overlaps a write still in progress may see either
// the acknowledged token or the one being written, so writes are announced when issued and
// settled when acknowledged. Never-written sectors hold token 0. stats.json reports
// integrity_errors().
//
// A failed write leaves its sectors undetermined: each may hold the failed write's token until a
// later write is acknowledged over it, and the check stays exact (a read is accepted iff it
// returns a token possibly on the media). Memory is bounded by the address space, not by the
// failed writes (a sector no write can reach again, e.g. of a stripe that lost two members,
// sees every write that fails there; EXPERIMENTS.md 19.5, 19.11):
// - the workload's writes carry make_token(lbn, request) with request ids growing in issue order
//   (data_token.h), so a token read back names its write (token_write_sequence). Per sector the
//   scoreboard knows a watermark W: writes of the sector issued at or after W completed, if at all,
//   after its last acknowledged write. A read of such a write's token is accepted without the
//   token being kept: that write is in flight or failed since the last acknowledgement (had it
//   been acknowledged, it would be the last, and W lies past it). W is the last acknowledged
//   write's id + 1, derived from its token, unless a later-issued write of the sector completed
//   first (few sectors: then W is kept in a map until the next acknowledgement in order);
// - the rest is kept token by token until written over, 8 bytes a token in a list per sector: a
//   write issued before the sector's last acknowledged write that fails after it, and tokens not
//   of that form (writes announced without their request id).
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
    static constexpr int64_t no_request = -1;

    // A write of `token` to logical sector lbn has been issued (not yet acknowledged); `request`:
    // the host request's id when its tokens are make_token(lbn, request) (data_token.h).
    void write_issued(int64_t lbn, uint64_t token, int64_t request = no_request);
    // The write is acknowledged to the host: token is now what every later read must return.
    void write_acknowledged(int64_t lbn, uint64_t token, int64_t request = no_request);
    // The write failed: the sector may hold its token or the acknowledged one (a failed write
    // leaves its blocks undetermined) until a later write to it is acknowledged.
    void write_failed(int64_t lbn, uint64_t token, int64_t request = no_request);
    // Checks a read's token; returns false and counts an integrity error when it is neither the
    // acknowledged token nor one of a write in progress or failed since.
    bool check_read(int64_t lbn, uint64_t token);

    uint64_t expected(int64_t lbn) const;
    uint64_t integrity_errors() const { return m_errors; }
    uint64_t reads_checked() const { return m_checked; }
    // Tokens held for writes not settled: those in flight and the failed writes' tokens kept one
    // by one (a failed write named by its request id keeps none).
    size_t writes_pending() const { return m_in_flight.size() + m_failed_tokens; }
    // Sectors whose watermark is kept explicitly (acknowledged out of issue order).
    size_t watermarks_kept() const { return m_watermarks.size(); }
    // The first mismatches (at most max_kept_mismatches), for the report.
    const std::vector<mismatch> &first_mismatches() const { return m_mismatches; }
    static constexpr size_t max_kept_mismatches = 16;

private:
    struct in_flight_write {
        uint64_t token;
        int64_t request;        // no_request: not a make_token write
        uint64_t overtaken_by;  // 1 + the highest request of the sector issued later and completed first; 0 none
    };
    // Whether `token` is make_token(lbn, request) for a request id given.
    static bool named_by_request(int64_t lbn, uint64_t token, int64_t request);
    // The write (lbn, token) leaves flight: its entry removed, and the earlier-issued writes of
    // the sector still in flight learn that a later one completed first. Returns its
    // overtaken_by (for a write announced without write_issued: as if every write issued so far
    // had completed first).
    uint64_t settle(int64_t lbn, uint64_t token, int64_t request);
    // Writes of the sector with request ids at or above this completed after its last
    // acknowledgement, if at all.
    uint64_t watermark(int64_t lbn) const;

    protocol::sector_token_store m_acknowledged;
    // The writes in flight (few): by sector.
    std::unordered_multimap<int64_t, in_flight_write> m_in_flight;
    // Failed writes' tokens kept one by one until written over, by sector.
    std::unordered_map<int64_t, std::vector<uint64_t>> m_failed;
    size_t m_failed_tokens = 0;
    // Watermarks not given by the last acknowledged token (acknowledged out of issue order).
    std::unordered_map<int64_t, uint64_t> m_watermarks;
    uint64_t m_next_request = 0;      // 1 + the highest request id issued
    uint64_t m_completed_bound = 0;   // 1 + the highest request id completed
    uint64_t m_errors = 0;
    uint64_t m_checked = 0;
    std::vector<mismatch> m_mismatches;
};

}  // namespace raidtlm::controller
