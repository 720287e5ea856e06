// What a scenario says about replaying a trace, and the scenario error type: plain data with no
// SystemC, so the trace parsers (and their fuzz targets) build without the simulator.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config/key_error.h"

namespace raidtlm::testbench {

// A problem with the user's scenario (or what it names); what() is one line. The same type as
// the errors of the keys' declarations (config/key_declarations.h).
using scenario_error = config::key_error;

enum class trace_format { disksim, spc, msr, blkparse };
enum class beyond_capacity_policy { error, wrap, skip };

const char *to_string(trace_format v);
const char *to_string(beyond_capacity_policy v);

struct trace_config {
    std::string file;  // resolved, usable as is
    trace_format format = trace_format::disksim;
    double time_scale = 1.0;  // factor on the trace's inter-arrival times
    // Trace device name -> first host sector of its slice; empty: every device on the whole space.
    std::vector<std::pair<std::string, uint64_t>> device_map;
    beyond_capacity_policy beyond_capacity = beyond_capacity_policy::error;
    char blkparse_action = 'D';  // the blkparse event replayed: D (issued to the device) or Q (queued)
};

}  // namespace raidtlm::testbench
