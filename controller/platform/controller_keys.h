// The scenario keys of the controller (see config/key_declarations.h), mounted by the testbench
// under `controller`:
//   controller_keys.cpp  the platform: channels, initiator_id, and the hardware blocks' own keys
//                        (rtl_models/hardware_keys.h) as groups cpu, cost, bus, dram, nvram, xor,
//                        host_link
//   firmware_keys.cpp    every firmware key (layout, scheduler, predictor, parity logging,
//                        delayed writes, ...) and the checks across them, in one place
#pragma once

#include <cstdint>

#include "config/key_declarations.h"
#include "controller/firmware_api/controller_config.h"

namespace raidtlm::controller {

void declare_keys(config::declarations<firmware_config> &k);    // firmware_keys.cpp
void declare_keys(config::declarations<controller_config> &k);  // controller_keys.cpp

// What the firmware's checks need to know of the rest of the scenario.
struct firmware_context {
    int disk_count = 0;
    uint64_t nvram_bytes = 0;
};
// Keys set where they do not apply, and arrays the disks cannot hold; `k` is mounted where the
// firmware keys are (controller). Throws config::key_error.
void check_firmware_keys(const firmware_config &fw, const firmware_context &ctx, const config::key_checks &k);

}  // namespace raidtlm::controller
