// System tests of runs through the RAID controller: the teaching scenarios reach the limits their
// comments name (bus rate, CPU cycles per request), a second channel lifts a bus-bound run, the
// controller path with every cost zero gives the disk-only figures, and the scenarios' waveforms
// open in GTKWave.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

nlohmann::json run_json(const std::string &args, const scratch_dir &dir, const std::string &name) {
    const fs::path out = dir / name;
    const result r = raidtlm("run " + args + " --quiet --out '" + out.string() + "'", dir);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return {};
    return nlohmann::json::parse(read_file(out / "stats.json"));
}

// Signals a .gtkw lists (lines that are not comments, directives, flags or group names).
std::vector<std::string> gtkw_signals(const fs::path &gtkw) {
    std::istringstream in(read_file(gtkw));
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && std::string("[@-^*").find(line[0]) == std::string::npos) out.push_back(line);
    return out;
}

}  // namespace

TEST(controller_runs, a_bus_bound_run_reaches_the_bus_rate_and_a_second_channel_lifts_it) {
    const scratch_dir dir;
    const nlohmann::json one = run_json("scenarios/bus_bound.yaml --set output.waves=false", dir, "one");
    ASSERT_FALSE(one.is_null());
    const double rate = one["controller"]["channels"][0]["rate_mb_per_s"];
    ASSERT_DOUBLE_EQ(rate, 20.0);  // Fast-20
    // Host throughput and the data crossing the bus: within 5% of the bus rate, never above it.
    const double host = one["throughput"]["mb_per_s"], data = one["controller"]["channels"][0]["data_mb_per_s"];
    EXPECT_GE(host, 0.95 * rate);
    EXPECT_LE(host, rate);
    EXPECT_GE(data, 0.95 * rate);
    EXPECT_LE(data, rate);
    EXPECT_GT(one["controller"]["channels"][0]["utilisation"].get<double>(), 0.99);
    // The drives are not what limits it.
    for (const auto &d : one["disks"]) EXPECT_LT(d["utilisation"].get<double>(), 0.9);

    const nlohmann::json two =
        run_json("scenarios/bus_bound.yaml --set output.waves=false --set controller.channels=2", dir, "two");
    ASSERT_FALSE(two.is_null());
    EXPECT_GT(two["throughput"]["mb_per_s"].get<double>(), 1.5 * host);
    for (const auto &ch : two["controller"]["channels"]) EXPECT_LE(ch["data_mb_per_s"].get<double>(), rate);
}

TEST(controller_runs, a_cpu_bound_run_matches_clock_over_cycles_per_request) {
    const scratch_dir dir;
    const nlohmann::json j = run_json("scenarios/cpu_bound.yaml --set output.waves=false", dir, "out");
    ASSERT_FALSE(j.is_null());
    const auto &c = j["scenario"]["controller"];
    const auto &k = c["cost"];
    ASSERT_EQ(k["schedule_per_entry_cycles"], 0);
    ASSERT_EQ(j["scenario"]["workload"]["read_fraction"], 1.0);  // no write-intent records
    ASSERT_EQ(j["scenario"]["workload"]["request_sectors"], 1);   // one piece per request
    // A read: host command, host DMA set-up, schedule, physical command, SCSI DMA set-up,
    // completion interrupt, table update.
    const double cycles = k["host_command_cycles"].get<double>() + 2 * k["dma_setup_cycles"].get<double>() +
                          k["schedule_base_cycles"].get<double>() + k["physical_command_cycles"].get<double>() +
                          k["completion_interrupt_cycles"].get<double>() + k["table_update_cycles"].get<double>();
    const double analytic = c["cpu"]["mhz"].get<double>() * 1e6 / cycles;
    const double iops = j["throughput"]["iops"];
    EXPECT_NEAR(iops / analytic, 1.0, 0.05) << iops << " vs " << analytic;
    EXPECT_LE(iops, analytic * 1.001);
    EXPECT_GT(j["controller"]["cpu"]["utilisation"].get<double>(), 0.95);
}

