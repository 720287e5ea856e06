// The scenario keys of this block (controller.host_link), declared on its config
// struct (config/key_declarations.h); rtl_models/hardware_keys.h gathers every block's.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/buses/host_link_timing.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<host_link_config> &k);

}  // namespace raidtlm::rtl_models
