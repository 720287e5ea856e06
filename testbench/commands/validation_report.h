// Compares a drive's simulated response times with a DiskSim validate trace's measured ones.
// Plain C++.
#pragma once

#include <string>
#include <vector>

#include "testbench/commands/validate_trace.h"

namespace raidtlm::testbench {

struct sample_summary {
    size_t count = 0;
    double mean_ms = 0;
    double stddev_ms = 0;  // sample standard deviation
};

struct validation_result {
    sample_summary simulated_reads, simulated_writes, simulated_all;
    sample_summary measured_reads, measured_writes, measured_all;
    double demerit_ms = 0;  // over all requests (see demerit.h)
};

// `simulated_ms[k]` is the simulated response time of records[k]; the sizes must match.
validation_result compare_validation(const std::vector<validate_record> &records,
                                     const std::vector<double> &simulated_ms);

// The report printed by `raidtlm validate`; its last line is "demerit_ms: X".
std::string validation_text(const validation_result &r, const std::string &disk_name, const std::string &disk_file,
                            const std::string &trace_file);

}  // namespace raidtlm::testbench
