// The "iss" firmware family: the platform's firmware is a C program (controller/iss/firmware_c/)
// running on the instruction-set simulator (rtl_models/cpu/iss_cpu.h) against the register-level
// controller (iss_device.h). Selected by controller.cpu.model: iss.
#pragma once

#include <memory>

#include "controller/firmware_api/firmware_api.h"

namespace raidtlm::controller {

// Throws std::invalid_argument when the scenario asks for what the C firmware does not do, or
// this build has no instruction-set simulator (libunicorn-dev and gcc-arm-none-eabi missing).
std::unique_ptr<firmware> make_iss_firmware(firmware_platform &platform);

}  // namespace raidtlm::controller
