// A run whose reads returned wrong data is a failed run (issue 27): whatever its response times,
// they were measured on a model that lost or corrupted data, so they are no result. The
// controller's scoreboard counts such reads (stats.json controller.integrity_errors, with
// workload.data_tokens); `raidtlm run` then exits with exit_wrong_data, ends its summary with a
// box nobody can miss, and says the same on one line of stderr (the last one, which a parent run
// or a script reports). Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::testbench {

// raidtlm's exit statuses (raidtlm --help).
constexpr int exit_success = 0;
constexpr int exit_failure = 1;     // the simulation failed: host requests failed, or it could not finish
constexpr int exit_bad_input = 2;   // command line, scenario, disk spec, trace or output directory
constexpr int exit_wrong_data = 3;  // reads returned wrong data (controller.integrity_errors > 0)

struct wrong_read {
    int64_t lbn = 0;        // logical sector
    uint64_t expected = 0;  // the token of the last acknowledged write (0: never written)
    uint64_t got = 0;       // the token the read returned
};

struct integrity_counts {
    uint64_t errors = 0;
    uint64_t reads_checked = 0;
    std::vector<wrong_read> first;  // the first wrong reads (stats.json first_integrity_errors)
};

// The lines that end the summary table: a framed "DATA INTEGRITY FAILURE" block naming the count,
// the first wrong reads and where stats.json lists them.
std::string integrity_failure_box(const integrity_counts &c, const std::string &stats_path);
// The same as one line (no "raidtlm: " prefix, no newline), for stderr.
std::string integrity_failure_line(const integrity_counts &c, const std::string &stats_path);

}  // namespace raidtlm::testbench
