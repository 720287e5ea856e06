// `raidtlm run --help` lists every declared key with its default, unit and accepted form, from the
// same declarations that read the scenario.
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "system_harness.h"

using namespace system_test;

namespace {

// The help line of `key`, or "".
std::string help_line(const std::string &help, const std::string &key) {
    std::istringstream in(help);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("  " + key + " ", 0) == 0) return line;
    return "";
}

}  // namespace

TEST(key_help, lists_default_unit_and_accepted_form_of_each_key) {
    const scratch_dir dir;
    const result r = raidtlm("run --help", dir);
    ASSERT_EQ(r.code, 0);
    // key, default, unit, accepted form (the unit repeated only where the declaration shows it).
    const std::string mhz = help_line(r.out, "controller.cpu.mhz");
    EXPECT_NE(mhz.find("600"), std::string::npos) << mhz;
    EXPECT_NE(mhz.find(" MHz "), std::string::npos) << mhz;
    EXPECT_NE(mhz.find("a number > 0 (MHz)"), std::string::npos) << mhz;
    const std::string think = help_line(r.out, "workload.think_time_ms");
    EXPECT_NE(think.find(" ms "), std::string::npos) << think;
    EXPECT_NE(think.find("a number >= 0"), std::string::npos) << think;
    const std::string spec = help_line(r.out, "disks.spec");
    EXPECT_NE(spec.find("required"), std::string::npos) << spec;
    const std::string layout = help_line(r.out, "controller.layout");
    EXPECT_NE(layout.find("a registered layout: adaptraid5, floating, parity_logging, raid0, raid1, raid10, raid4, raid5, raid6, sr_array"),
              std::string::npos)
        << layout;
}
