// A plug-in (here a dummy firmware registered by a test) declares its own keys under its prefix;
// the scenario reads, checks, lists and echoes them like raidtlm's own.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "config/plugin_keys.h"
#include "controller/firmware_api/plugins.h"
#include "testbench/scenario/scenario.h"

using namespace raidtlm;
using testbench::load_scenario;
using testbench::parse_override;
using testbench::scenario_error;
namespace fs = std::filesystem;

namespace {

enum class flush_policy { eager, lazy };

struct dummy_fw_config {
    double cache_mib = 64;
    int flush_threshold = 16;
    flush_policy flush = flush_policy::lazy;
    bool mirror_cache = false;
};

void declare_dummy_keys(config::declarations<dummy_fw_config> &k) {
    static const config::names<flush_policy> flush_names = {{"eager", flush_policy::eager},
                                                            {"lazy", flush_policy::lazy}};
    k.number("cache_mib", &dummy_fw_config::cache_mib, "64").above(0).cap(65536).unit("MiB");
    k.integer("flush_threshold", &dummy_fw_config::flush_threshold, "16", 1, 1024).note("dirty lines");
    k.choice("flush", &dummy_fw_config::flush, "lazy", flush_names);
    k.boolean("mirror_cache", &dummy_fw_config::mirror_cache, "false");
    k.check([](const dummy_fw_config &c, const config::key_checks &checks) {
        if (checks.given("flush_threshold") && c.flush == flush_policy::eager)
            checks.fail("flush_threshold", "set while " + checks.key("flush") + " is eager",
                        "it only with " + checks.key("flush") + ": lazy");
    });
}

// Registers the dummy firmware's keys for one test (a test registers what it needs; the other
// tests see raidtlm's own keys only).
class dummy_plugin : public ::testing::Test {
protected:
    void SetUp() override {
        config::register_plugin_keys<dummy_fw_config>("controller.dummy_fw", "firmware dummy_fw", declare_dummy_keys);
    }
    void TearDown() override { config::unregister_plugin_keys("controller.dummy_fw"); }

    static std::string write(const std::string &text) {
        const fs::path dir = fs::temp_directory_path() / ("raidtlm_plugin_keys_" + std::to_string(getpid()));
        fs::create_directories(dir);
        const fs::path p = dir / "s.yaml";
        std::ofstream(p) << text;
        return p.string();
    }
    static std::string minimal() {
        return "disks:\n  spec: " + std::string(RAIDTLM_SHARED_DIR) +
               "/reference/disksim/validation/cheetah9LP.diskspecs\n";
    }
    static std::string error_of(const std::string &text, const std::vector<testbench::scenario_override> &o = {}) {
        try {
            load_scenario(write(text), o);
        } catch (const scenario_error &e) {
            return e.what();
        }
        return "";
    }
};

}  // namespace

TEST_F(dummy_plugin, its_keys_are_read_from_the_file_and_set) {
    const auto s = load_scenario(write(minimal() + "controller:\n  dummy_fw:\n    cache_mib: 256\n    flush: eager\n"),
                                 {parse_override("controller.dummy_fw.mirror_cache=true")});
    const auto &c = s.plugins.get<dummy_fw_config>("controller.dummy_fw");
    EXPECT_DOUBLE_EQ(c.cache_mib, 256);
    EXPECT_EQ(c.flush, flush_policy::eager);
    EXPECT_TRUE(c.mirror_cache);
    EXPECT_EQ(c.flush_threshold, 16);  // omitted: the declared default
    EXPECT_EQ(s.where("controller.dummy_fw.mirror_cache"), "--set controller.dummy_fw.mirror_cache=true");
    // Asking for the section with another type is a programming error, not a user error.
    EXPECT_THROW(s.plugins.get<int>("controller.dummy_fw"), std::logic_error);
}

