// System tests of the testbench features: the stopping rule, trace replay in every format and its
// errors, several seeds, the sustainable-rate search, think-time tuning, the per-request CSV, the
// timeline and the progress line. Short runs: figures are checked against the stated targets, not
// against golden numbers.
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;
using nlohmann::json;

namespace {

json stats(const fs::path &dir) { return json::parse(read_file(dir / "stats.json")); }

const char *formats[] = {"disksim", "spc", "msr", "blkparse"};

std::string trace_run(const std::string &format, const std::string &file, const fs::path &out) {
    return "run scenarios/default.yaml --out '" + out.string() +
           "' --set output.waves=false --set workload.arrival=trace --set workload.requests=0 "
           "--set workload.warmup_requests=0 --set host.layout=jbod --set disks.count=2 --set trace.format=" +
           format + " --set trace.file=" + file;
}

}  // namespace

TEST(raidtlm_measurement, closed_loop_stops_when_the_ci_is_within_the_target) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set measurement.ci_target=0.03 "
                                 "--set workload.requests=1000000",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = stats(dir / "out");
    EXPECT_EQ(j["measurement"]["stopped_by"], "ci");
    const double rel = j["measurement"]["ci"]["relative"];
    EXPECT_LE(rel, 0.03);
    EXPECT_GT(rel, 0.0);
    EXPECT_NEAR(j["measurement"]["ci"]["half_width_ms"].get<double>(),
                rel * j["response_time"]["mean_ms"].get<double>(), 1e-9);
    EXPECT_LE(j["measurement"]["ci"]["lag1_autocorrelation"].get<double>(), 0.2);
    EXPECT_LT(j["requests"]["measured"].get<int>(), 1000000);
    EXPECT_GE(j["requests"]["measured"].get<int>(), 10000);
    EXPECT_NE(r.out.find("stopped: CI within 3.0% of the mean"), std::string::npos) << r.out;
}

TEST(raidtlm_measurement, cap_reached_before_the_target_is_reported) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set measurement.ci_target=0.001 "
                                 "--set workload.requests=3000",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(stats(dir / "out")["measurement"]["stopped_by"], "requests");
    EXPECT_NE(r.out.find("CI target 0.1% NOT reached"), std::string::npos) << r.out;
}

TEST(raidtlm_measurement, progress_line_shows_simulated_time_requests_and_ci_width) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --progress --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set workload.requests=3000",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("sim "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("3000 / 3000 measured"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("CI +-"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos);  // plain lines on a pipe
}

TEST(raidtlm_measurement, several_seeds_give_mean_and_spread) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set workload.requests=2000 --set measurement.seeds=3",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = stats(dir / "out");
    EXPECT_EQ(j["seeds"], json::array({1, 2, 3}));
    const json &m = j["across_seeds"]["mean_response_ms"];
    EXPECT_EQ(m["n"], 3);
    EXPECT_EQ(m["values"].size(), 3u);
    EXPECT_GT(m["stddev"].get<double>(), 0.0);
    EXPECT_GT(m["ci95_half_width"].get<double>(), 0.0);
    for (int seed = 1; seed <= 3; ++seed) {
        const json s = stats(dir / "out" / ("seed_" + std::to_string(seed)));
        EXPECT_EQ(s["scenario"]["workload"]["seed"], seed);
        EXPECT_DOUBLE_EQ(s["response_time"]["mean_ms"].get<double>(), m["values"][seed - 1].get<double>());
    }
    EXPECT_NE(r.out.find("over 3 seeds"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("spread"), std::string::npos) << r.out;
}

