// The scenario keys of each hardware block, declared on the block's own config struct (see
// config/key_declarations.h). controller/platform/controller_keys.cpp mounts them under
// controller.<block>: cpu, cost, bus, dram, nvram, xor, host_link.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/buses/host_link_keys.h"
#include "rtl_models/buses/scsi_bus_keys.h"
#include "rtl_models/cpu/cpu_keys.h"
#include "rtl_models/memory/dram_keys.h"
#include "rtl_models/memory/nvram_keys.h"
#include "rtl_models/xor/xor_keys.h"

namespace raidtlm::rtl_models {

// A block's keys, declared once.
template <class Config>
const config::declarations<Config> &keys_of() {
    static const config::declarations<Config> keys = [] {
        config::declarations<Config> k;
        declare_keys(k);
        return k;
    }();
    return keys;
}

}  // namespace raidtlm::rtl_models
