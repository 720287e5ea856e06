#include "testbench/workloads/trace_config.h"

namespace raidtlm::testbench {

const char *to_string(trace_format v) {
    switch (v) {
    case trace_format::disksim: return "disksim";
    case trace_format::spc: return "spc";
    case trace_format::msr: return "msr";
    case trace_format::blkparse: return "blkparse";
    }
    return "?";
}

const char *to_string(beyond_capacity_policy v) {
    switch (v) {
    case beyond_capacity_policy::error: return "error";
    case beyond_capacity_policy::wrap: return "wrap";
    case beyond_capacity_policy::skip: return "skip";
    }
    return "?";
}

}  // namespace raidtlm::testbench
