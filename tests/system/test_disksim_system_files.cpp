// `raidtlm run FILE.parv` on DiskSim 4.0's synthetic system configurations
// (../shared/reference/disksim/synthetic, README there): the two with DiskSim's figures run
// within 5% of them; the others run or are refused with file:line and the feature's name.
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "system_harness.h"

using namespace system_test;

namespace {

const std::string dir = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/synthetic/";

fs::path scratch(const std::string &name) {
    const fs::path d = fs::temp_directory_path() / ("raidtlm_parv_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// DiskSim's "Overall I/O System Response time average" as the summary prints it.
double overall_ms(const std::string &out) {
    std::smatch m;
    const std::regex re("Overall I/O System Response time average +([0-9.]+) ms");
    return std::regex_search(out, m, re) ? std::stod(m[1]) : -1;
}

}  // namespace

TEST(disksim_system_files, synthetic_open_and_closed_systems_match_disksim_within_5_percent) {
    const fs::path d = scratch("match");
    for (const auto &[file, disksim_ms] : {std::pair<std::string, double>{"synthopen.parv", 10.937},
                                           std::pair<std::string, double>{"synthclosed.parv", 87.819}}) {
        const result r = raidtlm("run '" + dir + file + "' --quiet --out '" + (d / file).string() + "'", d);
        ASSERT_EQ(r.code, 0) << r.err;
        const double ms = overall_ms(r.out);
        EXPECT_NEAR(ms, disksim_ms, 0.05 * disksim_ms) << file << "\n" << r.out;
        EXPECT_TRUE(fs::exists(d / file / "scenario_from_parv.yaml"));
        EXPECT_NE(r.out.find("IOdriver Response time average"), std::string::npos);
    }
}

TEST(disksim_system_files, unmodelled_features_are_refused_naming_file_line_and_feature) {
    const fs::path d = scratch("refused");
    for (const auto &[file, feature] : {std::pair<std::string, std::string>{"synthraid5.parv", "time-limited requests"},
                                        std::pair<std::string, std::string>{"synthmixed.parv", "time-limited requests"},
                                        std::pair<std::string, std::string>{"syntharrays.parv", "'Array' logorg"}}) {
        const result r = raidtlm("run '" + dir + file + "' --quiet --out '" + (d / file).string() + "'", d);
        EXPECT_EQ(r.code, 2) << file << ": " << r.err;
        EXPECT_TRUE(std::regex_search(r.err, std::regex(file + ":[0-9]+: not supported by `raidtlm run`"))) << r.err;
        EXPECT_NE(r.err.find(feature), std::string::npos) << r.err;
    }
}
