// What a per-disk queue in the controller holds: a request for this disk and every place on
// this disk that can serve it (its placements). A read of replicated data may be served by any
// placement; replica-aware schedulers (RLOOK, RSATF) choose among them, the others use the
// first (the primary). Placements carry the physical position of their first and last sector
// on the firmware's copy of the drive geometry, which is what the schedulers and the
// head-position predictor work from.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/layouts/layout.h"
#include "disks/disk_layout.h"

namespace raidtlm::controller {

struct placement {
    int copy = 0;  // the layout's copy index
    std::vector<disk_extent> extents;
    disks::physical_address first;  // first sector
    disks::physical_address last;   // last sector: where the head is when the transfer ends
    int32_t sectors = 0;
};

struct queued_request {
    uint64_t id = 0;
    bool write = false;
    double arrival_ms = 0;
    std::vector<placement> placements;  // at least one; [0] is the primary
};

// The placements of `c` on `disk` (one per replica stored there), positioned with `geometry`.
std::vector<placement> placements_on_disk(const chunk &c, int disk, const disks::disk_layout &geometry);

}  // namespace raidtlm::controller
