#include "controller/families/bricks/claim_arbiter.h"

#include <iterator>
#include <stdexcept>
#include <string>

namespace raidtlm::controller {

bool claim_wins(const claim_bid &a, const claim_bid &b) {
    if (a.service_ms != b.service_ms)
        return a.service_ms < b.service_ms;
    return a.brick < b.brick;
}

bool claim_arbiter::enqueue(uint64_t read) {
    if (m_early.erase(read)) {
        ++m_stats.dropped;
        return false;
    }
    m_reads.emplace(read, entry{});
    return true;
}

claim_bid claim_arbiter::start_claim(uint64_t read, double service_ms) {
    auto it = m_reads.find(read);
    if (it == m_reads.end() || it->second.s != state::queued)
        throw std::logic_error("claim_arbiter: claim of read " + std::to_string(read) + " that is not queued");
    it->second.s = state::claiming;
    it->second.own = claim_bid{m_brick, service_ms};
    ++m_claiming;
    ++m_stats.claims_sent;
    return it->second.own;
}

claim_arbiter::verdict claim_arbiter::on_remote_claim(uint64_t read, const claim_bid &remote, double now_ms) {
    ++m_stats.claims_received;
    auto it = m_reads.find(read);
    if (it == m_reads.end()) {
        // Served or dropped here already, or not arrived yet: remembered either way.
        m_early.emplace(read, now_ms);
        return verdict::drop;
    }
    entry &e = it->second;
    switch (e.s) {
    case state::queued:
        m_reads.erase(it);
        ++m_stats.dropped;
        return verdict::drop;
    case state::claiming:
        if (claim_wins(e.own, remote)) {
            if (!e.conflict_counted) {
                e.conflict_counted = true;
                ++m_stats.conflicts_won;
            }
            return verdict::keep;
        }
        m_reads.erase(it);
        --m_claiming;
        ++m_stats.conflicts_lost;
        ++m_stats.dropped;
        return verdict::drop;
    case state::issued:
        ++m_stats.duplicates;
        return claim_wins(remote, e.own) ? verdict::duplicate_should_yield : verdict::duplicate;
    }
    return verdict::drop;
}

bool claim_arbiter::may_issue(uint64_t read) {
    auto it = m_reads.find(read);
    if (it == m_reads.end())
        return false;
    if (it->second.s == state::claiming)
        --m_claiming;
    it->second.s = state::issued;
    return true;
}

void claim_arbiter::finish(uint64_t read) {
    auto it = m_reads.find(read);
    if (it == m_reads.end())
        return;
    if (it->second.s == state::claiming)
        --m_claiming;
    m_reads.erase(it);
}

void claim_arbiter::forget_claims_before(double t_ms) {
    for (auto it = m_early.begin(); it != m_early.end();)
        it = it->second < t_ms ? m_early.erase(it) : std::next(it);
}

bool claim_arbiter::claiming(uint64_t read) const {
    auto it = m_reads.find(read);
    return it != m_reads.end() && it->second.s == state::claiming;
}

}  // namespace raidtlm::controller
