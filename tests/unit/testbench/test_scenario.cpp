#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "config/plugin_keys.h"
#include "controller/firmware_api/plugins.h"
#include "testbench/scenario/scenario.h"

using namespace raidtlm::testbench;
namespace fs = std::filesystem;

namespace {

const std::string spec_path = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/validation/cheetah9LP.diskspecs";

std::string write_temp(const std::string &name, const std::string &text) {
    const fs::path dir = fs::temp_directory_path() / ("raidtlm_scenario_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
}

std::string minimal() { return "disks:\n  spec: " + spec_path + "\n"; }

// The scenario_error message of loading `text` (with overrides), or "" if it loads.
std::string error_of(const std::string &text, const std::vector<scenario_override> &o = {},
                     const std::string &name = "s.yaml") {
    try {
        load_scenario(write_temp(name, text), o);
    } catch (const scenario_error &e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << "not one line: " << m;
        EXPECT_NE(m.find("; expected "), std::string::npos) << m;
        return m;
    }
    return "";
}

}  // namespace

TEST(scenario, default_yaml_loads_with_its_values) {
    const scenario s = load_scenario(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/default.yaml", {}, RAIDTLM_SOURCE_DIR);
    EXPECT_TRUE(fs::is_regular_file(s.disks.spec_path)) << s.disks.spec_path;
    EXPECT_EQ(s.disks.count, 4);
    EXPECT_FALSE(s.disks.spindle_sync);
    EXPECT_EQ(s.host.layout, host_layout::stripe);
    EXPECT_EQ(s.host.stripe_unit_sectors, 64u);
    EXPECT_EQ(s.workload.arrival, arrival_process::closed);
    EXPECT_EQ(s.workload.outstanding, 8);
    EXPECT_DOUBLE_EQ(s.workload.read_fraction, 0.67);
    EXPECT_EQ(s.workload.requests, 20000u);
    EXPECT_EQ(s.workload.warmup_requests, 500u);
    EXPECT_TRUE(s.output.waves);
    // Every documented key is echoed by to_json.
    const auto j = s.to_json();
    for (const auto &k : scenario_keys()) {
        std::string pointer = "/" + k.key;
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        EXPECT_TRUE(j.contains(nlohmann::json::json_pointer(pointer))) << k.key;
    }
}

TEST(scenario, default_yaml_documents_every_key) {
    std::ifstream in(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/default.yaml");
    std::string comments;
    for (std::string line; std::getline(in, line);)
        if (line.rfind("#", 0) == 0) comments += line + "\n";
    for (const auto &k : scenario_keys()) {
        const std::string leaf = k.key.substr(k.key.rfind('.') + 1);
        EXPECT_NE(comments.find(" " + leaf + " "), std::string::npos) << k.key;
    }
}

TEST(scenario, every_default_is_the_documented_fallback) {
    // What an omitted key really gets (echoed by to_json) is what `raidtlm run --help` says.
    const nlohmann::json j = load_scenario(write_temp("min.yaml", minimal())).to_json();
    for (const auto &k : scenario_keys()) {
        if (k.fallback.empty() || k.key == "disks.name") continue;
        std::string pointer = "/" + k.key;
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        const nlohmann::json v = j.at(nlohmann::json::json_pointer(pointer));
        if (v.is_number()) EXPECT_DOUBLE_EQ(v.get<double>(), std::stod(k.fallback)) << k.key;
        else if (v.is_boolean()) EXPECT_EQ(v.get<bool>() ? "true" : "false", k.fallback) << k.key;
        else if (v.is_string() && k.fallback == "\"\"") EXPECT_EQ(v.get<std::string>(), "") << k.key;
        else if (v.is_string()) EXPECT_EQ(v.get<std::string>(), k.fallback) << k.key;
        else if (k.key == "workload.size_table") EXPECT_EQ(v.size(), 7u);  // "airline" echoed as its 7 rows
        else EXPECT_EQ(v.dump(), k.fallback) << k.key;  // lists and maps, as YAML flow text
    }
}

TEST(scenario, controller_keys_nest_and_check_what_applies) {
    const scenario s = load_scenario(write_temp(
        "c.yaml", minimal() + "controller:\n  enabled: true\n  channels: 2\n  cpu:\n    mhz: 250\n    cores: 2\n"
                              "  bus:\n    preset: ultra2\n    fairness: true\n  host_link:\n    preset: pcie\n"
                              "    lanes: 4\n    generation: 2\n"));
    EXPECT_TRUE(s.controller.enabled);
    EXPECT_EQ(s.controller.config.channels, 2);
    EXPECT_DOUBLE_EQ(s.controller.config.cpu.mhz, 250);
    EXPECT_EQ(s.controller.config.cpu.cores, 2);
    EXPECT_DOUBLE_EQ(s.controller.config.bus.rate_mb_per_s(), 80);
    EXPECT_TRUE(s.controller.config.bus.fairness);
    EXPECT_DOUBLE_EQ(s.controller.config.host_link.mb_per_s(), 2000);
    EXPECT_EQ(s.controller.config.firmware.stripe_unit_sectors, 64u);  // from host.stripe_unit_sectors

    std::string m = error_of(minimal() + "controller:\n  cpu:\n    mhz: 0\n");
    EXPECT_NE(m.find("s.yaml:5:10: key 'controller.cpu.mhz': 0 is out of range; expected a number > 0 (MHz)"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  cpu:\n    speed: 3\n");
    EXPECT_NE(m.find("s.yaml:5:5: key 'controller.cpu.speed': unknown key; expected one of: mhz, cores, scheduling"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  cpu: 3\n");
    EXPECT_NE(m.find("key 'controller.cpu': group is a scalar; expected a map of keys: mhz, cores, scheduling"),
              std::string::npos)
        << m;
    for (const char *sas : {"sas3g", "sas6g", "sas12g"}) {
        m = error_of(minimal() + "controller:\n  bus:\n    preset: " + sas + "\n    arbitration_us: 1\n");
        EXPECT_NE(m.find("key 'controller.bus.arbitration_us': set while controller.bus.preset is " + std::string(sas)),
                  std::string::npos)
            << m;
        EXPECT_NE(m.find("point-to-point SATA or SAS link"), std::string::npos) << m;
        m = error_of(minimal() + "controller:\n  bus:\n    preset: " + sas + "\n    fairness: true\n");
        EXPECT_NE(m.find("key 'controller.bus.fairness': set on a point-to-point " + std::string(sas) + " link"),
                  std::string::npos)
            << m;
    }
    const scenario sas = load_scenario(write_temp(
        "sas.yaml", minimal() + "controller:\n  enabled: true\n  bus:\n    preset: sas12g\n"));
    EXPECT_DOUBLE_EQ(sas.controller.config.bus.rate_mb_per_s(), 1200);
    EXPECT_TRUE(sas.controller.config.bus.point_to_point());
    EXPECT_TRUE(sas.controller.config.bus.phases.all_zero());
    m = error_of(minimal() + "controller:\n  bus:\n    width_bits: 8\n");
    EXPECT_NE(m.find("key 'controller.bus.width_bits': set while controller.bus.preset is ultra160; expected it only "
                     "with controller.bus.preset: custom"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  host_link:\n    lanes: 4\n");
    EXPECT_NE(m.find("key 'controller.host_link.lanes': set while controller.host_link.preset is pcix"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "  count: 20\ncontroller:\n  enabled: true\n");
    EXPECT_NE(m.find("key 'disks.count': 20 drives on 1 channel(s) put 20 on a 16-bit bus, which has IDs for 15"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  enabled: true\n  firmware: replicated\n");
    EXPECT_NE(m.find("key 'controller.firmware': firmware 'replicated' does not serve controller.layout raid0"),
              std::string::npos)
        << m;
    m = error_of(minimal(), {parse_override("controller.bus=3")});
    EXPECT_NE(m.find("--set controller.bus=3: key 'controller.bus': is a group, not a key"), std::string::npos) << m;
}

TEST(scenario, omitted_keys_take_documented_defaults) {
    const scenario s = load_scenario(write_temp("min.yaml", minimal()));
    const scenario_key_info *count = nullptr;
    for (const auto &k : scenario_keys())
        if (k.key == "disks.count") count = &k;
    ASSERT_NE(count, nullptr);
    EXPECT_EQ(std::to_string(s.disks.count), count->fallback);
    EXPECT_EQ(s.workload.request_sectors, 8u);
    EXPECT_EQ(s.workload.address, address_pattern::uniform);
    EXPECT_TRUE(s.disks.spec_name.empty());
}

TEST(scenario, overrides_apply_in_order_and_record_their_origin) {
    const std::string p = write_temp("o.yaml", minimal() + "workload:\n  read_fraction: 0.5\n");
    const scenario s = load_scenario(p, {parse_override("workload.read_fraction=0.9"),
                                         parse_override("workload.read_fraction=1.0"),
                                         parse_override("host.layout=jbod"), parse_override("workload.seed=77")});
    EXPECT_DOUBLE_EQ(s.workload.read_fraction, 1.0);
    EXPECT_EQ(s.host.layout, host_layout::jbod);
    EXPECT_EQ(s.workload.seed, 77u);
    EXPECT_EQ(s.where("workload.read_fraction"), "--set workload.read_fraction=1.0");
    EXPECT_EQ(s.where("disks.spec"), p + ":2:9");
}

TEST(scenario, unknown_key_names_file_line_column_and_key) {
    const std::string m = error_of(minimal() + "workload:\n  read_fraction: 0.5\n  foo: 3\n");
    EXPECT_NE(m.find("s.yaml:5:3: key 'workload.foo': unknown key; expected one of: arrival,"), std::string::npos)
        << m;
}

TEST(scenario, unknown_section) {
    const std::string m = error_of(minimal() + "hots:\n  layout: jbod\n");
    EXPECT_NE(m.find("s.yaml:3:1: key 'hots': unknown section; expected one of: disks, host, controller, workload, trace, measurement, output"),
              std::string::npos)
        << m;
}

TEST(scenario, wrong_type_and_out_of_range_values) {
    std::string m = error_of(minimal() + "  count: four\n");
    EXPECT_NE(m.find("s.yaml:3:10: key 'disks.count': 'four' is not an integer; expected an integer in [1, 256]"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "workload:\n  read_fraction: 1.5\n");
    EXPECT_NE(m.find("s.yaml:4:18: key 'workload.read_fraction': 1.5 is out of range; expected a number in [0, 1]"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "workload:\n  arrival: sometimes\n");
    EXPECT_NE(m.find("key 'workload.arrival': 'sometimes' is not a valid choice; expected open, closed or trace"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "output:\n  waves: [1, 2]\n");
    EXPECT_NE(m.find("key 'output.waves': value is a list; expected true or false"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  request_sectors: 8.5\n");
    EXPECT_NE(m.find("key 'workload.request_sectors': '8.5' is not an integer"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  seed: -1\n");
    EXPECT_NE(m.find("key 'workload.seed'"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  mean_interarrival_ms: 0\n");
    EXPECT_NE(m.find("key 'workload.mean_interarrival_ms': 0 is out of range; expected a number > 0"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "host: 3\n");
    EXPECT_NE(m.find("s.yaml:3:7: key 'host': section is a scalar; expected a map of keys: layout,"),
              std::string::npos)
        << m;
}

TEST(scenario, missing_or_unfound_spec) {
    std::string m = error_of("workload:\n  seed: 3\n");
    EXPECT_NE(m.find("key 'disks.spec': missing; expected a path to a DiskSim .diskspecs file"), std::string::npos)
        << m;
    m = error_of("disks:\n  spec: nowhere.diskspecs\n");
    EXPECT_NE(m.find("s.yaml:2:9: key 'disks.spec': file 'nowhere.diskspecs' not found (tried "), std::string::npos)
        << m;
    m = error_of("disks:\n  spec:\n");
    EXPECT_NE(m.find("key 'disks.spec': missing value"), std::string::npos) << m;
}

TEST(scenario, spec_relative_to_the_scenario_then_the_repo_root) {
    // Next to the scenario file.
    const fs::path dir = fs::path(write_temp("rel.yaml", "")).parent_path();
    fs::copy_file(spec_path, dir / "local.diskspecs", fs::copy_options::overwrite_existing);
    scenario s = load_scenario(write_temp("rel.yaml", "disks:\n  spec: local.diskspecs\n"));
    EXPECT_EQ(fs::path(s.disks.spec_path), (dir / "local.diskspecs").lexically_normal());
    // From the repository root (../shared sits beside the repo).
    s = load_scenario(write_temp("root.yaml", "disks:\n  spec: ../shared/reference/disksim/validation/cheetah9LP.diskspecs\n"),
                      {}, RAIDTLM_SOURCE_DIR);
    EXPECT_TRUE(fs::is_regular_file(s.disks.spec_path));
}

TEST(scenario, set_errors_name_the_override) {
    std::string m = error_of(minimal(), {parse_override("workload.foo=1")});
    EXPECT_EQ(m.rfind("--set workload.foo=1: key 'workload.foo': unknown key; expected one of: disks.spec,", 0), 0u)
        << m;
    m = error_of(minimal(), {parse_override("workload.read_fraction=2")});
    EXPECT_EQ(m, "--set workload.read_fraction=2: key 'workload.read_fraction': 2 is out of range; expected a number "
                 "in [0, 1]");
    m = error_of(minimal(), {parse_override("workload=3")});
    EXPECT_NE(m.find("key 'workload': is a section, not a key"), std::string::npos) << m;
    EXPECT_THROW(parse_override("workload.read_fraction"), scenario_error);
    EXPECT_THROW(parse_override("=3"), scenario_error);
}

TEST(scenario, yaml_syntax_errors_and_bad_files) {
    std::string m = error_of(minimal() + "workload:\n  seed: [1, 2\n");
    EXPECT_NE(m.find("s.yaml:"), std::string::npos) << m;
    EXPECT_NE(m.find("YAML syntax error"), std::string::npos) << m;
    m = error_of("");
    EXPECT_NE(m.find("s.yaml:1:1: the scenario is empty"), std::string::npos) << m;
    m = error_of("- 1\n- 2\n");
    EXPECT_NE(m.find("the scenario is a list"), std::string::npos) << m;
    try {
        load_scenario("/nonexistent/x.yaml");
        FAIL();
    } catch (const scenario_error &e) {
        EXPECT_STREQ(e.what(), "/nonexistent/x.yaml: scenario file not found; expected a path to a YAML scenario");
    }
}

TEST(scenario, duplicate_keys_are_refused) {
    const std::string m = error_of(minimal() + "  count: 2\n  count: 3\n");
    EXPECT_NE(m.find("s.yaml:4:3: key 'disks.count': given twice (first at "), std::string::npos) << m;
}

TEST(scenario, histogram_layout_is_bounded) {
    const std::string m = error_of(minimal() + "output:\n  histogram_bucket_ms: 0.0001\n  histogram_max_ms: 1000\n");
    EXPECT_NE(m.find("key 'output.histogram_max_ms'"), std::string::npos) << m;
}

TEST(scenario, error_helper_uses_the_recorded_origin) {
    const std::string p = write_temp("e.yaml", minimal() + "workload:\n  request_sectors: 64\n");
    const scenario s = load_scenario(p);
    const scenario_error e = s.error("workload.request_sectors", "too big", "at most 8");
    EXPECT_EQ(std::string(e.what()), p + ":4:20: key 'workload.request_sectors': too big; expected at most 8");
}

TEST(scenario, list_and_map_keys_load_and_point_at_the_bad_item) {
    const scenario s = load_scenario(
        write_temp("lists.yaml", minimal() +
                                     "workload:\n  rate_schedule: [[0, 50], [10, 200]]\n  size_distribution: table\n"
                                     "  size_table: [[3, 8], [1, 128, write]]\n"
                                     "trace:\n  device_map: {usr_0: 0, usr_1: 1000}\n"));
    ASSERT_EQ(s.workload.rate_schedule.size(), 2u);
    EXPECT_EQ(s.workload.rate_schedule[1].start_s, 10);
    EXPECT_EQ(s.workload.rate_schedule[1].iops, 200);
    EXPECT_EQ(s.workload.size_table, (std::vector<size_table_entry>{{3, 8, -1}, {1, 128, 0}}));
    EXPECT_EQ(s.trace.device_map, (std::vector<std::pair<std::string, uint64_t>>{{"usr_0", 0}, {"usr_1", 1000}}));
    EXPECT_EQ(load_scenario(write_temp("air.yaml", minimal())).workload.size_table, airline_size_table());

    std::string m = error_of(minimal() + "workload:\n  rate_schedule:\n    - [0, 10]\n    - [5]\n");
    EXPECT_NE(m.find("s.yaml:6:7: key 'workload.rate_schedule': a step is not a pair; expected a list of "
                     "[start_s, iops]"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "workload:\n  rate_schedule: [[1, 10]]\n");
    EXPECT_NE(m.find("the first step does not start at 0"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  rate_schedule: [[0, 10], [0, 20]]\n");
    EXPECT_NE(m.find("steps are not in ascending time"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  size_table: [[1, 8, sideways]]\n");
    EXPECT_NE(m.find("s.yaml:4:23: key 'workload.size_table': 'sideways' is not a valid choice"), std::string::npos)
        << m;
    m = error_of(minimal() + "workload:\n  size_table: bogus\n");
    EXPECT_NE(m.find("'bogus' is not a known table"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  size_table: [[0, 8]]\n");
    EXPECT_NE(m.find("no row has a positive weight"), std::string::npos) << m;
    m = error_of(minimal() + "trace:\n  device_map: [1, 2]\n");
    EXPECT_NE(m.find("key 'trace.device_map': value is a list"), std::string::npos) << m;
    m = error_of(minimal(), {parse_override("workload.rate_schedule=[[0, 10], [x, 1]]")});
    EXPECT_EQ(m.rfind("--set workload.rate_schedule=[[0, 10], [x, 1]]: key 'workload.rate_schedule': 'x' is not a "
                      "number",
                      0),
              0u)
        << m;
}

TEST(scenario, keys_that_depend_on_each_other) {
    std::string m = error_of(minimal() + "workload:\n  arrival: trace\n");
    EXPECT_NE(m.find("key 'trace.file': missing while workload.arrival is trace"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  requests: 0\n");
    EXPECT_NE(m.find("key 'workload.requests': 0 is only for trace replay"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  arrival: open\n  target_iops: 100\n");
    EXPECT_NE(m.find("s.yaml:5:16: key 'workload.target_iops': set while workload.arrival is open"), std::string::npos)
        << m;
    m = error_of(minimal() + "workload:\n  size_distribution: zipf\n  size_mean_sectors: 200\n");
    EXPECT_NE(m.find("key 'workload.size_mean_sectors': a Zipf mean of 200 over sizes 1..256"), std::string::npos) << m;
    m = error_of(minimal() + "workload:\n  size_distribution: uniform\n  size_min_sectors: 9\n  size_max_sectors: 8\n");
    EXPECT_NE(m.find("key 'workload.size_min_sectors': 9 is above workload.size_max_sectors (8)"), std::string::npos)
        << m;
    m = error_of(minimal() + "trace:\n  file: nowhere.spc\n");
    EXPECT_NE(m.find("key 'trace.file': file 'nowhere.spc' not found"), std::string::npos) << m;
    m = error_of(minimal() + "measurement:\n  ci_target: 1.5\n");
    EXPECT_NE(m.find("key 'measurement.ci_target': 1.5 is out of range"), std::string::npos) << m;
}

// A layout plug-in, registered as an out-of-tree executable registers one (never built here): its
// scheme says which family serves it and which checks apply, its own keys live under its name.
namespace {
struct test_layout_keys {
    int width = 4;
};
const bool test_layout_keys_registered = raidtlm::config::register_plugin_keys<test_layout_keys>(
    "controller.test_user_layout", "layout test_user_layout",
    [](raidtlm::config::declarations<test_layout_keys> &k) { k.integer("width", &test_layout_keys::width, "4", 3, 64); });
const raidtlm::controller::registration<raidtlm::controller::layout_factory> test_user_layout{
    "test_user_layout",
    {"a test layout of the raid5 scheme", raidtlm::controller::array_kind::raid5,
     [](const raidtlm::controller::controller_config &, const std::vector<raidtlm::controller::disk_info> &) {
         return std::unique_ptr<raidtlm::controller::layout>();
     }}};
}  // namespace

TEST(scenario, a_layout_plugin_is_named_by_its_registration_and_owns_its_keys) {
    ASSERT_TRUE(test_layout_keys_registered);
    const scenario s = load_scenario(write_temp(
        "u.yaml", minimal() + "controller:\n  enabled: true\n  layout: test_user_layout\n  test_user_layout:\n"
                              "    width: 5\n  reconstruct_write_fraction: 0.7\n"));
    const raidtlm::controller::firmware_config &fw = s.controller.config.firmware;
    EXPECT_EQ(fw.array, raidtlm::controller::array_kind::raid5);
    EXPECT_EQ(raidtlm::controller::layout_name(fw), "test_user_layout");
    EXPECT_EQ(raidtlm::controller::firmware_name(fw), "raid");  // the family of its scheme
    EXPECT_EQ(s.controller.config.plugins.get<test_layout_keys>("controller.test_user_layout").width, 5);
    EXPECT_EQ(s.to_json()["controller"]["layout"], "test_user_layout");
    // Its keys only with it; the built-in layouts' placement keys not with it.
    std::string m = error_of(minimal() + "controller:\n  layout: raid5\n  test_user_layout:\n    width: 5\n");
    EXPECT_NE(m.find("key 'controller.test_user_layout.width': set while controller.layout is raid5; expected it only "
                     "with controller.layout: test_user_layout"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: test_user_layout\n  parity_rotation: left-asymmetric\n");
    EXPECT_NE(m.find("key 'controller.parity_rotation': set while controller.layout is test_user_layout, a layout "
                     "plug-in of the raid5 scheme"),
              std::string::npos)
        << m;
}

TEST(scenario, controller_layout_keys_load_and_refuse_what_does_not_fit) {
    const scenario s = load_scenario(write_temp(
        "l.yaml", minimal() + "controller:\n  enabled: true\n  layout: raid5\n  parity_rotation: right-asymmetric\n"
                              "  reconstruct_write_fraction: 0.7\n"));
    EXPECT_EQ(s.controller.config.firmware.array, raidtlm::controller::array_kind::raid5);
    EXPECT_EQ(s.controller.config.firmware.parity_rotation, raidtlm::controller::parity_placement::right_asymmetric);
    EXPECT_DOUBLE_EQ(s.controller.config.firmware.parity_writes.reconstruct_write_fraction, 0.7);
    EXPECT_EQ(s.to_json()["controller"]["layout"], "raid5");
    EXPECT_EQ(s.to_json()["controller"]["parity_rotation"], "right-asymmetric");
    const scenario d = load_scenario(write_temp("d.yaml", minimal()));
    EXPECT_EQ(d.controller.config.firmware.array, raidtlm::controller::array_kind::raid0);

    std::string m = error_of(minimal() + "controller:\n  layout: raid7\n");
    EXPECT_NE(m.find("s.yaml:4:11: key 'controller.layout'"), std::string::npos) << m;
    EXPECT_NE(m.find("'raid7' is not a registered layout; expected a registered layout: adaptraid5, floating, "
                     "parity_logging, raid0, raid1, raid10, raid4, raid5, raid6, sr_array"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: raid10\n  mirror_copies: 3\n");  // 4 disks
    EXPECT_NE(m.find("s.yaml:4:11: key 'controller.layout': raid10 with 3-way mirrors needs a multiple of 3 disks"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  parity_rotation: left-asymmetric\n");
    EXPECT_NE(m.find("s.yaml:4:20: key 'controller.parity_rotation': set while controller.layout is raid0"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "  count: 2\ncontroller:\n  layout: raid5\n");
    EXPECT_NE(m.find("key 'controller.layout': raid5 needs at least 3 disks; disks.count is 2"), std::string::npos) << m;
    m = error_of(minimal() + "host:\n  layout: jbod\ncontroller:\n  layout: raid1\n");
    EXPECT_NE(m.find("key 'controller.layout': raid1 while host.layout is jbod"), std::string::npos) << m;
}

// controller.floating_checks: 2 selects floating over RAID 6 (P and Q); it needs floating, 4 disks,
// and raid6's own rotation.
TEST(scenario, floating_checks_load_and_refuse_what_does_not_fit) {
    const scenario s =
        load_scenario(write_temp("f.yaml", minimal() + "controller:\n  layout: floating\n  floating_checks: 2\n"));
    EXPECT_EQ(s.controller.config.firmware.floating_checks, 2);
    EXPECT_EQ(s.to_json()["controller"]["floating_checks"], 2);
    EXPECT_EQ(load_scenario(write_temp("g.yaml", minimal())).controller.config.firmware.floating_checks, 1);

    std::string m = error_of(minimal() + "controller:\n  layout: raid6\n  floating_checks: 2\n");
    EXPECT_NE(m.find("key 'controller.floating_checks': set while controller.layout is raid6"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: floating\n  floating_checks: 4\n");
    EXPECT_NE(m.find("key 'controller.floating_checks': 4 is out of range"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: floating\n  floating_checks: 3\n");
    EXPECT_NE(m.find("key 'controller.floating_checks': 3 (P, Q and R) needs at least 5 disks; disks.count is 4"),
              std::string::npos)
        << m;
    EXPECT_EQ(load_scenario(write_temp("h.yaml", minimal() + "  count: 5\ncontroller:\n  layout: floating\n"
                                                             "  floating_checks: 3\n"))
                  .controller.config.firmware.floating_checks,
              3);
    m = error_of(minimal() + "  count: 3\ncontroller:\n  layout: floating\n  floating_checks: 2\n");
    EXPECT_NE(m.find("key 'controller.floating_checks': 2 (P and Q) needs at least 4 disks; disks.count is 3"),
              std::string::npos)
        << m;
    m = error_of(minimal() +
                 "controller:\n  layout: floating\n  floating_checks: 2\n  parity_rotation: right-asymmetric\n");
    EXPECT_NE(m.find("key 'controller.parity_rotation': set while controller.floating_checks is 2"), std::string::npos)
        << m;
}

// controller.raid6_checks: 3 selects the triple-check array (P, Q and R); it needs raid6 and 5
// disks (two data units), and takes 2 or 3.
TEST(scenario, raid6_checks_load_and_refuse_what_does_not_fit) {
    const scenario s = load_scenario(
        write_temp("r.yaml", minimal() + "  count: 5\ncontroller:\n  layout: raid6\n  raid6_checks: 3\n"));
    EXPECT_EQ(s.controller.config.firmware.raid6_checks, 3);
    EXPECT_EQ(s.to_json()["controller"]["raid6_checks"], 3);
    EXPECT_EQ(load_scenario(write_temp("s.yaml", minimal())).controller.config.firmware.raid6_checks, 2);

    std::string m = error_of(minimal() + "controller:\n  layout: raid5\n  raid6_checks: 3\n");
    EXPECT_NE(m.find("key 'controller.raid6_checks': set while controller.layout is raid5"), std::string::npos) << m;
    EXPECT_NE(m.find("controller.floating_checks"), std::string::npos) << m;  // says what floating uses
    m = error_of(minimal() + "controller:\n  layout: raid6\n  raid6_checks: 4\n");
    EXPECT_NE(m.find("key 'controller.raid6_checks': 4 is out of range"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: raid6\n  raid6_checks: 1\n");
    EXPECT_NE(m.find("key 'controller.raid6_checks': 1 is out of range"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: raid6\n  raid6_checks: 3\n");
    EXPECT_NE(m.find("key 'controller.raid6_checks': 3 (P, Q and R) needs at least 5 disks (two data units); "
                     "disks.count is 4"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: raid6\n  raid6_checks: three\n");
    EXPECT_NE(m.find("key 'controller.raid6_checks'"), std::string::npos) << m;
}

// controller.parity_logging.checks: 2 (parity logging over P+Q, the log on 2 copies) needs
// parity_logging and 2L + 3 disks (2L log disks, P, Q and a data member per big row); 3 (P+Q+R,
// the log on 3 copies) 3L + 4.
TEST(scenario, parity_logging_checks_load_and_refuse_what_does_not_fit) {
    const std::string pq = "controller:\n  layout: parity_logging\n  parity_logging:\n    log_stripes: 1\n"
                           "    checks: 2\n";
    const scenario s = load_scenario(write_temp("p.yaml", minimal() + "  count: 5\n" + pq));
    EXPECT_EQ(s.controller.config.firmware.parity_logging.checks, 2);
    EXPECT_EQ(load_scenario(write_temp("q.yaml", minimal())).controller.config.firmware.parity_logging.checks, 1);
    std::string m = error_of(minimal() + "  count: 4\n" + pq);
    EXPECT_NE(m.find("key 'controller.parity_logging.checks': parity_logging with 2 checks and 1 sublogs needs at "
                     "least 5 disks"),
              std::string::npos)
        << m;
    const std::string pqr = "controller:\n  layout: parity_logging\n  parity_logging:\n    log_stripes: 2\n"
                            "    checks: 3\n";
    EXPECT_EQ(load_scenario(write_temp("r.yaml", minimal() + "  count: 10\n" + pqr))
                  .controller.config.firmware.parity_logging.checks,
              3);
    m = error_of(minimal() + "  count: 9\n" + pqr);
    EXPECT_NE(m.find("key 'controller.parity_logging.checks': parity_logging with 3 checks and 2 sublogs needs at "
                     "least 10 disks"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: parity_logging\n  parity_logging:\n    checks: 4\n");
    EXPECT_NE(m.find("key 'controller.parity_logging.checks': 4 is out of range"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: raid5\n  parity_logging:\n    checks: 2\n");
    EXPECT_NE(m.find("key 'controller.parity_logging.checks': set while controller.layout is raid5"),
              std::string::npos)
        << m;
}

TEST(scenario, delayed_write_keys_apply_to_replicated_layouts_only) {
    const scenario s = load_scenario(write_temp(
        "dw.yaml", minimal() + "controller:\n  layout: raid10\n  delayed_writes:\n    foreground_propagation: true\n"
                               "    threshold_entries: 500\n"));
    EXPECT_TRUE(s.controller.config.firmware.delayed_writes.foreground_propagation);
    EXPECT_EQ(s.controller.config.firmware.delayed_writes.threshold_entries, 500u);
    EXPECT_EQ(s.to_json()["controller"]["delayed_writes"]["threshold_entries"], 500);

    std::string m = error_of(minimal() + "controller:\n  delayed_writes:\n    threshold_entries: 5\n");
    EXPECT_NE(m.find("s.yaml:5:24: key 'controller.delayed_writes.threshold_entries': set while controller.layout is "
                     "raid0; expected it only with a replicated layout"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "  count: 6\ncontroller:\n  layout: sr_array\n  sr:\n    ds: 6\n"
                             "  delayed_writes:\n    foreground_propagation: true\n");
    EXPECT_NE(m.find("key 'controller.delayed_writes.foreground_propagation': set while controller.layout is sr_array "
                     "with Dr*Dm = 1"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: raid1\n  delayed_writes:\n    threshold_entries: 0\n");
    EXPECT_NE(m.find("key 'controller.delayed_writes.threshold_entries': 0 is out of range"), std::string::npos) << m;
    // The table must fit the NVRAM (16 bytes an entry; 512 KiB by default).
    m = error_of(minimal() + "controller:\n  layout: raid1\n  delayed_writes:\n    threshold_entries: 40000\n");
    EXPECT_NE(m.find("key 'controller.delayed_writes.threshold_entries': a table of 40000 entries of 16 bytes needs "
                     "640000 bytes of NVRAM; the NVRAM has 524288"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  predictor:\n    reference_read_interval_ms: 1000\n");
    EXPECT_NE(m.find("key 'controller.predictor.reference_read_interval_ms': set while controller.scheduler is fcfs"),
              std::string::npos)
        << m;
}

TEST(scenario, controller_scheduler_keys) {
    const scenario s = load_scenario(
        write_temp("k.yaml", minimal() + "controller:\n  scheduler: cvscan\n  cvscan_r: 0.5\n"));
    EXPECT_EQ(s.controller.config.firmware.scheduler, raidtlm::controller::scheduling_policy::cvscan);
    EXPECT_DOUBLE_EQ(s.controller.config.firmware.cvscan_r, 0.5);
    EXPECT_EQ(s.to_json()["controller"]["scheduler"], "cvscan");
    std::string m = error_of(minimal() + "controller:\n  scheduler: rsatf\n");
    EXPECT_NE(m.find("key 'controller.scheduler': rsatf while controller.layout is raid0"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  scheduler: xsatf\n");
    EXPECT_NE(m.find("fcfs, sstf, look, c-look, cvscan, satf, rlook or rsatf"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  layout: sr_array\n  sr:\n    ds: 2\n    dr: 3\n");
    EXPECT_NE(m.find("key 'controller.layout': sr_array 2x3x1 needs Ds*Dr*Dm = 6 disks"), std::string::npos) << m;
    const scenario sa = load_scenario(write_temp(
        "k.yaml", minimal() + "controller:\n  scheduler: satf\n  predictor:\n    feedback: false\n    slack_sectors: 4\n"));
    EXPECT_EQ(sa.controller.config.firmware.scheduler, raidtlm::controller::scheduling_policy::satf);
    EXPECT_FALSE(sa.controller.config.firmware.predictor.slack.feedback);
    EXPECT_DOUBLE_EQ(sa.controller.config.firmware.predictor.slack.initial_sectors, 4);
    m = error_of(minimal() + "controller:\n  predictor:\n    feedback: false\n");
    EXPECT_NE(m.find("key 'controller.predictor.feedback': set while controller.scheduler is fcfs"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  layout: raid0\n  rmw: read_rotate_write\n");
    EXPECT_NE(m.find("key 'controller.rmw': set while controller.layout is raid0"), std::string::npos) << m;
    m = error_of(minimal() + "controller:\n  cvscan_r: 0.3\n");
    EXPECT_NE(m.find("s.yaml:4:13: key 'controller.cvscan_r': set while controller.scheduler is fcfs"),
              std::string::npos)
        << m;
}

// A user's scheduler plug-in, registered as an out-of-tree executable would, is chosen by name;
// an unregistered name is an error listing the registered ones.
namespace {
raidtlm::controller::registration<raidtlm::controller::scheduler_factory> test_scheduler{
    "test_oldest_first",
    {"oldest first (a test plug-in)", false, false, [](const raidtlm::controller::disk_scheduler::config &c) {
         return std::make_unique<raidtlm::controller::disk_scheduler>(c);
     }}};
}  // namespace

TEST(scenario, a_registered_scheduler_plugin_is_chosen_by_name) {
    const scenario s =
        load_scenario(write_temp("p.yaml", minimal() + "controller:\n  enabled: true\n  scheduler: test_oldest_first\n"));
    EXPECT_EQ(s.controller.config.firmware.scheduler_plugin, "test_oldest_first");
    EXPECT_EQ(s.to_json()["controller"]["scheduler"], "test_oldest_first");
    const std::string m = error_of(minimal() + "controller:\n  scheduler: no_such\n");
    EXPECT_NE(m.find("key 'controller.scheduler': 'no_such' is not a valid choice; expected fcfs, sstf,"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("test_oldest_first"), std::string::npos) << m;
}
