// The key declaration facility (config/) on its own: a block declares keys on its struct, a
// container mounts them, values are read from YAML and --set with the standard errors, the help
// shows generated forms with units, and the echo gives back the effective values.
#include <string>

#include <gtest/gtest.h>

#include "config/key_declarations.h"
#include "config/key_loader.h"

using namespace raidtlm::config;

namespace {

enum class mode { fast, careful };

struct engine_config {
    double clock_mhz = 100;
    double delay_us = 2.5;
    int depth = 4;
    uint64_t window_sectors = 64;
    bool enabled = true;
    mode how = mode::fast;
    uint64_t capacity_bytes = 4096;
};

struct box_config {
    int count = 2;
    engine_config engine;
};

const names<mode> mode_names = {{"fast", mode::fast}, {"careful", mode::careful}};

declarations<engine_config> engine_keys() {
    declarations<engine_config> k;
    k.number("clock_mhz", &engine_config::clock_mhz, "100").above(0).cap(1e6);
    k.number("delay_us", &engine_config::delay_us, "2.5").min(0).max(10).unit("us").note("per command");
    k.integer("depth", &engine_config::depth, "4", 1, 64).note("commands in flight");
    k.integer("window_sectors", &engine_config::window_sectors, "64", 0, 1000000000000LL);
    k.boolean("enabled", &engine_config::enabled, "true");
    k.choice("how", &engine_config::how, "fast", mode_names);
    k.custom(
         "capacity_kib", "4", "",
         [](engine_config &e, const value_ref &v, const key_use &u) {
             e.capacity_bytes = uint64_t(read_integer(v, u, 1, 1024)) << 10;
         },
         [](const engine_config &e) { return nlohmann::json(e.capacity_bytes / 1024); })
        .form("an integer in [1, 1024]")
        .unit("KiB");
    k.check([](const engine_config &e, const key_checks &c) {
        if (c.given("depth") && !e.enabled) c.fail("depth", "set while " + c.key("enabled") + " is false", "it only when enabled");
    });
    return k;
}

declarations<box_config> box_keys() {
    declarations<box_config> k;
    k.integer("count", &box_config::count, "2", 1, 8);
    k.mount("engine", engine_keys(), &box_config::engine);
    return k;
}

struct loaded {
    box_config box;
    std::map<std::string, std::string> origin;
};

// Loads YAML text (file name "t.yaml") with overrides; rethrows the key_error.
loaded load(const std::string &yaml, const std::vector<key_override> &overrides = {}) {
    declarations<box_config> root;
    root.mount("box", box_keys(), std::function<box_config *(box_config &)>([](box_config &b) { return &b; }));
    const auto keys = root.infos();
    const given_values given = collect_values(keys, YAML::Load(yaml), "t.yaml", overrides);
    require_given(keys, given, "t.yaml");
    loaded out;
    const file_context files;
    read_given(root, out.box, given, files, out.origin);
    root.run_checks(out.box, key_checks([&](const std::string &k) { return out.origin.count(k) != 0; },
                                        [&](const std::string &k) { return out.origin.at(k); }));
    return out;
}

std::string error_of(const std::string &yaml, const std::vector<key_override> &overrides = {}) {
    try {
        load(yaml, overrides);
    } catch (const key_error &e) {
        return e.what();
    }
    return "";
}

const key_info &info(const declarations<box_config> &d, const std::string &key) {
    static std::vector<key_info> infos;
    infos = d.infos();
    for (const auto &i : infos)
        if (i.key == key) return i;
    throw std::out_of_range(key);
}

}  // namespace

TEST(key_declarations, forms_are_generated_from_type_range_unit_and_note) {
    const auto d = box_keys();
    EXPECT_EQ(info(d, "count").expected, "an integer in [1, 8]");
    EXPECT_EQ(info(d, "engine.clock_mhz").expected, "a number > 0");  // the cap is not part of the form
    EXPECT_EQ(info(d, "engine.delay_us").expected, "a number in [0, 10] (us; per command)");
    EXPECT_EQ(info(d, "engine.depth").expected, "an integer in [1, 64] (commands in flight)");
    EXPECT_EQ(info(d, "engine.window_sectors").expected, "an integer in [0, 10^12]");
    EXPECT_EQ(info(d, "engine.enabled").expected, "true or false");
    EXPECT_EQ(info(d, "engine.how").expected, "fast or careful");
    EXPECT_EQ(info(d, "engine.capacity_kib").expected, "an integer in [1, 1024] (KiB)");
}

TEST(key_declarations, units_come_from_the_declaration_or_the_name) {
    const auto d = box_keys();
    EXPECT_EQ(info(d, "engine.delay_us").unit, "us");           // declared, and shown in the form
    EXPECT_EQ(info(d, "engine.clock_mhz").unit, "MHz");         // from the name, not repeated in the form
    EXPECT_EQ(info(d, "engine.window_sectors").unit, "sectors");
    EXPECT_EQ(info(d, "engine.capacity_kib").unit, "KiB");
    EXPECT_EQ(info(d, "count").unit, "");
    EXPECT_EQ(unit_from_name("controller.bus.mtransfers_per_s"), "MT/s");
    EXPECT_EQ(unit_from_name("workload.requests"), "");  // a plural is not the unit "s"
}

