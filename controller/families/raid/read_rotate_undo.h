// A stripe's read-rotate-write commands that did not all complete (a member lost while they were
// out, or a MEDIUM ERROR on one of them) leave the stripe torn: each command that completed wrote
// its stand-in or its new data over a unit whose old contents it returned, and no new checks were
// computed. Written back, those units hold what they held before the write, so the stripe is
// consistent again (its checks match its data, the lost member's included) and the write can be
// served the degraded way, which reads the survivors. Used by RAID 4/5, RAID 6 and floating
// (whose moved units need nothing: a cancelled move leaves the unit where it was).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/kit/firmware_kit.h"

namespace raidtlm::controller {

struct overwritten_unit {
    int disk = 0;
    uint64_t drive_lbn = 0;  // the array map's drive LBN (translated by the kit, as the command was)
    uint32_t sectors = 0;
    const std::vector<uint64_t> *old_tokens = nullptr;  // empty in a timing-only run
};

// The old contents written back, in parallel (timed drive writes). False when one fails (a write
// to a member lost meanwhile counts done: firmware_kit::drive_command).
bool write_back_old_units(firmware_kit &kit, const std::vector<overwritten_unit> &units);

}  // namespace raidtlm::controller
