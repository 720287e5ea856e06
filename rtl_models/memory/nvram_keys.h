// The scenario keys of this block (controller.nvram), declared on its config
// struct (config/key_declarations.h); rtl_models/hardware_keys.h gathers every block's.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/memory/nvram.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<nvram_config> &k);

}  // namespace raidtlm::rtl_models
