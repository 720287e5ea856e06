// System tests: the bad-input classes of issue 13, each run as a user would. Every one must end in
// exit 2 (1 for a simulation that ran and failed requests) with one line on stderr naming the
// file, the line where there is one, and what was expected; never a crash, a hang, a silently
// ignored key or a megabyte echoed back.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

const std::string validation_dir = "../shared/reference/disksim/validation/";

// The Cheetah 9LP spec copied into `dir`, with `from` replaced by `to` in its .model file.
fs::path cheetah_with(const fs::path &dir, const std::string &file, const std::string &from, const std::string &to) {
    for (const char *f : {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"}) {
        std::string text = read_file(fs::path(source_dir) / validation_dir / f);
        if (file == f) {
            const auto at = text.find(from);
            EXPECT_NE(at, std::string::npos) << from;
            if (at != std::string::npos) text.replace(at, from.size(), to);
        }
        write_temp(dir, f, text);
    }
    return dir / "cheetah9LP.diskspecs";
}

std::string run_with_spec(const fs::path &spec) {
    return "run scenarios/default.yaml --quiet --set workload.requests=200 --set output.waves=false --set disks.spec='" +
           spec.string() + "'";
}

}  // namespace

TEST(bad_input, spec_nested_beyond_the_depth_limit_is_refused_not_a_stack_overflow) {
    const scratch_dir dir;
    for (const std::string open : {"[", "b { x = "}) {
        std::string text = "disksim_disk foo {\n Bar = ";
        for (int i = 0; i < 15000; ++i) text += open;
        for (int i = 0; i < 15000; ++i) text += open == "[" ? "]" : " }";
        text += "\n}\n";
        const fs::path spec = write_temp(dir, "nested.diskspecs", text);
        const result r = raidtlm(run_with_spec(spec), dir);
        expect_one_line_error(r, 2, {"nested.diskspecs:2:", "nested deeper than 64 levels", "expected at most 64"});
    }
}

TEST(bad_input, physically_absurd_spec_values_are_refused_with_the_range) {
    const scratch_dir dir;
    struct absurd {
        std::string file, from, to, name;
    };
    for (const absurd &a : std::vector<absurd>{
             {"cheetah9LP.model", "Number of data surfaces = 12", "Number of data surfaces = 2000000000",
              "Number of data surfaces"},
             {"cheetah9LP.diskspecs", "Segment size (in blks) = 561", "Segment size (in blks) = 2000000000",
              "Segment size (in blks)"},
             {"cheetah9LP.diskspecs", "Number of buffer segments = 3,", "Number of buffer segments = 99999999,",
              "Number of buffer segments"},
             {"cheetah9LP.model", "Rotation speed (in rpms) = 10045,", "Rotation speed (in rpms) = 100000000,",
              "Rotation speed (in rpms)"}}) {
        const fs::path spec = cheetah_with(dir, a.file, a.from, a.to);
        const result r = raidtlm(run_with_spec(spec), dir);
        expect_one_line_error(r, 2, {a.file + ":", "'" + a.name + "'", "physically absurd", "expected a value "});
    }
}

TEST(bad_input, trace_arrival_beyond_the_kernel_time_range_is_refused_with_its_line) {
    const scratch_dir dir;
    const fs::path trace = write_temp(dir, "huge.trace", "0 0 0 8 1\n10 0 8 8 1\n1e300 0 16 8 1\n");
    const result r = raidtlm("run scenarios/trace.yaml --quiet --set output.waves=false --set workload.requests=0 "
                             "--set workload.warmup_requests=0 --set trace.format=disksim --set 'trace.device_map={}' --set trace.file='" +
                                 trace.string() + "'",
                             dir);
    expect_one_line_error(r, 2, {"huge.trace:3:", "beyond", "SystemC kernel can represent"});
}

TEST(bad_input, synthetic_times_beyond_the_kernel_time_range_are_refused_naming_the_key) {
    const scratch_dir dir;
    const result closed = raidtlm("run scenarios/default.yaml --quiet --set output.waves=false --set "
                                  "workload.think_time_ms=1e11",
                                  dir);
    expect_one_line_error(closed, 2, {"workload.think_time_ms", "SystemC kernel can represent"});
    const result open = raidtlm("run scenarios/default.yaml --quiet --set output.waves=false --set workload.arrival=open "
                                "--set workload.mean_interarrival_ms=1e11",
                                dir);
    expect_one_line_error(open, 2, {"workload.mean_interarrival_ms", "SystemC kernel can represent"});
}

