#include "controller/kit/queues/disk_scheduler.h"

#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "config/enum_names.h"

namespace raidtlm::controller {

namespace {

const config::enum_name<scheduling_policy> policy_names[] = {
    {scheduling_policy::fcfs, "fcfs"},   {scheduling_policy::sstf, "sstf"},     {scheduling_policy::look, "look"},
    {scheduling_policy::c_look, "c-look"}, {scheduling_policy::cvscan, "cvscan"}, {scheduling_policy::satf, "satf"},
    {scheduling_policy::rlook, "rlook"}, {scheduling_policy::rsatf, "rsatf"},
};

int64_t lbn_of(const placement &p) { return p.extents.empty() ? 0 : p.extents.front().drive_lbn; }
size_t placements_considered(const queued_request &r, bool all) { return all ? r.placements.size() : 1; }

}  // namespace

std::string to_string(scheduling_policy p) { return config::name_of(policy_names, p); }

scheduling_policy parse_scheduling_policy(const std::string &name) {
    return config::parse_name<std::invalid_argument>(policy_names, name, "scheduling policy");
}

bool is_replica_aware(scheduling_policy p) { return p == scheduling_policy::rlook || p == scheduling_policy::rsatf; }

std::optional<scheduling_decision> disk_scheduler::choose(const std::vector<queued_request> &queue,
                                                          const access_time_oracle &oracle) {
    if (queue.empty()) return std::nullopt;
    const int head = oracle.head_cylinder();
    switch (m_cfg.policy) {
    case scheduling_policy::fcfs: return scheduling_decision{0, 0, 1};
    case scheduling_policy::sstf: return shortest_seek(queue, head, 0.0);
    case scheduling_policy::cvscan: return shortest_seek(queue, head, m_cfg.cvscan_r * m_cfg.cylinders);
    case scheduling_policy::look: return elevator(queue, head, false, oracle);
    case scheduling_policy::rlook: return elevator(queue, head, true, oracle);
    case scheduling_policy::c_look: return circular(queue, head);
    case scheduling_policy::satf: return shortest_access(queue, false, oracle);
    case scheduling_policy::rsatf: return shortest_access(queue, true, oracle);
    }
    return std::nullopt;
}

scheduling_decision disk_scheduler::elevator(const std::vector<queued_request> &queue, int head, bool all_placements,
                                             const access_time_oracle &oracle) {
    scheduling_decision d;
    int target = -1;
    for (int pass = 0; pass < 2 && target < 0; ++pass) {
        int best = std::numeric_limits<int>::max();
        for (const auto &r : queue) {
            for (size_t j = 0; j < placements_considered(r, all_placements); ++j) {
                ++d.entries_examined;
                const int c = r.placements[j].first.cyl;
                if ((m_up ? c >= head : c <= head) && std::abs(c - head) < best) best = std::abs(c - head), target = c;
            }
        }
        if (target < 0) m_up = !m_up;
    }
    // Within the target cylinder: RLOOK takes the rotationally closest placement, LOOK the next
    // LBN in the sweep direction.
    double best_ms = std::numeric_limits<double>::infinity();
    int64_t best_lbn = 0;
    bool found = false;
    for (size_t i = 0; i < queue.size(); ++i) {
        for (size_t j = 0; j < placements_considered(queue[i], all_placements); ++j) {
            const placement &p = queue[i].placements[j];
            if (p.first.cyl != target) continue;
            if (all_placements) {
                ++d.entries_examined;
                const double ms = oracle.access_ms(p, queue[i].write);
                if (ms < best_ms) best_ms = ms, d.request = i, d.placement = j;
            } else if (!found || (m_up ? lbn_of(p) < best_lbn : lbn_of(p) > best_lbn)) {
                best_lbn = lbn_of(p), d.request = i, d.placement = j;
            }
            found = true;
        }
    }
    if (target != head) m_up = target > head;
    return d;
}

scheduling_decision disk_scheduler::circular(const std::vector<queued_request> &queue, int head) {
    scheduling_decision d;
    for (int pass = 0; pass < 2; ++pass) {
        bool found = false;
        std::pair<int, int64_t> best{0, 0};
        for (size_t i = 0; i < queue.size(); ++i) {
            ++d.entries_examined;
            const placement &p = queue[i].placements.front();
            const std::pair<int, int64_t> key{p.first.cyl, lbn_of(p)};
            if ((pass == 1 || key.first >= head) && (!found || key < best)) best = key, d.request = i, found = true;
        }
        if (found) break;
    }
    m_up = true;
    return d;
}

scheduling_decision disk_scheduler::shortest_seek(const std::vector<queued_request> &queue, int head,
                                                  double behind_penalty_cyl) {
    scheduling_decision d;
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < queue.size(); ++i) {
        ++d.entries_examined;
        const int c = queue[i].placements.front().first.cyl;
        const bool behind = m_up ? c < head : c > head;
        const double cost = std::abs(c - head) + (behind ? behind_penalty_cyl : 0.0);
        if (cost < best) best = cost, d.request = i;
    }
    const int c = queue[d.request].placements.front().first.cyl;
    if (c != head) m_up = c > head;
    return d;
}

scheduling_decision disk_scheduler::shortest_access(const std::vector<queued_request> &queue, bool all_placements,
                                                    const access_time_oracle &oracle) {
    scheduling_decision d;
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < queue.size(); ++i) {
        for (size_t j = 0; j < placements_considered(queue[i], all_placements); ++j) {
            ++d.entries_examined;
            const double ms = oracle.access_ms(queue[i].placements[j], queue[i].write);
            if (ms < best) best = ms, d.request = i, d.placement = j;
        }
    }
    const int c = queue[d.request].placements[d.placement].first.cyl;
    if (c != oracle.head_cylinder()) m_up = c > oracle.head_cylinder();
    return d;
}

}  // namespace raidtlm::controller
