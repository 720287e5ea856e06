// The drive refuses DiskSim parameter values it does not model, naming file and line, instead of
// ignoring them: a spec that leans on an unmodelled feature would silently time wrong.
#pragma once

#include <stdexcept>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

struct unsupported_parameter : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Whether the drive can hold more than one command. Some features (sneaky cache hits while the
// mechanism serves another command, write prebuffering, preseeking towards the next command)
// only act when commands queue in the drive; a drive fed one command at a time, as DiskSim's
// validation runs are, can accept a spec that uses them because they never come into play.
enum class drive_use { queued_commands, one_command_at_a_time };

// Throws unsupported_parameter ("FILE:LINE: 'Param' = v is not supported; expected ...").
void check_supported(const disk_spec &spec, drive_use use = drive_use::queued_commands);

}  // namespace raidtlm::disks
