// The array's drives for a run: each disk's DiskSim spec with the scenario's disks.* overrides,
// and the checks, before elaboration, that the workload and the layout fit on them (so that an
// error names the scenario key rather than surfacing from the controller's constructor).
#pragma once

#include <string>
#include <vector>

#include "disks/disk_spec.h"
#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

// Every disk's drive: disks.specs, else disks.spec for each; the disks.* overrides for all (a
// drive interface time that contradicts the bus is warned about once per figure).
std::vector<disks::disk_spec> load_array_specs(const scenario &s);

// "A, B" for the report: the array's drive models, each once.
std::string drive_models(const std::vector<disks::disk_spec> &specs);

// Throws scenario errors naming the key when the workload or the layout cannot fit the disks.
void check_fits(const scenario &s, const std::vector<disks::disk_spec> &specs);

}  // namespace raidtlm::testbench