TEST(bad_input, scenario_size_and_list_limits_are_checked_at_load) {
    const scratch_dir dir;
    const std::string head = "disks:\n  spec: " + fs::absolute(fs::path(source_dir) / cheetah_spec).string() +
                             "\nworkload:\n  arrival: open\n";
    // A list longer than its documented limit, in a file below the size limit.
    std::string steps = "  rate_schedule: [";
    for (int i = 0; i <= 100000; ++i) steps += (i ? ",[" : "[") + std::to_string(i) + ",1]";
    const fs::path many = write_temp(dir, "many_steps.yaml", head + steps + "]\n");
    expect_one_line_error(raidtlm("run '" + many.string() + "' --quiet", dir), 2,
                          {"many_steps.yaml:5:", "workload.rate_schedule", "100001 steps", "(at most 100000)"});
    // A file beyond the size limit is refused before it is parsed.
    const fs::path big = write_temp(dir, "big.yaml", head + "# " + std::string(5 << 20, 'x') + "\n");
    expect_one_line_error(raidtlm("run '" + big.string() + "' --quiet", dir), 2,
                          {"big.yaml", "expected at most 4194304 bytes"});
}

TEST(bad_input, a_huge_bad_value_is_never_echoed_whole) {
    const scratch_dir dir;
    const std::string value(3 << 20, '7');
    const fs::path f = write_temp(dir, "bad_value.yaml",
                                  "disks:\n  spec: " + fs::absolute(fs::path(source_dir) / cheetah_spec).string() +
                                      "\nworkload:\n  read_fraction: x" + value + "\n");
    expect_one_line_error(raidtlm("run '" + f.string() + "' --quiet", dir), 2,
                          {"bad_value.yaml:4:", "workload.read_fraction", "characters)", "expected"});
}

TEST(bad_input, controller_only_keys_without_the_controller_are_errors) {
    const scratch_dir dir;
    expect_one_line_error(raidtlm("run scenarios/default.yaml --quiet --set controller.fail_disk=1", dir), 2,
                          {"controller.fail_disk", "controller.enabled is false", "expected controller.enabled: true"});
    expect_one_line_error(raidtlm("run scenarios/default.yaml --quiet --set workload.data_tokens=true", dir), 2,
                          {"workload.data_tokens", "controller.enabled is false"});
}

TEST(bad_input, failed_host_requests_are_said_on_stderr) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --quiet --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set workload.requests=2000 --set controller.enabled=true "
                                 "--set controller.layout=raid0 --set controller.fail_disk=1 "
                                 "--set controller.fail_after_requests=500",
                             dir);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("measured host requests failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("controller.fail_disk 1"), std::string::npos) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_file(dir / "out" / "stats.json"));
    EXPECT_GT(j["requests"]["errors"].get<int>(), 0);
}

TEST(bad_input, command_line_mistakes_get_human_messages) {
    const scratch_dir dir;
    expect_one_line_error(raidtlm("frobnicate", dir), 2, {"frobnicate", "run", "validate"});
    const result j0 = raidtlm("run scenarios/default.yaml --quiet -j 0", dir);
    expect_one_line_error(j0, 2, {"--jobs", "0", "at least 1"});
    EXPECT_EQ(j0.err.find("1797693134862315708"), std::string::npos) << j0.err;
}

// Issue 27's bad inputs: each one clear error naming the file (and line) and what was expected.

TEST(bad_input, yaml_nested_too_deep_says_it_is_the_nesting_and_the_limit) {
    const scratch_dir dir;
    const std::string deep = std::string(600, '[') + std::string(600, ']');
    const fs::path f = write_temp(dir, "deep.yaml", "workload:\n  rate_schedule: " + deep + "\n");
    expect_one_line_error(raidtlm("run '" + f.string() + "' --quiet", dir), 2,
                          {"deep.yaml:", "nested 500 levels deep, the YAML parser's limit",
                           "expected a scenario nested a few levels deep"});
    const result set = raidtlm("run scenarios/default.yaml --quiet --set 'workload.rate_schedule=" + deep + "'", dir);
    expect_one_line_error(set, 2, {"workload.rate_schedule", "nested 500 levels deep, the YAML parser's limit"});
    EXPECT_EQ(set.err.find("bad file"), std::string::npos) << set.err;
}

