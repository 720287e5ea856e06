// Floating data and parity in the controller (controller.layout: floating): the state
// controller_top keeps for it. The firmware itself is in floating_firmware.cpp; the per-disk
// free-slot logic in floating_map.h.
#pragma once

#include <memory>
#include <vector>

#include "controller/controller_top.h"
#include "controller/floating_map.h"
#include "disks/disk_layout.h"

namespace raidtlm::controller {

struct controller_top::floating_state {
    int unit_sectors = 0;
    std::unique_ptr<disks::disk_layout> geometry;  // the firmware's copy (all disks alike)
    std::vector<std::unique_ptr<floating_map>> maps;  // one per disk
};

// Sectors per disk that the RAID 5 layout under floating may use: one track per cylinder is the
// free space. Reports a fatal SystemC error when the drive does not fit floating_map's needs.
int64_t floating_logical_sectors(const disk_info &disk, int unit_sectors);

}  // namespace raidtlm::controller
