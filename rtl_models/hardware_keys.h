// The scenario keys of each hardware block, declared on the block's own config struct (see
// config/key_declarations.h). controller/platform/controller_keys.cpp mounts them under
// controller.<block>: cpu, cost, bus, dram, nvram, xor, host_link.
#pragma once

#include "config/key_declarations.h"
#include "rtl_models/cpu/cpu_cost.h"
#include "rtl_models/memory/dram_arbiter.h"
#include "rtl_models/buses/host_link_timing.h"
#include "rtl_models/memory/nvram.h"
#include "rtl_models/buses/scsi_bus_timing.h"
#include "rtl_models/xor/xor_logic.h"

namespace raidtlm::rtl_models {

void declare_keys(config::declarations<cpu_config> &k);       // cpu_keys.cpp
void declare_keys(config::declarations<cpu_cost_table> &k);   // cpu_keys.cpp
void declare_keys(config::declarations<scsi_bus_config> &k);  // scsi_bus_keys.cpp
void declare_keys(config::declarations<dram_config> &k);      // dram_keys.cpp
void declare_keys(config::declarations<nvram_config> &k);     // nvram_keys.cpp
void declare_keys(config::declarations<xor_config> &k);       // xor_keys.cpp
void declare_keys(config::declarations<host_link_config> &k); // host_link_keys.cpp

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
