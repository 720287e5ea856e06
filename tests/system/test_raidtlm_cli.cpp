// System tests: run the `raidtlm` binary as a user would and check exit codes, outputs and error
// messages. Structure and counts only; timing figures belong to the drive's own tests.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {


// Names of the variables a SystemC VCD declares, as GTKWave shows them ("SystemC.disk0.state[31:0]").
std::set<std::string> vcd_names(const fs::path &vcd) {
    std::ifstream in(vcd);
    std::vector<std::string> scopes;
    std::set<std::string> names;
    for (std::string tok; in >> tok;) {
        if (tok == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scopes.push_back(name);
        } else if (tok == "$upscope") {
            scopes.pop_back();
        } else if (tok == "$var") {
            std::string type, width, id, ref, range;
            in >> type >> width >> id >> ref >> range;
            std::string full;
            for (const auto &s : scopes) full += s + ".";
            names.insert(full + ref + (range == "$end" ? "" : range));
        } else if (tok == "$enddefinitions") {
            break;
        }
    }
    return names;
}

}  // namespace

TEST(raidtlm_run, default_scenario_writes_stats_and_waves) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --out '" + (dir / "out").string() + "'", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");  // no progress line when stderr is not a terminal
    EXPECT_EQ(r.out.find("Copyright"), std::string::npos);
    EXPECT_NE(r.out.find("response time (ms)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("throughput"), std::string::npos) << r.out;

    const nlohmann::json j = nlohmann::json::parse(read_file(dir / "out" / "stats.json"));
    EXPECT_EQ(j["scenario"]["workload"]["requests"], 20000);
    EXPECT_EQ(j["requests"]["measured"], 20000);
    EXPECT_EQ(j["requests"]["errors"], 0);
    EXPECT_EQ(j["requests"]["reads"].get<int>() + j["requests"]["writes"].get<int>(), 20000);
    EXPECT_EQ(j["response_time"]["count"], 20000);
    for (const char *k : {"mean_ms", "stddev_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms", "histogram"})
        EXPECT_TRUE(j["response_time"].contains(k)) << k;
    EXPECT_GT(j["throughput"]["iops"].get<double>(), 0.0);
    EXPECT_TRUE(j["throughput"].contains("mb_per_s"));
    ASSERT_EQ(j["disks"].size(), 4u);
    for (const auto &d : j["disks"])
        for (const char *k : {"mean_seek_distance_cyl", "mean_seek_ms", "mean_rotation_ms", "mean_transfer_ms",
                              "cache_full_hit_ratio", "utilisation"})
            EXPECT_TRUE(d.contains(k)) << k;

    // The save file opens the VCD beside it and every signal it lists exists there.
    const fs::path vcd = dir / "out" / "waves.vcd", gtkw = dir / "out" / "waves.gtkw";
    ASSERT_TRUE(fs::is_regular_file(vcd));
    ASSERT_TRUE(fs::is_regular_file(gtkw));
    const std::set<std::string> names = vcd_names(vcd);
    std::istringstream save(read_file(gtkw));
    int signals = 0, groups = 0;
    bool dumpfile = false, savefile = false;
    const fs::path where = fs::weakly_canonical(dir / "out");
    for (std::string line; std::getline(save, line);) {
        // Both recorded absolutely: GTKWave relocates the dump by its place relative to the save file.
        if (line == "[dumpfile] \"" + (where / "waves.vcd").string() + "\"") dumpfile = true;
        if (line == "[savefile] \"" + (where / "waves.gtkw").string() + "\"") savefile = true;
        if (line == "@800200") ++groups;
        if (line.empty() || std::string("[@-^*").find(line[0]) != std::string::npos) continue;
        ++signals;
        // A row labelled with its owner: "+{disk0 mech_state} SystemC.disk0.mech_state[31:0]".
        const std::string name = line[0] == '+' ? line.substr(line.find("} ") + 2) : line;
        EXPECT_TRUE(names.count(name)) << "not in the VCD: " << line;
    }
    EXPECT_TRUE(dumpfile);
    EXPECT_TRUE(savefile);
    EXPECT_EQ(groups, 5);  // one per disk, one for the host
    EXPECT_EQ(signals, 4 * 6 + 2);  // six rows per disk (with the host request it serves), two host rows
    for (int i = 0; i < 4; ++i)
        for (const char *s : {"cylinder", "head", "queue_depth", "request"})
            EXPECT_TRUE(names.count("SystemC.disk" + std::to_string(i) + "." + s + "[31:0]")) << i << s;
    EXPECT_TRUE(names.count("SystemC.host.outstanding[31:0]"));
}

TEST(raidtlm_run, waves_open_in_gtkwave_tools) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --quiet --set workload.requests=500 --out '" +
                                 (dir / "out").string() + "'",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    bool checked = false;
    if (fs::exists("/usr/bin/vcd2fst")) {
        const std::string cmd = "vcd2fst '" + (dir / "out" / "waves.vcd").string() + "' '" +
                                (dir / "waves.fst").string() + "' > /dev/null 2>&1";
        EXPECT_EQ(std::system(cmd.c_str()), 0);
        EXPECT_GT(fs::file_size(dir / "waves.fst"), 0u);
        checked = true;
    }
    // As README says (`gtkwave out/waves.gtkw`): from the output folder, from its parent, and from
    // elsewhere after the folder was copied and the original removed (nothing may lean on the
    // original's place: the dump and the enum-name filters are found beside the save file).
    auto gtkwave_loads = [&](const fs::path &cwd, const std::string &gtkw, const std::string &what) {
        const fs::path log = dir / ("gtkwave_" + what + ".txt");
        const int displayed = gtkwave_displayed(cwd, gtkw, log);
        if (displayed == -1) return false;
        const std::string out = read_file(log);
        EXPECT_EQ(displayed, 26) << what << "\n" << out;
        for (const char *bad : {"Could not", "rror", "annot", "No such file"})
            EXPECT_EQ(out.find(bad), std::string::npos) << what << ": GTKWave said\n" << out;
        return true;
    };
    if (gtkwave_loads(dir / "out", "waves.gtkw", "in_folder")) {
        gtkwave_loads(dir, "out/waves.gtkw", "from_parent");
        fs::create_directories(dir / "archive");
        fs::create_directories(dir / "elsewhere");
        fs::copy(dir / "out", dir / "archive" / "run1", fs::copy_options::recursive);
        fs::remove_all(dir / "out");
        gtkwave_loads(dir / "elsewhere", "../archive/run1/waves.gtkw", "copied");
        checked = true;
    }
    if (!checked) GTEST_SKIP() << "neither vcd2fst nor xvfb-run + gtkwave installed";
}

