// The scenario keys of this block (controller.bus), declared on its config
// struct (config/key_declarations.h); rtl_models/hardware_keys.h gathers every block's.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/buses/scsi_bus_timing.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<scsi_bus_config> &k);

}  // namespace raidtlm::rtl_models