TEST(controller_runs, zero_cost_controller_gives_the_disk_only_figures) {
    const scratch_dir dir;
    const std::string n = " --set workload.requests=20000";
    const nlohmann::json disk = run_json("scenarios/bench.yaml" + n, dir, "disk");
    const nlohmann::json ctl = run_json("scenarios/bench_controller.yaml" + n, dir, "ctl");
    ASSERT_FALSE(disk.is_null());
    ASSERT_FALSE(ctl.is_null());
    EXPECT_EQ(ctl["requests"]["measured"], disk["requests"]["measured"]);
    EXPECT_EQ(ctl["requests"]["reads"], disk["requests"]["reads"]);
    // Commands issued (counted up to the stop, so those in flight then may differ by one or two).
    EXPECT_NEAR(ctl["host"]["disk_commands"].get<double>(), disk["host"]["disk_commands"].get<double>(), 3);
    // The same requests meet the same drives at the same times; only when several wait for one drive
    // may they start in a different order: the minimal host adapter leaves that to the order in which
    // SystemC wakes the waiting threads, the controller's firmware serves its per-disk queue first come,
    // first served. That moves single responses (the maximum differs) but hardly the mean.
    const double a = disk["response_time"]["mean_ms"], b = ctl["response_time"]["mean_ms"];
    EXPECT_NEAR(b / a, 1.0, 0.005) << a << " vs " << b;
    EXPECT_NEAR(ctl["window"]["end_ms"].get<double>() / disk["window"]["end_ms"].get<double>(), 1.0, 1e-6);
    // And the controller's blocks charged nothing.
    EXPECT_EQ(ctl["controller"]["cpu"]["utilisation"], 0.0);
    EXPECT_EQ(ctl["controller"]["channels"][0]["arbitration_wait"]["max_ms"], 0.0);
}

TEST(controller_runs, stats_report_utilisation_and_waits_of_every_block) {
    const scratch_dir dir;
    const nlohmann::json j = run_json("scenarios/disk_bound.yaml --set output.waves=false --set workload.requests=1000 "
                                      "--set workload.read_fraction=0.5",
                                      dir, "out");
    ASSERT_FALSE(j.is_null());
    const auto &c = j["controller"];
    for (const char *block : {"cpu", "nvram", "xor", "host_link"}) {
        EXPECT_TRUE(c[block].contains("utilisation")) << block;
        EXPECT_TRUE(c[block]["wait"].contains("mean_ms")) << block;
        EXPECT_TRUE(c[block]["wait"].contains("max_ms")) << block;
    }
    EXPECT_TRUE(c["dram"].contains("utilisation"));
    for (const char *port : {"cpu", "host", "ch0", "xor"}) EXPECT_TRUE(c["dram"]["ports"][port].contains("wait")) << port;
    EXPECT_TRUE(c["dram"]["buffer"]["wait"].contains("max_ms"));
    EXPECT_TRUE(c["channels"][0]["arbitration_wait"].contains("max_ms"));
    // Writes log intents in NVRAM; the drives and controller agree on the command count.
    EXPECT_GT(c["nvram"]["writes"].get<int>(), 0);
    EXPECT_EQ(c["firmware"]["physical_commands"], j["host"]["disk_commands"]);
    EXPECT_GT(c["cpu"]["utilisation"].get<double>(), 0.0);
    EXPECT_GT(c["channels"][0]["utilisation"].get<double>(), 0.0);
}

TEST(controller_runs, default_and_teaching_scenarios_run_in_seconds_and_their_waves_load) {
    for (const char *name : {"default", "bus_bound", "cpu_bound", "disk_bound"}) {
        SCOPED_TRACE(name);
        const scratch_dir dir;
        const auto t0 = std::chrono::steady_clock::now();
        const result r =
            raidtlm(std::string("run scenarios/") + name + ".yaml --quiet --out '" + (dir / "out").string() + "'", dir);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_LT(wall, 30.0);  // a few seconds on the development machine
        const std::vector<std::string> signals = gtkw_signals(dir / "out" / "waves.gtkw");
        ASSERT_FALSE(signals.empty());
        const fs::path log = dir / "gtkwave.txt";
        const int displayed = gtkwave_displayed(dir / "out", "waves.gtkw", log);
        if (displayed == -1) continue;  // no GTKWave here
        EXPECT_EQ(displayed, int(signals.size())) << read_file(log);
    }
}

TEST(controller_runs, controller_waves_group_blocks_and_channels) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/bus_bound.yaml --quiet --set workload.requests=200 --set controller.channels=2 "
                             "--out '" + (dir / "out").string() + "'",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string gtkw = read_file(dir / "out" / "waves.gtkw");
    for (const char *group : {"-controller", "-cpu", "-dram", "-host_link", "-xor", "-nvram", "-ch0", "-ch1", "-disk0"})
        EXPECT_NE(gtkw.find(std::string("\n") + group + "\n"), std::string::npos) << group;
    for (const char *sig : {"SystemC.controller.ch1.owner[31:0]", "SystemC.controller.ch0.phase[31:0]",
                            "SystemC.controller.cpu.core0_task[31:0]", "SystemC.controller.dram.grant_ch1[31:0]",
                            "SystemC.controller.xor.queue_depth[31:0]", "SystemC.controller.nvram.occupancy_bytes[31:0]",
                            "SystemC.controller.host_link.to_host[31:0]"})
        EXPECT_NE(gtkw.find(sig), std::string::npos) << sig;
    // Every listed signal is in the VCD.
    const std::string vcd = read_file(dir / "out" / "waves.vcd");
    for (const std::string &s : gtkw_signals(dir / "out" / "waves.gtkw")) {
        const std::string leaf = s.substr(s.rfind('.') + 1, s.find('[') - s.rfind('.') - 1);
        EXPECT_NE(vcd.find(" " + leaf + " "), std::string::npos) << s;
    }
}

