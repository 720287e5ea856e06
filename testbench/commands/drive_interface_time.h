// The drive's own interface time per sector (DiskSim's "Bulk sector transfer time") for a run.
// Behind a controller the drive sits on a modelled SCSI bus, which sets the data rate: by default
// (disks.bulk_sector_transfer_ms: auto) the drive adds no limit of its own (0), so data cross at
// the bus's rate. Without a controller, auto keeps the spec's figure (in DiskSim's validation
// specs that is the validation host's ~5 MB/s path). A figure given behind a controller that is
// slower than the modelled bus contradicts it: the run goes on at the slower figure, with a
// warning naming both. Plain C++.
#pragma once

#include <string>

#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

struct drive_interface_time {
    double bulk_sector_transfer_ms = 0;
    std::string warning;  // empty: none
};

// `spec_ms`: the drive spec's own figure.
drive_interface_time choose_drive_interface_time(const scenario &s, double spec_ms);

}  // namespace raidtlm::testbench
