// The scenario keys of this block (controller.cpu and controller.cost), declared on its config
// struct (config/key_declarations.h); rtl_models/hardware_keys.h gathers every block's.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/cpu/cpu_cost.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<cpu_config> &k);
void declare_keys(config::declarations<cpu_cost_table> &k);

}  // namespace raidtlm::rtl_models