TEST(controller_runs, bad_controller_settings_are_one_line_errors) {
    const scratch_dir dir;
    const fs::path s = write_temp(dir, "bad.yaml",
                                  "disks:\n  spec: " + source_dir + "/" + cheetah_spec +
                                      "\ncontroller:\n  enabled: true\n  bus:\n    preset: ultra640\n");
    const result r = raidtlm("run '" + s.string() + "' --out '" + (dir / "out").string() + "'", dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_NE(r.err.find(s.string() + ":6:13: key 'controller.bus.preset': 'ultra640' is not a valid choice; expected "
                                      "fast20, ultra2, ultra160, ultra320 or custom"),
              std::string::npos)
        << r.err;
    const result help = raidtlm("run --help", dir);
    for (const char *k : {"controller.enabled", "controller.cpu.mhz", "controller.bus.preset", "controller.dram.arbitration",
                          "controller.host_link.preset", "controller.xor.bytes_per_cycle", "controller.nvram.capacity_kib"})
        EXPECT_NE(help.out.find(k), std::string::npos) << k;
}

TEST(controller_runs, raid5_and_raid10_runs_with_data_tokens_read_back_every_acknowledged_write) {
    const scratch_dir dir;
    // Small requests crowded onto a few stripes, 16 at a time: writes to one stripe overlap.
    const std::string common =
        "scenarios/default.yaml --set controller.enabled=true --set workload.data_tokens=true"
        " --set workload.requests=3000 --set workload.outstanding=16 --set workload.address=local"
        " --set workload.local_stddev_sectors=300 --set workload.read_fraction=0.5 --set output.waves=false";
    const nlohmann::json r5 = run_json(common + " --set controller.layout=raid5", dir, "raid5");
    ASSERT_FALSE(r5.is_null());
    EXPECT_EQ(r5["controller"]["integrity_errors"], 0);
    EXPECT_GT(r5["controller"]["reads_checked"].get<uint64_t>(), 3000u);
    EXPECT_GT(r5["controller"]["firmware"]["stripe_writes"]["read-modify-write"].get<uint64_t>(), 1000u);
    EXPECT_EQ(r5["scenario"]["workload"]["data_tokens"], true);
    const nlohmann::json r10 = run_json(common + " --set controller.layout=raid10", dir, "raid10");
    ASSERT_FALSE(r10.is_null());
    EXPECT_EQ(r10["controller"]["integrity_errors"], 0);
    EXPECT_GT(r10["controller"]["reads_checked"].get<uint64_t>(), 3000u);
}

TEST(controller_runs, delayed_writes_on_mirrored_sr_arrays_read_back_every_acknowledged_write) {
    const scratch_dir dir;
    // Unaligned 8-sector writes crowded together, 16 at a time: pending updates are superseded
    // (split, trimmed) and reads must find a current copy; Dm = 2 duplicates reads and first writes.
    const std::string common =
        "scenarios/sr_array_d6.yaml --set controller.layout=sr_array --set controller.scheduler=rsatf"
        " --set workload.data_tokens=true --set workload.requests=3000 --set workload.outstanding=16"
        " --set workload.read_fraction=0.5 --set workload.address=local --set workload.local_stddev_sectors=300"
        " --set workload.request_sectors=8 --set workload.alignment_sectors=1";
    for (const char *shape : {"--set controller.sr.ds=3 --set controller.sr.dm=2",
                              "--set controller.sr.dr=3 --set controller.sr.dm=2"}) {
        const nlohmann::json r = run_json(common + " " + shape, dir, "sr");
        ASSERT_FALSE(r.is_null()) << shape;
        EXPECT_EQ(r["controller"]["integrity_errors"], 0) << shape;
        EXPECT_GT(r["controller"]["reads_checked"].get<uint64_t>(), 3000u) << shape;
        const nlohmann::json &f = r["controller"]["firmware"];
        EXPECT_GT(f["delayed_writes"]["superseded"].get<uint64_t>(), 100u) << shape;
        EXPECT_GT(f["delayed_writes"]["issued"].get<uint64_t>(), 500u) << shape;
        EXPECT_GT(f["duplicated_requests"].get<uint64_t>(), 500u) << shape;
    }
}

TEST(controller_runs, satf_beats_fcfs_on_random_reads_and_reports_its_prediction_statistics) {
    const scratch_dir dir;
    const std::string common =
        "scenarios/default.yaml --set controller.enabled=true --set workload.read_fraction=1"
        " --set workload.request_sectors=1 --set workload.alignment_sectors=1 --set workload.outstanding=32"
        " --set workload.requests=3000 --set output.waves=false";
    const nlohmann::json fcfs = run_json(common + " --set controller.tags_per_disk=1", dir, "fcfs");
    const nlohmann::json satf = run_json(common + " --set controller.scheduler=satf", dir, "satf");
    ASSERT_FALSE(fcfs.is_null());
    ASSERT_FALSE(satf.is_null());
    const double f = fcfs["response_time"]["mean_ms"], s = satf["response_time"]["mean_ms"];
    EXPECT_LT(s, 0.85 * f) << "satf " << s << " ms, fcfs " << f << " ms";
    const nlohmann::json &p = satf["controller"]["firmware"]["prediction"];
    ASSERT_TRUE(p.is_object());
    EXPECT_GT(p["requests"].get<uint64_t>(), 2000u);
    EXPECT_LT(p["miss_rate"].get<double>(), 0.01);
    for (const char *k : {"mean_error_ms", "stddev_error_ms", "demerit_ms", "relative_demerit", "mean_slack_sectors"})
        EXPECT_TRUE(p.contains(k)) << k;
    EXPECT_FALSE(fcfs["controller"]["firmware"].contains("prediction"));
}

TEST(controller_runs, raid5_read_rotate_write_runs_read_back_every_write) {
    const scratch_dir dir;
    const nlohmann::json r = run_json(
        "scenarios/default.yaml --set controller.enabled=true --set workload.data_tokens=true"
        " --set workload.requests=2000 --set workload.outstanding=16 --set workload.address=local"
        " --set workload.local_stddev_sectors=300 --set workload.read_fraction=0.5 --set output.waves=false"
        " --set controller.layout=raid5 --set controller.rmw=read_rotate_write --set controller.scheduler=satf",
        dir, "rrw");
    ASSERT_FALSE(r.is_null());
    EXPECT_EQ(r["controller"]["integrity_errors"], 0);
    EXPECT_GT(r["controller"]["reads_checked"].get<uint64_t>(), 2000u);
    EXPECT_GT(r["controller"]["firmware"]["read_rotate_writes"].get<uint64_t>(), 1000u);
    EXPECT_EQ(r["scenario"]["controller"]["rmw"], "read_rotate_write");
}

TEST(controller_runs, a_2x3_sr_array_beats_6x1x1_striping_on_random_reads_with_locality) {
    const scratch_dir dir;
    const std::string common =
        "scenarios/default.yaml --set controller.enabled=true --set disks.count=6 --set controller.layout=sr_array"
        " --set workload.read_fraction=1 --set workload.request_sectors=1 --set workload.alignment_sectors=1"
        " --set workload.outstanding=8 --set workload.requests=3000 --set workload.address=local"
        " --set workload.local_stddev_sectors=2000000 --set output.waves=false";
    const nlohmann::json sr = run_json(
        common + " --set controller.sr.ds=2 --set controller.sr.dr=3 --set controller.scheduler=rsatf", dir, "sr");
    const nlohmann::json st = run_json(
        common + " --set controller.sr.ds=6 --set controller.sr.dr=1 --set controller.scheduler=satf", dir, "st");
    ASSERT_FALSE(sr.is_null());
    ASSERT_FALSE(st.is_null());
    const double a = sr["response_time"]["mean_ms"], b = st["response_time"]["mean_ms"];
    EXPECT_LT(a, b) << "2x3 " << a << " ms, 6x1x1 " << b << " ms";
    EXPECT_LT(sr["controller"]["firmware"]["prediction"]["miss_rate"].get<double>(), 0.02);
    EXPECT_EQ(sr["scenario"]["controller"]["sr"]["dr"], 3);
    // Writes to every replica (foreground) read back.
    const nlohmann::json w = run_json(common + " --set controller.sr.ds=2 --set controller.sr.dr=3"
                                               " --set controller.scheduler=rsatf --set workload.read_fraction=0.5"
                                               " --set workload.data_tokens=true --set workload.local_stddev_sectors=3000",
                                      dir, "w");
    ASSERT_FALSE(w.is_null());
    EXPECT_EQ(w["controller"]["integrity_errors"], 0);
    EXPECT_GT(w["controller"]["reads_checked"].get<uint64_t>(), 1000u);
}
