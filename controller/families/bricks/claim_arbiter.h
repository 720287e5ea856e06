// D-SPTF's CLAIM protocol as one brick sees it (Lumb, chapter 4.1.1 and 4.1.3): the reads a
// brick holds in its queue, the ones it is claiming (CLAIM sent, waiting two one-way network
// latencies before the disk command: prescheduling) and the ones it has issued, and what a
// CLAIM from another brick does to each:
//   - a queued read is dropped (another brick serves it);
//   - a read this brick is claiming too is a conflict: the lower service-time bid wins, the
//     lower brick id breaks a tie; the loser drops the read and chooses again;
//   - a read already issued to the disk is served twice (a duplicate: the claim came too late);
//   - a read not yet known (its CLAIM overtook the forwarded request) is remembered and the
//     read is dropped when it arrives.
// Plain C++, no SystemC: the brick firmware owns the queue and the timing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace raidtlm::controller {

// A CLAIM's service-time bid: the SPTF-predicted positioning time (ms) at the claiming brick.
struct claim_bid {
    int brick = 0;
    double service_ms = 0;
};

// True when `a` beats `b`: lower predicted service time, then lower brick id.
bool claim_wins(const claim_bid &a, const claim_bid &b);

class claim_arbiter {
public:
    enum class verdict {
        drop,       // the read is not (or no longer) this brick's: remove it from the queue
        keep,       // this brick's own claim beats the remote one: go on
        duplicate,  // already at the disk: it will be served here too
        // already at the disk, and the remote bid beats this brick's own: this brick should not
        // have taken it (latency scheduling's random backoff reacts to this)
        duplicate_should_yield,
    };
    struct statistics {
        uint64_t claims_sent = 0;
        uint64_t claims_received = 0;
        uint64_t conflicts_won = 0;   // remote claims beaten by this brick's own (once per read)
        uint64_t conflicts_lost = 0;  // own claims beaten by a remote one
        uint64_t dropped = 0;         // reads removed because another brick claimed them
        uint64_t duplicates = 0;      // remote claims for a read already at this brick's disk
    };

    explicit claim_arbiter(int brick) : m_brick(brick) {}
    int brick() const { return m_brick; }

    // A read arrived (from a client or forwarded). False: a CLAIM for it came first, drop it.
    bool enqueue(uint64_t read);
    // This brick selected `read` with its SPTF prediction; returns the bid its CLAIM carries.
    claim_bid start_claim(uint64_t read, double service_ms);
    // A CLAIM from another brick, received at now_ms.
    verdict on_remote_claim(uint64_t read, const claim_bid &remote, double now_ms);
    // The claiming wait is over. True: issue it to the disk (now marked issued). False: the
    // read was lost to another brick meanwhile (already dropped by on_remote_claim).
    bool may_issue(uint64_t read);
    // The read was served (here), or abandoned: forget it.
    void finish(uint64_t read);

    bool holds(uint64_t read) const { return m_reads.count(read) != 0; }
    bool claiming(uint64_t read) const;
    size_t held() const { return m_reads.size(); }
    size_t claims_in_flight() const { return m_claiming; }
    // Claims for reads this brick does not hold are remembered (the read may still come: its
    // CLAIM overtook the forward on another path) until forgotten here: the firmware forgets
    // those older than any network delay, since a claim for a read already served or dropped
    // here looks the same.
    size_t early_claims() const { return m_early.size(); }
    void forget_claims_before(double t_ms);
    const statistics &stats() const { return m_stats; }
    void reset_statistics() { m_stats = statistics{}; }

private:
    enum class state { queued, claiming, issued };
    struct entry {
        state s = state::queued;
        claim_bid own;
        bool conflict_counted = false;
    };
    int m_brick;
    std::unordered_map<uint64_t, entry> m_reads;
    std::unordered_map<uint64_t, double> m_early;  // read -> when its claim came
    size_t m_claiming = 0;
    statistics m_stats;
};

}  // namespace raidtlm::controller
