#include "controller/controller_config.h"

namespace raidtlm::controller {

int target_id(int position, int initiator_id) { return position < initiator_id ? position : position + 1; }

}  // namespace raidtlm::controller
