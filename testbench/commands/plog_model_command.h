// `raidtlm plog-model`: the parity logging paper's utilization model (controller/
// parity_logging_model.h) for a drive spec or for the paper's Figure 12 as printed.
#pragma once

#include <string>

namespace raidtlm::testbench {

struct plog_model_options {
    std::string disk_spec;          // empty: Figure 12 as printed (S = 12.5 ms)
    int stripe_unit_sectors = 4;    // 2 KB
    int disks = 22;
    int regions_per_disk = 100;
    int buffered_tracks = 1;        // K
    int log_stripes = 1;            // L
    int failures = -1;              // >= 0: Section 9's table for f failures tolerated
    bool json = false;
};

// Prints the table (or JSON) on stdout; returns the exit status. Spec errors propagate.
int run_plog_model(const plog_model_options &o);

}  // namespace raidtlm::testbench
