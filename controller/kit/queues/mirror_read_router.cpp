#include "controller/kit/queues/mirror_read_router.h"

#include <limits>

namespace raidtlm::controller {

mirror_read_route route_mirror_read(const std::vector<replica> &replicas, const std::function<bool(int disk)> &idle,
                                    const std::function<double(const replica &)> &cost) {
    mirror_read_route route{true, 0};
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < replicas.size(); ++i) {
        if (!idle(replicas[i].disk)) continue;
        const double c = cost(replicas[i]);
        if (route.duplicate || c < best) route = {false, i}, best = c;
    }
    return route;
}

}  // namespace raidtlm::controller