TEST(raidtlm_run, overrides_change_the_run) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/default.yaml --quiet --out '" + (dir / "out").string() +
                                 "' --set workload.requests=300 --set workload.warmup_requests=10"
                                 " --set workload.arrival=open --set workload.mean_interarrival_ms=20"
                                 " --set host.layout=jbod --set disks.count=2 --set output.waves=false",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_file(dir / "out" / "stats.json"));
    EXPECT_EQ(j["requests"]["measured"], 300);
    EXPECT_EQ(j["scenario"]["workload"]["arrival"], "open");
    EXPECT_EQ(j["scenario"]["host"]["layout"], "jbod");
    EXPECT_EQ(j["disks"].size(), 2u);
    EXPECT_FALSE(fs::exists(dir / "out" / "waves.vcd"));
}

TEST(raidtlm_run, bad_scenario_key_is_one_line_with_file_line_and_key) {
    const scratch_dir dir;
    const fs::path s = write_temp(dir, "bad.yaml",
                                  "disks:\n  spec: " + source_dir + "/" + cheetah_spec +
                                      "\nworkload:\n  read_fraction: 0.5\n  foo: 1\n");
    expect_one_line_error(raidtlm("run '" + s.string() + "' --out '" + (dir / "out").string() + "'", dir), 2,
                          {s.string() + ":5:3: key 'workload.foo': unknown key; expected one of:"});
}

TEST(raidtlm_run, bad_set_value_names_the_override) {
    const scratch_dir dir;
    expect_one_line_error(raidtlm("run scenarios/default.yaml --set workload.read_fraction=2", dir), 2,
                          {"--set workload.read_fraction=2: key 'workload.read_fraction': 2 is out of range; "
                           "expected a number in [0, 1]"});
    expect_one_line_error(raidtlm("run scenarios/default.yaml --set workload.read_fraction", dir), 2,
                          {"--set workload.read_fraction: not a key=value pair"});
}

TEST(raidtlm_run, missing_scenario_bad_option_and_bad_output_dir) {
    const scratch_dir dir;
    expect_one_line_error(raidtlm("run nowhere.yaml", dir), 2, {"nowhere.yaml: scenario file not found; expected"});
    expect_one_line_error(raidtlm("run scenarios/default.yaml --bogus", dir), 2, {"--bogus", "expected"});
    expect_one_line_error(raidtlm("", dir), 2, {"subcommand"});
    expect_one_line_error(raidtlm("run", dir), 2, {"scenario"});
    write_temp(dir, "file", "x");
    expect_one_line_error(raidtlm("run scenarios/default.yaml --out '" + (dir / "file" / "out").string() + "'", dir),
                          2, {(dir / "file" / "out").string(), "expected a writable directory"});
}

