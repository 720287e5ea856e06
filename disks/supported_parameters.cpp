#include "disks/supported_parameters.h"

#include <cmath>
#include <sstream>

namespace raidtlm::disks {

namespace {

void require(const disk_spec &spec, const std::string &param, bool ok, double value, const std::string &expected) {
    if (ok) return;
    std::ostringstream m;
    m << spec.where(param) << ": '" << param << "' = " << value << " is not supported by raidtlm's drive; expected "
      << expected;
    throw unsupported_parameter(m.str());
}

}  // namespace

void check_supported(const disk_spec &spec, drive_use use) {
    const auto &c = spec.cache;
    const auto &i = spec.interface;
    if (use == drive_use::queued_commands) {
        const std::string why = "0 (it acts only on commands queued in the drive, which raidtlm's drive serves one at a time)";
        require(spec, "Allow sneaky full read hits", !c.allow_sneaky_full_read_hits, 1, why);
        require(spec, "Allow sneaky partial read hits", !c.allow_sneaky_partial_read_hits, 1, why);
        require(spec, "Allow sneaky intermediate read hits", !c.allow_sneaky_intermediate_read_hits, 1, why);
        require(spec, "Allow write prebuffering", !c.allow_write_prebuffering, 1, why);
        require(spec, "Preseeking level", i.preseeking_level == 0, i.preseeking_level, why);
    }
    require(spec, "Fast write level", c.fast_write_level >= 0 && c.fast_write_level <= 2, c.fast_write_level,
            "0, 1 or 2");
    require(spec, "Number of buffer segments", c.segments >= 1, c.segments, "at least 1");
    require(spec, "Segment size (in blks)", c.segment_blocks >= 1 || !c.enabled, c.segment_blocks, "at least 1");
    if (use == drive_use::queued_commands)
        require(spec, "Max queue length", i.max_queue_length >= 1, i.max_queue_length,
                "at least 1 (the drive's queue needs a limit to advertise to the controller)");
    require(spec, "Rotation speed (in rpms)", spec.mech.rpm > 0, spec.mech.rpm, "a positive speed");
    // ioqueue options beyond the policy: the drive's queue does not concatenate, time out or
    // prioritise.
    if (use == drive_use::queued_commands) {
        auto policy = spec.other_params.find("Scheduling policy");
        if (policy != spec.other_params.end())
            require(spec, "Scheduling policy", policy->second >= 1 && policy->second <= 4, policy->second,
                    "FCFS 1, ELEVATOR_LBN 2, CYCLE_LBN 3 or SSTF_LBN 4 (the policies of the drive's own queue)");
    }
    if (use == drive_use::queued_commands)
        for (const char *p : {"Sequential stream scheme", "Overlapping request scheme", "Scheduling timeout scheme",
                              "Scheduling priority scheme"}) {
            auto it = spec.other_params.find(p);
            if (it != spec.other_params.end()) require(spec, p, it->second == 0, it->second, "0");
        }
}

}  // namespace raidtlm::disks
