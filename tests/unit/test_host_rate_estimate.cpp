#include <gtest/gtest.h>

#include <random>

#include "testbench/host_rate_estimate.h"

using namespace raidtlm::testbench;

TEST(host_rate_estimate, recovers_the_slope_of_the_hit_mode) {
    // 30% hits at 0.9 + 0.17 n ms, the rest misses spread over 5..30 ms.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> miss(5, 30), jitter(0, 0.02);
    std::vector<measured_request> t;
    for (int i = 0; i < 20000; ++i) {
        const int n = 1 + i % 16;
        const bool hit = (i / 16) % 10 < 3;
        t.push_back({true, n, hit ? 0.9 + 0.17 * n + jitter(rng) : miss(rng)});
        t.push_back({false, n, miss(rng)});  // writes are ignored
    }
    auto fit = estimate_host_sector_time(t);
    ASSERT_TRUE(fit.has_value());
    EXPECT_NEAR(fit->sector_ms, 0.17, 0.005);
    EXPECT_NEAR(fit->intercept_ms, 0.9, 0.05);
    EXPECT_EQ(fit->sizes, 16);
}

TEST(host_rate_estimate, refuses_a_trace_without_a_hit_mode) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> miss(2, 30);
    std::vector<measured_request> t;
    for (int i = 0; i < 5000; ++i) t.push_back({true, 1 + i % 8, miss(rng)});
    EXPECT_FALSE(estimate_host_sector_time(t).has_value());
}

TEST(host_rate_estimate, needs_three_sizes) {
    std::vector<measured_request> t;
    for (int i = 0; i < 100; ++i) t.push_back({true, 4 + 4 * (i % 2), 1.0 + (i % 2)});
    EXPECT_FALSE(estimate_host_sector_time(t).has_value());
}