TEST_F(dummy_plugin, its_values_are_checked_with_the_standard_errors) {
    std::string m = error_of(minimal() + "controller:\n  dummy_fw:\n    cache_mib: 0\n");
    EXPECT_NE(m.find("s.yaml:5:16: key 'controller.dummy_fw.cache_mib': 0 is out of range; expected a number > 0 (MiB)"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  dummy_fw:\n    flush: sometimes\n");
    EXPECT_NE(m.find("key 'controller.dummy_fw.flush': 'sometimes' is not a valid choice; expected eager or lazy"),
              std::string::npos)
        << m;
    m = error_of(minimal() + "controller:\n  dummy_fw:\n    colour: red\n");
    EXPECT_NE(m.find("s.yaml:5:5: key 'controller.dummy_fw.colour': unknown key; expected one of: cache_mib, "
                     "flush_threshold, flush, mirror_cache"),
              std::string::npos)
        << m;
    m = error_of(minimal(), {parse_override("controller.dummy_fw.flush_threshold=0")});
    EXPECT_EQ(m, "--set controller.dummy_fw.flush_threshold=0: key 'controller.dummy_fw.flush_threshold': 0 is out of "
                 "range; expected an integer in [1, 1024] (dirty lines)");
    m = error_of(minimal() + "controller:\n  dummy_fw:\n    flush: eager\n    flush_threshold: 4\n");
    EXPECT_NE(m.find("s.yaml:6:22: key 'controller.dummy_fw.flush_threshold': set while controller.dummy_fw.flush is "
                     "eager; expected it only with controller.dummy_fw.flush: lazy"),
              std::string::npos)
        << m;
}

TEST_F(dummy_plugin, its_keys_are_listed_with_their_defaults_and_echoed) {
    const auto &keys = testbench::scenario_keys();
    const auto it = std::find_if(keys.begin(), keys.end(),
                                 [](const auto &k) { return k.key == "controller.dummy_fw.cache_mib"; });
    ASSERT_NE(it, keys.end());
    EXPECT_EQ(it->fallback, "64");
    EXPECT_EQ(it->unit, "MiB");
    EXPECT_EQ(it->expected, "a number > 0 (MiB)");
    const auto j = load_scenario(write(minimal())).to_json();
    EXPECT_EQ(j["controller"]["dummy_fw"]["flush"], "lazy");
    EXPECT_EQ(j["controller"]["dummy_fw"]["cache_mib"], 64);
    EXPECT_EQ(j["controller"]["dummy_fw"]["mirror_cache"], false);
}

// A firmware family's keys (controller.<family>.*) are refused while another family runs.
TEST_F(dummy_plugin, a_firmware_s_keys_need_that_firmware) {
    controller::register_builtin_plugins();
    controller::firmware_registry::instance().add(
        "dummy_fw", {"a test family", {"raid0"}, [](controller::firmware_platform &) { return nullptr; }});
    const std::string text = minimal() + "controller:\n  dummy_fw:\n    cache_mib: 128\n";
    const std::string m = error_of(text);
    EXPECT_NE(m.find("s.yaml:5:16: key 'controller.dummy_fw.cache_mib': set while controller.firmware is raid; "
                     "expected it only with controller.firmware: dummy_fw"),
              std::string::npos)
        << m;
    const auto s = load_scenario(write(text), {parse_override("controller.firmware=dummy_fw")});
    EXPECT_DOUBLE_EQ(s.plugins.get<dummy_fw_config>("controller.dummy_fw").cache_mib, 128);
}

TEST_F(dummy_plugin, a_prefix_is_registered_once) {
    EXPECT_THROW(config::register_plugin_keys<dummy_fw_config>("controller.dummy_fw", "again", declare_dummy_keys),
                 std::logic_error);
}

TEST(plugin_keys, an_unregistered_plugin_section_is_unknown) {
    const fs::path p = fs::temp_directory_path() / ("raidtlm_plugin_keys_none_" + std::to_string(getpid()) + ".yaml");
    std::ofstream(p) << "disks:\n  spec: " << RAIDTLM_SHARED_DIR
                     << "/reference/disksim/validation/cheetah9LP.diskspecs\ncontroller:\n  dummy_fw:\n    cache_mib: 1\n";
    std::string m;
    try {
        load_scenario(p.string());
    } catch (const scenario_error &e) {
        m = e.what();
    }
    EXPECT_NE(m.find(":4:3: key 'controller.dummy_fw': unknown key; expected one of: enabled,"),
              std::string::npos)
        << m;
    EXPECT_TRUE(std::none_of(testbench::scenario_keys().begin(), testbench::scenario_keys().end(),
                             [](const auto &k) { return k.key.rfind("controller.dummy_fw.", 0) == 0; }));
}
