#include "controller/kit/queues/duplicate_request_tracker.h"

#include <algorithm>

namespace raidtlm::controller {

void duplicate_request_tracker::add(uint64_t request, const std::vector<int> &disks) {
    m_requests[request] = {disks, -1};
}

duplicate_request_tracker::claim duplicate_request_tracker::scheduled(uint64_t request, int disk) {
    auto it = m_requests.find(request);
    if (it == m_requests.end()) return {};
    state &s = it->second;
    if (s.winner >= 0 && s.winner != disk) return {false, {}};
    s.winner = disk;
    claim c;
    for (int d : s.queued_on)
        if (d != disk) c.cancel_on.push_back(d);
    forget_when_settled(it);
    return c;
}

void duplicate_request_tracker::cancelled(uint64_t request, int disk) {
    auto it = m_requests.find(request);
    if (it == m_requests.end()) return;
    auto &q = it->second.queued_on;
    q.erase(std::remove(q.begin(), q.end(), disk), q.end());
    forget_when_settled(it);
}

void duplicate_request_tracker::forget_when_settled(std::unordered_map<uint64_t, state>::iterator it) {
    const state &s = it->second;
    if (s.winner >= 0 && std::all_of(s.queued_on.begin(), s.queued_on.end(), [&](int d) { return d == s.winner; }))
        m_requests.erase(it);
}

}  // namespace raidtlm::controller
