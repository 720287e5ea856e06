// The waves' options (issue 12): signal groups, a time window, FST output; the firmware's queues
// and who waits for each bus traced by name; raidtlm --version and the build in stats.json.
#include <algorithm>
#include <map>
#include <set>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"
#include "vcd_reader.h"

using namespace system_test;

namespace {

// Signal names in a VCD's header (full dotted names).
std::vector<std::string> vcd_signal_names(const fs::path &vcd) {
    std::vector<std::string> names;
    for (const auto &[name, changes] : read_vcd(vcd.string()).signals) names.push_back(name);
    return names;
}

bool has_prefix(const std::vector<std::string> &names, const std::string &prefix) {
    for (const auto &n : names)
        if (n.rfind(prefix, 0) == 0) return true;
    return false;
}

const std::string small_bus_bound =
    "scenarios/bus_bound.yaml --set workload.requests=300 --set workload.warmup_requests=30 ";

}  // namespace

TEST(waves_options, groups_leave_out_what_is_not_chosen) {
    const scratch_dir dir;
    ASSERT_FALSE(run_json(small_bus_bound + "--set 'output.wave_groups=[channels, queues]'", dir, "out").is_null());
    const auto names = vcd_signal_names(dir / "out" / "waves.vcd");
    EXPECT_TRUE(has_prefix(names, "SystemC.controller.ch0.owner"));
    EXPECT_TRUE(has_prefix(names, "SystemC.controller.fw.disk0.queue_depth"));
    EXPECT_FALSE(has_prefix(names, "SystemC.disk0."));
    EXPECT_FALSE(has_prefix(names, "SystemC.controller.cpu."));
    // Every signal the save file lists is in the dump.
    const std::string gtkw = read_file(dir / "out" / "waves.gtkw");
    for (const char *absent : {"disk0.mech_state", "controller.cpu.", "\n-cpu\n", "\n-disk0\n"})
        EXPECT_EQ(gtkw.find(absent), std::string::npos) << absent;
    const auto r = raidtlm("run " + small_bus_bound + "--set 'output.wave_groups=[channels, wires]' --quiet --out '" +
                               (dir / "bad").string() + "'",
                           dir);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("output.wave_groups"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'wires' is not a signal group"), std::string::npos) << r.err;
}

TEST(waves_options, who_waits_for_the_bus_is_one_named_bit_per_device) {
    const scratch_dir dir;
    ASSERT_FALSE(run_json(small_bus_bound, dir, "out").is_null());
    const vcd_dump d = read_vcd((dir / "out" / "waves.vcd").string());
    // Six drives and the controller on ch0: each flag is set at some time, and at any instant
    // somebody waits exactly when some flag is set (a drive waits with one reselection at a time,
    // the controller with one selection per target it has a command for).
    std::vector<std::string> flags{"SystemC.controller.ch0.ctrl_waiting"};
    for (int i = 0; i < 6; ++i) flags.push_back("SystemC.controller.ch0.disk" + std::to_string(i) + "_waiting");
    std::vector<std::string> sigs = flags;
    sigs.push_back("SystemC.controller.ch0.waiting");
    const uint64_t mismatch = vcd_time_where(d, sigs, 0, d.end_time, [](const std::vector<int64_t> &v) {
        int64_t set = 0;
        for (size_t i = 0; i + 1 < v.size(); ++i) set += v[i];
        return (set > 0) != (v.back() > 0) || set > v.back();
    });
    EXPECT_EQ(mismatch, 0u);
    for (const auto &f : flags) {
        const auto &c = d.signals.at(f).changes;
        EXPECT_TRUE(std::any_of(c.begin(), c.end(), [](const auto &ch) { return ch.second == 1; })) << f;
    }
    // The owner's names: the drives and the controller.
    const std::string owners = read_file(dir / "out" / "waves_ch0_owner.txt");
    for (const char *line : {"7 ctrl\n", "0 disk0\n", "5 disk5\n", "16 free\n"})
        EXPECT_NE(owners.find(line), std::string::npos) << line << owners;
    // Requests wait in the firmware's queues too: some disk's queue holds commands at some time.
    bool queued = false;
    for (int i = 0; i < 6; ++i)
        for (const auto &ch : d.signals.at("SystemC.controller.fw.disk" + std::to_string(i) + ".queue_depth").changes)
            queued = queued || ch.second > 0;
    EXPECT_TRUE(queued);
}

TEST(waves_options, a_window_holds_the_values_at_its_start_and_nothing_outside) {
    const scratch_dir dir;
    const nlohmann::json full = run_json(small_bus_bound, dir, "full");
    const nlohmann::json cut =
        run_json(small_bus_bound + "--set output.waves_from_ms=40 --set output.waves_to_ms=90", dir, "cut");
    ASSERT_FALSE(full.is_null());
    ASSERT_FALSE(cut.is_null());
    const vcd_dump a = read_vcd((dir / "full" / "waves.vcd").string()), b = read_vcd((dir / "cut" / "waves.vcd").string());
    const uint64_t from = 40'000'000'000ull, to = 90'000'000'000ull;  // ps
    EXPECT_EQ(b.end_time, to);
    for (const auto &[name, changes] : b.signals) {
        const auto &cb = changes.changes;
        const auto &ca = a.signals.at(name).changes;
        ASSERT_FALSE(cb.empty()) << name;
        // It starts with the value the full dump has at the window's start ...
        EXPECT_EQ(cb.front().first, from) << name;
        int64_t at_from = 0;
        for (const auto &[t, v] : ca)
            if (t <= from) at_from = v;
        EXPECT_EQ(cb.front().second, at_from) << name;
        // ... then has exactly the full dump's changes within the window.
        std::vector<std::pair<uint64_t, int64_t>> in_full;
        for (const auto &c : ca)
            if (c.first > from && c.first <= to) in_full.push_back(c);
        const std::vector<std::pair<uint64_t, int64_t>> in_window(cb.begin() + 1, cb.end());
        EXPECT_EQ(in_window, in_full) << name;
    }
    // The time a signal holds a value in the window is the same in both.
    for (const char *s : {"SystemC.controller.ch0.phase", "SystemC.disk0.mech_state"}) {
        auto busy = [&](const vcd_dump &d) {
            return vcd_time_where(d, {s}, from, to, [](const std::vector<int64_t> &v) { return v[0] != 0; });
        };
        EXPECT_EQ(busy(a), busy(b)) << s;
    }
}

TEST(waves_options, drives_and_channels_show_the_host_request_they_serve) {
    const scratch_dir dir;
    ASSERT_FALSE(run_json(small_bus_bound, dir, "out").is_null());
    const vcd_dump d = read_vcd((dir / "out" / "waves.vcd").string());
    // 330 host requests (warm-up included), numbered by the controller from 0; bus_bound reads
    // whole stripes, so each request is served by every drive: one id can be followed across them.
    std::map<int64_t, int> drives_per_request;
    for (int i = 0; i < 6; ++i) {
        const std::string disk = "SystemC.disk" + std::to_string(i) + ".";
        std::set<int64_t> ids;
        for (const auto &[t, v] : d.signals.at(disk + "request").changes)
            if (v >= 0) ids.insert(v);
        EXPECT_GE(ids.size(), 300u) << disk;
        ASSERT_FALSE(ids.empty());
        EXPECT_LT(*ids.rbegin(), 330 + 6 * 8) << disk;  // at most the requests issued
        for (int64_t id : ids) ++drives_per_request[id];
        // A command in service always has its host request; no request shows while the drive is idle.
        const uint64_t busy = vcd_time_where(d, {disk + "cmd_state"}, 0, d.end_time,
                                             [](const std::vector<int64_t> &v) { return v[0] != 0; });
        const uint64_t unmatched = vcd_time_where(d, {disk + "cmd_state", disk + "request"}, 0, d.end_time,
                                                  [](const std::vector<int64_t> &v) { return (v[0] != 0) != (v[1] >= 0); });
        EXPECT_GT(busy, 0u);
        EXPECT_LE(unmatched, busy / 1000) << disk;
    }
    EXPECT_GE(std::count_if(drives_per_request.begin(), drives_per_request.end(), [](const auto &p) { return p.second == 6; }),
              300);
    // The channel: a request is shown exactly while a connection (a drive or the controller
    // selecting) holds the bus, and it is one of the requests the drives serve.
    const std::string ch = "SystemC.controller.ch0.";
    const uint64_t owned_without = vcd_time_where(d, {ch + "owner", ch + "request"}, 0, d.end_time,
                                                  [](const std::vector<int64_t> &v) { return (v[0] != 16) != (v[1] >= 0); });
    EXPECT_EQ(owned_without, 0u);
    for (const auto &[t, v] : d.signals.at(ch + "request").changes)
        if (v >= 0) EXPECT_TRUE(drives_per_request.count(v)) << v;
}

TEST(waves_options, fst_output_replaces_the_vcd_and_opens_in_gtkwave) {
    const scratch_dir dir;
    ASSERT_FALSE(run_json(small_bus_bound + "--set output.wave_format=fst", dir, "out").is_null());
    EXPECT_TRUE(fs::exists(dir / "out" / "waves.fst"));
    EXPECT_FALSE(fs::exists(dir / "out" / "waves.vcd"));
    const std::string gtkw = read_file(dir / "out" / "waves.gtkw");
    EXPECT_NE(gtkw.find("/waves.fst\"\n"), std::string::npos) << gtkw.substr(0, 300);
    const fs::path log = dir / "gtkwave.txt";
    const int displayed = gtkwave_displayed(dir, "out/waves.gtkw", log);
    if (displayed == -1) GTEST_SKIP() << "no GTKWave here";
    EXPECT_GT(displayed, 10) << read_file(log);
}

TEST(raidtlm_version, the_command_and_stats_json_name_the_version_and_commit) {
    const scratch_dir dir;
    const result v = raidtlm("--version", dir);
    EXPECT_EQ(v.code, 0) << v.err;
    EXPECT_TRUE(std::regex_search(v.out, std::regex(R"(^raidtlm \d+\.\d+\.\d+ \(commit ([0-9a-f]{40}(-dirty)?|unknown)\))")))
        << v.out;
    const nlohmann::json j = run_json("scenarios/default.yaml --set workload.requests=50 --set workload.warmup_requests=0 "
                                      "--set output.waves=false",
                                      dir, "out");
    ASSERT_FALSE(j.is_null());
    EXPECT_NE(v.out.find(j["raidtlm"]["version"].get<std::string>()), std::string::npos);
    EXPECT_NE(v.out.find(j["raidtlm"]["commit"].get<std::string>()), std::string::npos);
}
