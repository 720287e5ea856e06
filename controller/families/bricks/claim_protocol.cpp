#include "controller/families/bricks/claim_protocol.h"

#include <algorithm>

namespace raidtlm::controller {

const char *to_string(claim_protocol p) {
    switch (p) {
    case claim_protocol::prescheduling: return "prescheduling";
    case claim_protocol::latency: return "latency";
    case claim_protocol::latency_random_backoff: return "latency_random_backoff";
    case claim_protocol::post_abort: return "post_abort";
    }
    return "?";
}

std::optional<claim_protocol> claim_protocol_named(const std::string &name) {
    for (claim_protocol p : {claim_protocol::prescheduling, claim_protocol::latency,
                             claim_protocol::latency_random_backoff, claim_protocol::post_abort})
        if (name == to_string(p))
            return p;
    return std::nullopt;
}

bool claims_before_issue(claim_protocol p) { return p != claim_protocol::post_abort; }

bool picks_ahead(claim_protocol p) { return p == claim_protocol::prescheduling; }

bool backs_off_at_random(claim_protocol p) { return p == claim_protocol::latency_random_backoff; }

double pick_ahead_at_ms(double now_ms, double predicted_status_ms, double one_way_latency_ms) {
    return std::max(now_ms, predicted_status_ms - 2 * one_way_latency_ms);
}

double claim_wait_ms(claim_protocol p, double one_way_latency_ms, double predicted_rotation_ms) {
    switch (p) {
    case claim_protocol::prescheduling: return 2 * one_way_latency_ms;
    case claim_protocol::latency:
    case claim_protocol::latency_random_backoff: return std::max(0.0, predicted_rotation_ms);
    case claim_protocol::post_abort: return 0;
    }
    return 0;
}

}  // namespace raidtlm::controller