TEST(raidtlm_measurement, sustainable_rate_of_a_cheetah_under_4k_random_reads_is_stable_across_seeds) {
    // A short version of EXPERIMENTS.md section 3: three seeds, each evaluation to a 1% CI.
    const scratch_dir dir;
    const result r = raidtlm("sustainable-rate scenarios/sustainable_rate.yaml --threshold-ms 15 --seeds 3 --quiet "
                             "--out '" + (dir / "out").string() + "'",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(read_file(dir / "out" / "sustainable_rate.json"));
    const json &rate = j["rate_iops"];
    EXPECT_EQ(rate["n"], 3);
    EXPECT_LE(rate["spread"].get<double>(), 0.03) << rate.dump();
    // One drive, mean service about 9.6 ms: 15 ms is reached at roughly half its capacity.
    EXPECT_GT(rate["mean"].get<double>(), 45.0);
    EXPECT_LT(rate["mean"].get<double>(), 60.0);
    for (const auto &s : j["seeds"]) {
        EXPECT_TRUE(s["found"].get<bool>());
        // The points either side of the answer straddle 15 ms.
        bool below = false, above = false;
        for (const auto &p : s["points"]) {
            below = below || (!p["overloaded"].get<bool>() && p["mean_ms"].get<double>() <= 15);
            above = above || p["overloaded"].get<bool>() || p["mean_ms"].get<double>() > 15;
        }
        EXPECT_TRUE(below && above);
    }
    EXPECT_NE(r.out.find("sustainable rate"), std::string::npos) << r.out;
}

TEST(raidtlm_workload, think_time_is_tuned_to_the_target_and_driven_to_zero_at_saturation) {
    const scratch_dir dir;
    result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "a").string() +
                           "' --set output.waves=false --set workload.target_iops=250 "
                           "--set workload.think_time_distribution=exponential --set workload.requests=20000 "
                           "--set workload.warmup_requests=3000",
                       dir);
    ASSERT_EQ(r.code, 0) << r.err;
    json j = stats(dir / "a");
    EXPECT_NEAR(j["throughput"]["iops"].get<double>(), 250, 250 * 0.03);
    EXPECT_GT(j["think_time"]["mean_ms"].get<double>(), 5.0);
    EXPECT_EQ(j["think_time"]["zero_mean_fraction"], 0.0);
    r = raidtlm("run scenarios/default.yaml --out '" + (dir / "b").string() +
                    "' --set output.waves=false --set workload.target_iops=5000 --set workload.requests=5000",
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    j = stats(dir / "b");
    EXPECT_GT(j["think_time"]["zero_mean_fraction"].get<double>(), 0.9);
    EXPECT_LT(j["throughput"]["iops"].get<double>(), 500);
    EXPECT_NE(r.out.find("saturated: driven to 0"), std::string::npos) << r.out;
}

TEST(raidtlm_workload, requests_csv_and_timeline) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "out").string() +
                                 "' --set output.waves=false --set output.requests_csv=true "
                                 "--set workload.requests=2000 --set workload.warmup_requests=100",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream csv(dir / "out" / "requests.csv");
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line, "issue_ms,complete_ms,response_ms,op,lbn,sectors,measured,ok");
    int lines = 0, measured = 0;
    while (std::getline(csv, line)) {
        ++lines;
        measured += line.find(",1,1") == line.size() - 4;
    }
    EXPECT_EQ(measured, 2000);
    EXPECT_GE(lines, 2100);
    const json j = stats(dir / "out");
    const json &t = j["timeline"];
    EXPECT_GE(t["t_end_ms"].size(), 10u);
    EXPECT_EQ(t["utilisation"]["disk0"].size(), t["t_end_ms"].size());
    EXPECT_GT(t["warmup_end_ms"].get<double>(), 0.0);
    double sum = 0;
    for (double u : t["utilisation"]["disk0"]) {
        EXPECT_GE(u, 0.0);
        EXPECT_LE(u, 1.0 + 1e-9);
        sum += u;
    }
    EXPECT_GT(sum / t["t_end_ms"].size(), 0.5);  // eight clients on four drives keep them busy
}

