// The drive refuses DiskSim parameter values it does not model, naming file and line, instead of
// ignoring them: a spec that leans on an unmodelled feature would silently time wrong.
#pragma once

#include <stdexcept>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

struct unsupported_parameter : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws unsupported_parameter ("FILE:LINE: 'Param' = v is not supported; expected ...").
void check_supported(const disk_spec &spec);

}  // namespace raidtlm::disks
