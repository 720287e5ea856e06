#include <gtest/gtest.h>

#include <vector>

#include "rtl_models/memory/dram_arbiter.h"

using namespace raidtlm::rtl_models;

TEST(dram_arbiter, round_robin_shares_equally) {
    std::vector<double> r;
    share_bandwidth(1200, dram_arbitration::round_robin, {{0, 0}, {5, 0}, {1, 0}}, r);
    EXPECT_EQ(r, (std::vector<double>{400, 400, 400}));
}

TEST(dram_arbiter, round_robin_gives_what_a_slow_source_cannot_use_to_the_others) {
    std::vector<double> r;
    // One transfer can only take 100 (its source is slower); the other two split the rest.
    share_bandwidth(1000, dram_arbitration::round_robin, {{0, 100}, {0, 0}, {0, 0}}, r);
    EXPECT_DOUBLE_EQ(r[0], 100);
    EXPECT_DOUBLE_EQ(r[1], 450);
    EXPECT_DOUBLE_EQ(r[2], 450);
    // Everyone capped below the fair share: each gets its cap, bandwidth stays unused.
    share_bandwidth(1000, dram_arbitration::round_robin, {{0, 100}, {0, 200}}, r);
    EXPECT_EQ(r, (std::vector<double>{100, 200}));
}

TEST(dram_arbiter, fixed_priority_serves_higher_ports_first) {
    std::vector<double> r;
    share_bandwidth(1000, dram_arbitration::fixed_priority, {{0, 0}, {2, 0}, {1, 0}}, r);
    EXPECT_EQ(r, (std::vector<double>{0, 1000, 0}));
    // The high port is capped: the next level gets what is left, shared within its level.
    share_bandwidth(1000, dram_arbitration::fixed_priority, {{2, 400}, {1, 0}, {1, 0}, {0, 0}}, r);
    EXPECT_EQ(r, (std::vector<double>{400, 300, 300, 0}));
}

TEST(dram_arbiter, bandwidth_and_bursts) {
    dram_config c;
    EXPECT_DOUBLE_EQ(c.bandwidth_bytes_per_s(), 1600e6);  // 64-bit DDR at 200 MT/s
    EXPECT_EQ(c.charged_bytes(1), 32u);
    EXPECT_EQ(c.charged_bytes(32), 32u);
    EXPECT_EQ(c.charged_bytes(33), 64u);
    c.burst_bytes = 0;
    EXPECT_EQ(c.charged_bytes(33), 33u);
    c.mtransfers_per_s = 0;
    EXPECT_TRUE(c.unlimited_bandwidth());
}
