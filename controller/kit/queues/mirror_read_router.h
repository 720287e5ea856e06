// Mirror reads (Yu et al. 3.3): a read of data held on several disks goes at once to the idle
// holder whose head is closest to its copy; when every holder is busy it is duplicated into all
// their queues, and the first disk to schedule it cancels the others (duplicate_request_tracker).
#pragma once

#include <functional>
#include <vector>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

struct mirror_read_route {
    bool duplicate = false;  // queue on every holder's disk
    size_t replica = 0;      // otherwise: send this replica now
};

// `idle(disk)`: the disk has nothing queued or in service. `cost(replica)`: how far its disk's
// head is from it (predicted access time, or seek distance). Ties go to the first replica.
mirror_read_route route_mirror_read(const std::vector<replica> &replicas, const std::function<bool(int disk)> &idle,
                                    const std::function<double(const replica &)> &cost);

}  // namespace raidtlm::controller