TEST(raidtlm_run, bad_disk_spec_names_file_and_line) {
    const scratch_dir dir;
    const fs::path spec = write_temp(dir, "broken.diskspecs", "disksim_disk broken {\n   Frobnication level = 3,\n}\n");
    const fs::path s = write_temp(dir, "s.yaml", "disks:\n  spec: broken.diskspecs\n");
    const result r = raidtlm("run '" + s.string() + "' --out '" + (dir / "out").string() + "'", dir);
    expect_one_line_error(r, 2, {spec.string() + ":"});
}

TEST(raidtlm_validate, tiny_trace_ends_with_the_demerit) {
    const scratch_dir dir;
    const result r = raidtlm("validate --disk " + cheetah_spec + " --trace tests/system/data/cheetah9LP_tiny.trace", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::string last = r.out.substr(0, r.out.size() - 1);
    last = last.substr(last.rfind('\n') + 1);
    EXPECT_TRUE(std::regex_match(last, std::regex("^demerit_ms: [0-9.]+$"))) << last;
    EXPECT_NE(r.out.find("reads"), std::string::npos);
    EXPECT_NE(r.out.find("12 requests (10 reads, 2 writes)"), std::string::npos) << r.out;
}

// Every one of DiskSim 4.0's validation configurations runs with no argument but itself and a
// trace, and takes the host path's block transfer times from its buses.
TEST(raidtlm_validate, every_disksim_parv_runs_with_no_other_argument) {
    const scratch_dir dir;
    const fs::path t = write_temp(dir, "small.trace",
                                  "R Hit 1000 8 5000.0 3000.0\nW Hit 500000 16 6000.0 1000.0\nR Hit 1000 8 1000.0 "
                                  "2000.0\nR Hit 1500000 4 9000.0 0.0\n");
    const std::string v = "../shared/reference/disksim/validation/";
    for (const char *parv : {"atlas10k", "atlas_III", "barracuda", "cheetah4LP", "cheetah9LP", "ibm18es", "hp_c2247a",
                             "hp_c2490a", "hp_c3323a", "dec_rz26"}) {
        const result r = raidtlm("validate " + v + parv + ".parv '" + t.string() + "'", dir);
        EXPECT_EQ(r.code, 0) << parv << ": " << r.err;
        EXPECT_NE(r.out.find("4 requests (3 reads, 1 writes)"), std::string::npos) << parv << ": " << r.out;
        EXPECT_NE(r.out.find("demerit_ms: "), std::string::npos) << parv;
    }
    const result hp = raidtlm("validate " + v + "hp_c2247a.parv '" + t.string() + "'", dir);
    EXPECT_NE(hp.out.find("host path 0.17010 ms/sector read, 0.18686 write"), std::string::npos) << hp.out;
}

TEST(raidtlm_validate, malformed_trace_line_is_one_line_with_file_and_line) {
    const scratch_dir dir;
    const fs::path t = write_temp(dir, "bad.trace", "R Hit 100 4 1000.0 2000.0\nW Hit 200 8 1500.0 100.0\nR Hit 300 4 oops 1.0\n");
    expect_one_line_error(raidtlm("validate --disk " + cheetah_spec + " --trace '" + t.string() + "'", dir), 2,
                          {t.string() + ":3: measured service time 'oops' is not a number; expected 'R|W FLAG LBN "
                                        "BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US'"});
    const fs::path beyond = write_temp(dir, "beyond.trace", "R Hit 100 4 1000.0 2000.0\nR Hit 99999999999 4 1000 1\n");
    expect_one_line_error(raidtlm("validate --disk " + cheetah_spec + " --trace '" + beyond.string() + "'", dir), 2,
                          {beyond.string() + ":2: lbn 99999999999 + 4 blocks lies beyond the disk's"});
}

TEST(raidtlm_validate, missing_inputs) {
    const scratch_dir dir;
    expect_one_line_error(
        raidtlm("validate --disk nowhere.diskspecs --trace tests/system/data/cheetah9LP_tiny.trace", dir), 2,
        {"nowhere.diskspecs"});
    expect_one_line_error(raidtlm("validate --disk " + cheetah_spec + " --trace nowhere.trace", dir), 2,
                          {"nowhere.trace: cannot open the trace"});
    expect_one_line_error(raidtlm("validate --trace tests/system/data/cheetah9LP_tiny.trace", dir), 2, {"--disk"});
}

TEST(raidtlm_help, explains_every_option) {
    const scratch_dir dir;
    result r = raidtlm("--help", dir);
    EXPECT_EQ(r.code, 0);
    for (const char *s : {"run", "validate", "Exit status"}) EXPECT_NE(r.out.find(s), std::string::npos) << s;
    r = raidtlm("run --help", dir);
    EXPECT_EQ(r.code, 0);
    for (const char *s : {"--out", "--set", "--quiet", "stats.json", "waves.gtkw", "workload.read_fraction",
                          "disks.spec"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    r = raidtlm("validate --help", dir);
    EXPECT_EQ(r.code, 0);
    for (const char *s : {"--disk", "--trace", "--disk-name", "demerit_ms"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(raidtlm_sr_model, prints_the_models_as_json_with_s_and_r_from_the_disk_spec) {
    const scratch_dir dir;
    const result r = raidtlm("sr-model --disk " + cheetah_spec + " --ds 2 --dr 3 --queue 32 --overhead-ms 0.34", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    // Cheetah 9LP: 10,045 rpm; full-stroke seek about 10.6 ms (cheetah9LP.seek ends at 10.627 ms).
    EXPECT_NEAR(j["inputs"]["rotation_ms"].get<double>(), 60000.0 / 10045, 1e-9);
    EXPECT_NEAR(j["inputs"]["max_seek_ms"].get<double>(), 10.65, 0.1);
    EXPECT_EQ(j["throughput_model"], "eq12 (per-disk queue > 3)");
    EXPECT_GT(j["eq16_array_iops"].get<double>(), 0);
    // The queue-8 load takes the latency model and gives fewer IO/s.
    const result r8 = raidtlm("sr-model --disk " + cheetah_spec + " --ds 2 --dr 3 --queue 8 --overhead-ms 0.34", dir);
    ASSERT_EQ(r8.code, 0) << r8.err;
    EXPECT_LT(nlohmann::json::parse(r8.out)["eq16_array_iops"].get<double>(), j["eq16_array_iops"].get<double>());
}

TEST(raidtlm_sr_model, without_disk_times_is_a_one_line_error) {
    const scratch_dir dir;
    const result r = raidtlm("sr-model --ds 2 --dr 3", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--max-seek-ms"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// `raidtlm plog-model`: the parity logging paper's model for the Figure 12 drive, as a table and as
// JSON; a drive it cannot describe is bad input.
TEST(raidtlm_plog_model, prints_the_papers_figures_and_refuses_a_zoned_drive) {
    const scratch_dir dir;
    const result table = raidtlm("plog-model", dir);
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("20.61"), std::string::npos) << table.out;  // nonredundant, Figure 12 as printed
    EXPECT_NE(table.out.find("69.02"), std::string::npos) << table.out;  // RAID 5
    const result js = raidtlm("plog-model --json --disk scenarios/disks/ibm0661.diskspecs", dir);
    ASSERT_EQ(js.code, 0) << js.err;
    const auto j = nlohmann::json::parse(js.out);
    EXPECT_NEAR(j["parameters"]["S_ms"].get<double>(), 12.72, 0.01);  // the seek formula's mean
    EXPECT_NEAR(j["schemes"]["floating"]["busy_ms_per_write"].get<double>(), 48.05, 0.01);
    const result bad = raidtlm("plog-model --disk ../shared/reference/disksim/validation/cheetah9LP.diskspecs", dir);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("cheetah9LP.diskspecs"), std::string::npos) << bad.err;
}

// `raidtlm plog-model --failures f`: Section 9's extension (Figure 30's rows); an array whose f log
// copies leave too few members is one line of error.
TEST(raidtlm_plog_model, failures_prints_figure_30s_rows_and_refuses_too_few_members) {
    const scratch_dir dir;
    const result table = raidtlm("plog-model --failures 3", dir);
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("12.13"), std::string::npos) << table.out;  // 4-copy mirroring: a quarter of 48.52
    const result js = raidtlm("plog-model --failures 2 --json --log-stripes 6", dir);
    ASSERT_EQ(js.code, 0) << js.err;
    const auto j = nlohmann::json::parse(js.out);
    EXPECT_EQ(j["failures"].get<int>(), 2);
    EXPECT_NEAR(j["schemes"]["mirroring"]["storage_overhead"].get<double>(), 2.0 / 3, 1e-9);
    EXPECT_GT(j["schemes"]["parity_logging"]["blind_io_per_s_per_disk"].get<double>(),
              j["schemes"]["mirroring"]["blind_io_per_s_per_disk"].get<double>());
    const result bad = raidtlm("plog-model --failures 3 --log-stripes 7", dir);
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("needs more than"), std::string::npos) << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_NE(raidtlm("plog-model --failures 4", dir).code, 0);
}
