// The two `raidtlm` commands as functions, so main() only parses the command line.
//
// Errors in what the user gave (scenario, disk spec, trace, output directory) are thrown as
// scenario_error, trace_error, disks::spec_error, disks::unsupported_parameter or
// output_error: each what() is one line naming the file (and line) and what was expected.
// Each function elaborates and simulates once, so a process can run only one of them.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace raidtlm::testbench {

class output_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct run_options {
    std::string scenario_file;
    std::string out_dir;                 // empty: out/<scenario file stem>
    std::vector<std::string> overrides;  // "key=value"
    bool quiet = false;                  // no progress line
    std::string repo_root;               // for disk spec paths relative to the repo
};

// `raidtlm run`: simulates the scenario, writes OUT/stats.json (and OUT/waves.vcd, OUT/waves.gtkw
// with output.waves), prints the summary table on stdout. Returns the exit code.
int run_scenario(const run_options &options);

struct validate_options {
    std::string disk_file;
    std::string trace_file;
    std::string disk_name;
    // Per-sector time of the validation host's bus and controller, ms; negative: estimate it from
    // the trace when the drive spec's "Bulk sector transfer time" is 0, else take the spec's.
    double host_sector_ms = -1;
};

// `raidtlm validate`: replays the trace on one drive and prints the comparison, ending with the
// line "demerit_ms: X". Returns the exit code.
int run_validation(const validate_options &options);

}  // namespace raidtlm::testbench
