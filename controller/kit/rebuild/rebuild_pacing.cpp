#include "controller/kit/rebuild/rebuild_pacing.h"

#include <algorithm>

namespace raidtlm::controller {

double rebuild_pacing::idle_after_ms(double busy_ms, uint64_t bytes) const {
    double idle = 0;
    if (share > 0 && share < 1) idle = busy_ms * (1 - share) / share;
    if (rate_mb_s > 0) idle = std::max(idle, double(bytes) / (rate_mb_s * 1e6) * 1e3 - busy_ms);
    return std::max(idle, 0.0);
}

}  // namespace raidtlm::controller
