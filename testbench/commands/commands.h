// The `raidtlm` commands as functions, so main() only parses the command line.
//
// Errors in what the user gave (scenario, disk spec, trace, output directory) are thrown as
// scenario_error, trace_error, disks::spec_error, disks::unsupported_parameter or
// output_error: each what() is one line naming the file (and line) and what was expected.
// Each function elaborates and simulates at most once, so a process can run only one of them;
// the commands that need several simulations (several seeds, the sustainable-rate search) run
// each in a child process (child_runs.h).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "disks/disk_spec.h"
#include "disks/supported_parameters.h"

namespace raidtlm::testbench {

class output_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A child run failed: what() is its one-line error, code() its exit code.
class child_error : public std::runtime_error {
public:
    child_error(const std::string &what, int code) : std::runtime_error(what), m_code(code) {}
    int code() const { return m_code; }

private:
    int m_code;
};

struct run_options {
    std::string scenario_file;
    std::string out_dir;                 // empty: out/<scenario file stem>
    std::vector<std::string> overrides;  // "key=value"
    int gdb_port = -1;                   // --gdb: controller.cpu.gdb_port after the overrides
    bool quiet = false;                  // no progress line
    bool progress = false;               // a progress line even when stderr is not a terminal
    int jobs = 0;                        // child processes at once (several seeds); 0: processors
    std::string repo_root;               // for disk spec paths relative to the repo
};

// `raidtlm run`: simulates the scenario, writes OUT/stats.json (and OUT/waves.vcd, OUT/waves.gtkw
// with output.waves, OUT/requests.csv with output.requests_csv), prints the summary table on
// stdout. With measurement.seeds > 1 it runs one child per seed into OUT/seed_<seed>/ and writes
// the mean and spread across them into OUT/stats.json. Returns the exit code.
int run_scenario(const run_options &options);

// A drive spec loaded, fitted to its zones and checked against what the drive models (a warning
// on stderr when the block count was lowered); throws spec errors naming file and line.
disks::disk_spec load_drive_spec(const std::string &path, const std::string &name, disks::drive_use use);

struct rate_options {
    run_options run;             // scenario, overrides, output directory, jobs, quiet
    double threshold_ms = 15;
    int seeds = 3;               // searches with seeds seed .. seed + seeds - 1
    double precision = 0.01;     // relative width of the final bracket
    double ci_target = 0.01;     // stopping rule of every evaluation
    uint64_t max_requests = 2000000;  // cap of every evaluation
};

// `raidtlm sustainable-rate`: the open-loop arrival rate at which the mean response time reaches
// threshold_ms (rate_search.h), per seed, with mean and spread across seeds; writes
// OUT/sustainable_rate.json and every evaluation's stats.json under OUT/seed_<seed>/.
int run_sustainable_rate(const rate_options &options);

struct validate_options {
    std::string disk_file;
    std::string trace_file;
    std::string disk_name;
    // Per-sector time of the validation host's bus and controller, ms, both directions; negative:
    // as the .parv gives it (none for a bare .diskspecs).
    double host_sector_ms = -1;
    // If set, one line per trace request: line,op,lbn,blocks,measured_ms,simulated_ms.
    std::string requests_csv;
};

// `raidtlm validate`: replays the trace on one drive and prints the comparison, ending with the
// line "demerit_ms: X". Returns the exit code.
int run_validation(const validate_options &options);

}  // namespace raidtlm::testbench
