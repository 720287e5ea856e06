#include "controller/firmware_api/controller_config.h"

namespace raidtlm::controller {

const char *to_string(array_kind k) {
    switch (k) {
    case array_kind::raid0: return "raid0";
    case array_kind::raid1: return "raid1";
    case array_kind::raid10: return "raid10";
    case array_kind::raid4: return "raid4";
    case array_kind::raid5: return "raid5";
    case array_kind::sr_array: return "sr_array";
    case array_kind::floating: return "floating";
    case array_kind::parity_logging: return "parity_logging";
    case array_kind::adaptraid5: return "adaptraid5";
    case array_kind::raid6: return "raid6";
    }
    return "?";
}

int target_id(int position, int initiator_id) { return position < initiator_id ? position : position + 1; }

}  // namespace raidtlm::controller
