// The drive against real measured response times: `raidtlm validate` on DiskSim's validation
// traces. The bounds are the acceptance criterion of the disk issue: within 1.5x of the demerit
// DiskSim 4.0 itself reaches on the same trace (Cheetah 9LP 0.107 ms, Atlas 10K 0.268 ms).
#include <regex>
#include <string>

#include "system_harness.h"

using namespace system_test;

namespace {

double demerit_of(const std::string &drive) {
    const scratch_dir dir;
    const std::string v = "../shared/reference/disksim/validation/";
    const result r = raidtlm("validate --disk " + v + drive + ".diskspecs --trace " + v + drive + ".trace", dir);
    EXPECT_EQ(r.code, 0) << r.err;
    std::smatch m;
    const std::regex last("demerit_ms: ([0-9.]+)\n$");
    if (!std::regex_search(r.out, m, last)) {
        ADD_FAILURE() << "no demerit line in:\n" << r.out;
        return 1e9;
    }
    return std::stod(m[1]);
}

}  // namespace

TEST(validation_accuracy, cheetah9lp_within_1_5x_of_disksim) { EXPECT_LE(demerit_of("cheetah9LP"), 1.5 * 0.107); }

TEST(validation_accuracy, atlas10k_within_1_5x_of_disksim) { EXPECT_LE(demerit_of("atlas10k"), 1.5 * 0.268); }

// The HP C2247A falls short of 1.5x DiskSim's 0.090 ms (see EXPERIMENTS.md for why); this guards
// the level reached so far against regressions and is not the acceptance bound.
TEST(validation_accuracy, hp_c2247a_regression_guard) { EXPECT_LE(demerit_of("hp_c2247a"), 0.18); }
