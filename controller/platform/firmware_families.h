// raidtlm's firmware families, for code that inspects the one running (tests, reports).
#pragma once

#include <stdexcept>

#include "controller/platform/controller_top.h"
#include "controller/families/floating/floating_firmware.h"
#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/families/raid/raid_firmware.h"
#include "controller/families/replicated/replicated_firmware.h"

namespace raidtlm::controller {

// The shared pieces of the running family (its per-disk queues and their statistics).
inline const firmware_kit &kit_of(const controller_top &ctl) {
    if (const auto *f = ctl.firmware_as<raid_firmware>()) return f->kit();
    if (const auto *f = ctl.firmware_as<replicated_firmware>()) return f->kit();
    if (const auto *f = ctl.firmware_as<parity_logging_firmware>()) return f->kit();
    throw std::logic_error("the running firmware is not one of raidtlm's families");
}

}  // namespace raidtlm::controller
