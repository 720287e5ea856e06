// Bookkeeping for a request queued on several disks at once (a mirror read, or the first copy
// of a replicated write): the first disk to schedule it wins and the copies in the other disks'
// queues are cancelled. Pure data structure; the firmware owns the queues.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace raidtlm::controller {

class duplicate_request_tracker {
public:
    struct claim {
        bool won = true;            // false: another disk already took it; drop this copy
        std::vector<int> cancel_on;  // when won: remove the request from these disks' queues
    };

    // `request` has been put in the queues of `disks` (two or more).
    void add(uint64_t request, const std::vector<int> &disks);
    // `disk` has scheduled `request`. A request that was never duplicated is always won.
    claim scheduled(uint64_t request, int disk);
    // The copy on `disk` has been removed from its queue.
    void cancelled(uint64_t request, int disk);

    size_t tracked() const { return m_requests.size(); }

private:
    struct state {
        std::vector<int> queued_on;  // disks still holding a copy, winner included
        int winner = -1;
    };
    void forget_when_settled(std::unordered_map<uint64_t, state>::iterator it);
    std::unordered_map<uint64_t, state> m_requests;
};

}  // namespace raidtlm::controller