TEST(key_declarations, ranges_of_numbers_and_integers_are_enforced) {
    value_range r;
    r.lo = 0;
    r.lo_open = true;
    r.hi = 1;
    r.hi_open = true;
    EXPECT_EQ(range_form(r), "a number in (0, 1)");
    r.integer = true;
    r.lo = 1;
    r.hi = double(INT32_MAX);
    EXPECT_EQ(range_form(r), "an integer in [1, 2^31)");

    EXPECT_EQ(error_of("box:\n  engine:\n    delay_us: 10.5\n"),
              "t.yaml:3:15: key 'box.engine.delay_us': 10.5 is out of range; expected a number in [0, 10] (us; per "
              "command)");
    EXPECT_EQ(error_of("box:\n  engine:\n    clock_mhz: 0\n"),
              "t.yaml:3:16: key 'box.engine.clock_mhz': 0 is out of range; expected a number > 0");
    EXPECT_EQ(error_of("box:\n  engine:\n    clock_mhz: 2e6\n"),
              "t.yaml:3:16: key 'box.engine.clock_mhz': 2e6 is out of range; expected a number > 0");
    EXPECT_EQ(error_of("box:\n  count: 9\n"), "t.yaml:2:10: key 'box.count': 9 is out of range; expected an integer in [1, 8]");
    EXPECT_EQ(error_of("box:\n  count: 2.5\n"),
              "t.yaml:2:10: key 'box.count': '2.5' is not an integer; expected an integer in [1, 8]");
    EXPECT_EQ(error_of("box:\n  engine:\n    how: slow\n"),
              "t.yaml:3:10: key 'box.engine.how': 'slow' is not a valid choice; expected fast or careful");
    EXPECT_EQ(error_of("box:\n  engine:\n    enabled: [1]\n"),
              "t.yaml:3:14: key 'box.engine.enabled': value is a list; expected true or false");
}

TEST(key_declarations, values_land_in_the_mounted_struct_and_are_echoed) {
    const loaded l = load("box:\n  count: 3\n  engine:\n    delay_us: 1\n    how: careful\n    capacity_kib: 8\n",
                          {{"box.engine.depth", "16"}});
    EXPECT_EQ(l.box.count, 3);
    EXPECT_DOUBLE_EQ(l.box.engine.delay_us, 1);
    EXPECT_EQ(l.box.engine.how, mode::careful);
    EXPECT_EQ(l.box.engine.capacity_bytes, 8u * 1024);
    EXPECT_EQ(l.box.engine.depth, 16);
    EXPECT_DOUBLE_EQ(l.box.engine.clock_mhz, 100);  // not given: the struct's default
    EXPECT_EQ(l.origin.at("box.engine.depth"), "--set box.engine.depth=16");
    EXPECT_EQ(l.origin.at("box.count"), "t.yaml:2:10");

    const nlohmann::json j = box_keys().echo(l.box);
    EXPECT_EQ(j["engine"]["how"], "careful");
    EXPECT_EQ(j["engine"]["capacity_kib"], 8);
    EXPECT_EQ(j["engine"]["depth"], 16);
    EXPECT_EQ(j["count"], 3);
}

TEST(key_declarations, every_fallback_is_what_an_omitted_key_gets) {
    const auto d = box_keys();
    const nlohmann::json j = d.echo(load("box: {}\n").box);
    for (const auto &k : d.infos()) {
        std::string pointer = "/" + k.key;
        for (char &c : pointer)
            if (c == '.') c = '/';
        const nlohmann::json v = j.at(nlohmann::json::json_pointer(pointer));
        if (v.is_string()) EXPECT_EQ(v.get<std::string>(), k.fallback) << k.key;
        else if (v.is_boolean()) EXPECT_EQ(v.get<bool>() ? "true" : "false", k.fallback) << k.key;
        else EXPECT_DOUBLE_EQ(v.get<double>(), std::stod(k.fallback)) << k.key;
    }
}

TEST(key_declarations, unknown_keys_groups_and_misplaced_values_are_named) {
    EXPECT_EQ(error_of("box:\n  engine:\n    speed: 3\n"),
              "t.yaml:3:5: key 'box.engine.speed': unknown key; expected one of: clock_mhz, delay_us, depth, "
              "window_sectors, enabled, how, capacity_kib");
    EXPECT_EQ(error_of("crate:\n  count: 3\n"), "t.yaml:1:1: key 'crate': unknown section; expected one of: box");
    EXPECT_EQ(error_of("box:\n  engine: 3\n"),
              "t.yaml:2:11: key 'box.engine': group is a scalar; expected a map of keys: clock_mhz, delay_us, depth, "
              "window_sectors, enabled, how, capacity_kib");
    EXPECT_EQ(error_of("box: {}\n", {{"box.engine", "3"}}).rfind(
                  "--set box.engine=3: key 'box.engine': is a group, not a key; expected one of: box.count,", 0),
              0u);
    EXPECT_EQ(error_of("box: {}\n", {{"box.engine.speed", "3"}}).rfind(
                  "--set box.engine.speed=3: key 'box.engine.speed': unknown key; expected one of:", 0),
              0u);
    EXPECT_EQ(error_of("box:\n  count: 3\n  count: 4\n").rfind("t.yaml:3:3: key 'box.count': given twice (first at ", 0),
              0u);
}

TEST(key_declarations, a_block_check_sees_which_keys_were_given_under_its_mount_point) {
    EXPECT_EQ(error_of("box:\n  engine:\n    enabled: false\n    depth: 8\n"),
              "t.yaml:4:12: key 'box.engine.depth': set while box.engine.enabled is false; expected it only when "
              "enabled");
    EXPECT_EQ(error_of("box:\n  engine:\n    enabled: false\n"), "");  // the default depth is not "given"
}