TEST(raidtlm_trace, every_format_replays_its_sample_to_the_same_result) {
    const scratch_dir dir;
    double first_mean = -1;
    for (const char *f : formats) {
        const fs::path out = dir / f;
        const result r = raidtlm(trace_run(f, std::string("testbench/traces/sample.") + f, out), dir);
        ASSERT_EQ(r.code, 0) << f << ": " << r.err;
        const json j = stats(out);
        EXPECT_EQ(j["requests"]["measured"], 60) << f;
        EXPECT_EQ(j["measurement"]["stopped_by"], "source_end") << f;
        EXPECT_EQ(j["trace"]["requests"], 60) << f;
        EXPECT_EQ(j["trace"]["devices"].size(), 2u) << f;
        const double mean = j["response_time"]["mean_ms"];
        if (first_mean < 0) first_mean = mean;
        EXPECT_NEAR(mean, first_mean, 0.01) << f;  // SPC keeps times to the microsecond only
        EXPECT_NE(r.out.find("stopped: end of the trace"), std::string::npos) << r.out;
    }
}

TEST(raidtlm_trace, trace_scenario_maps_devices_and_scales_time) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/trace.yaml --out '" + (dir / "out").string() + "'", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = stats(dir / "out");
    EXPECT_EQ(j["requests"]["measured"], 60);
    // Both drives get the requests of their traced disk.
    EXPECT_GT(j["disks"][0]["requests"].get<int>(), 0);
    EXPECT_GT(j["disks"][1]["requests"].get<int>(), 0);
    EXPECT_EQ(j["disks"][0]["requests"].get<int>() + j["disks"][1]["requests"].get<int>(), 60);
    // The sample spans ~120 ms; scaled 10x.
    EXPECT_GT(j["window"]["duration_ms"].get<double>(), 1000.0);
    EXPECT_TRUE(fs::exists(dir / "out" / "requests.csv"));
}

TEST(raidtlm_trace, malformed_lines_are_one_line_errors_with_file_and_line) {
    const scratch_dir dir;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"disksim", "0.0 0 100 8 1\n1.0 0 100 8 1\n2.0 0 abc 8 1\n"},
        {"spc", "0,100,4096,r,0.0\n0,100,4096,w,0.1\n0,100,4096,x,0.2\n"},
        {"msr", "128166372003061629,usr,0,Read,0,4096,1\n128166372003061630,usr,0,Read,0,4096,1\n"
                "128166372003061631,usr,0,Erase,0,4096,1\n"},
        {"blkparse", "  8,0 0 1 0.000000000 1 D R 100 + 8 [x]\n  8,0 0 2 0.000000001 1 D R 200 + 8 [x]\n"
                     "  8,0 0 3 0.000000002 1 D R 300 - 8 [x]\n"},
    };
    for (const auto &[format, text] : cases) {
        const fs::path trace = write_temp(dir, "bad." + format, text);
        const result r = raidtlm(trace_run(format, trace.string(), dir / ("out_" + format)), dir);
        EXPECT_EQ(r.code, 2) << format << ": " << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
        EXPECT_EQ(r.err.rfind("raidtlm: " + trace.string() + ":3: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("; expected '"), std::string::npos) << r.err;
    }
    // A request beyond the host space names the trace line and the way out.
    const fs::path far = write_temp(dir, "far.disksim", "0.0 0 100 8 1\n1.0 0 99999999999 8 1\n");
    const result r = raidtlm(trace_run("disksim", far.string(), dir / "far"), dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(far.string() + ":2: sectors 99999999999..100000000006 of device '0' lie beyond"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("trace.beyond_capacity wrap or skip"), std::string::npos) << r.err;
}

TEST(raidtlm_help, new_commands_and_keys_are_explained) {
    const scratch_dir dir;
    result r = raidtlm("run --help", dir);
    EXPECT_EQ(r.code, 0);
    for (const char *s : {"--progress", "--jobs", "measurement.ci_target", "trace.format", "workload.size_table",
                          "workload.target_iops", "requests.csv", "batch means"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    r = raidtlm("sustainable-rate --help", dir);
    EXPECT_EQ(r.code, 0);
    for (const char *s : {"--threshold-ms", "--seeds", "--precision", "--ci", "sustainable_rate.json"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    r = raidtlm("--help", dir);
    EXPECT_NE(r.out.find("sustainable-rate"), std::string::npos);
}