TEST(bad_input, a_disk_spec_path_that_is_a_directory_says_so) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --quiet --set disks.spec='" + fs::path(dir).string() + "'", dir);
    expect_one_line_error(r, 2, {"disks.spec", "is a directory", "not a file", "expected a path to a DiskSim .diskspecs"});
    EXPECT_EQ(r.err.find("not found"), std::string::npos) << r.err;
}

TEST(bad_input, an_empty_trace_says_it_is_empty_naming_the_file) {
    const scratch_dir dir;
    const std::string run = "run scenarios/trace.yaml --quiet --set output.waves=false --set output.requests_csv=false "
                            "--set trace.format=disksim --set 'trace.device_map={}' --out '" +
                            (dir / "out").string() + "' --set trace.file='";
    const fs::path empty = write_temp(dir, "empty.trace", "");
    expect_one_line_error(raidtlm(run + empty.string() + "'", dir), 2,
                          {"trace.file", "empty.trace is empty", "expected a trace with at least one request"});
    const fs::path blank = write_temp(dir, "blank.trace", "\n\n  \n");
    const result r = raidtlm(run + blank.string() + "'", dir);
    expect_one_line_error(r, 2, {"trace.file", "blank.trace holds no requests (3 lines"});
    EXPECT_EQ(r.err.find("warm-up"), std::string::npos) << r.err;
}

TEST(bad_input, validate_refuses_out_of_range_times_with_line_and_range) {
    const scratch_dir dir;
    const std::string spec = validation_dir + "cheetah9LP.diskspecs";
    const fs::path huge_gap = write_temp(dir, "gap.trace", "R Miss 0 8 10000 5\nR Miss 100 8 10000 1e300\nR Miss 200 8 9000 5\n");
    expect_one_line_error(raidtlm("validate " + spec + " '" + huge_gap.string() + "'", dir), 2,
                          {"gap.trace:2:", "interarrival time '1e300'", "out of range", "expected 0 to 3.6e+09 us",
                           "1 hour"});
    const fs::path slow = write_temp(dir, "slow.trace", "R Miss 0 8 1e9 5\n");
    expect_one_line_error(raidtlm("validate " + spec + " '" + slow.string() + "'", dir), 2,
                          {"slow.trace:1:", "measured service time '1e9'", "expected 0 to 6e+07 us", "command timeout"});
}

TEST(bad_input, the_summary_table_columns_fit_a_huge_request) {
    const scratch_dir dir;
    // One 10,000,000-sector request: responses of ~10^6 ms, wider than the table's usual columns.
    const fs::path trace = write_temp(dir, "big.trace", "0.5 0 0 10000000 1\n1.0 0 100 8 1\n2.0 0 200 8 0\n");
    const result r = raidtlm("run scenarios/trace.yaml --quiet --set trace.format=disksim --set 'trace.device_map={}' "
                             "--set output.requests_csv=false --out '" + (dir / "out").string() +
                                 "' --set trace.file='" + trace.string() + "'",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    // Every row has as many whitespace-separated fields as its header: no two values ran together.
    auto fields = [](const std::string &line) {
        std::istringstream in(line);
        std::vector<std::string> f;
        for (std::string w; in >> w;) f.push_back(w);
        return f;
    };
    auto line_starting = [&](const std::string &start) {
        const auto at = r.out.find("\n  " + start);
        EXPECT_NE(at, std::string::npos) << start << "\n" << r.out;
        return at == std::string::npos ? std::string() : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    };
    EXPECT_EQ(fields(line_starting("all ")).size(), 8u) << r.out;     // all count mean stddev p50 p90 p99 max
    EXPECT_EQ(fields(line_starting("writes ")).size(), 8u) << r.out;
    EXPECT_EQ(fields(line_starting("disk0 ")).size(), 8u) << r.out;   // disk requests seek_cyl ... util%
    const std::string header = line_starting("response time (ms)"), all = line_starting("all ");
    // Right-aligned columns: each header ends where its column's values end.
    EXPECT_EQ(header.size(), all.size()) << header << "\n" << all;
}
