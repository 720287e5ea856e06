#include <gtest/gtest.h>

#include "testbench/workloads/random.h"
#include "testbench/bench/run_measurement.h"

using raidtlm::testbench::run_measurement;

TEST(run_measurement, warmup_window_and_stop) {
    run_measurement m(2, 3, 0.5, 100);
    double warm_at = -1;
    m.on_warmup_end([&](double t) { warm_at = t; });
    EXPECT_FALSE(m.measuring());
    // Issued during warm-up: never measured, even when completing after it.
    EXPECT_FALSE(m.complete(false, true, 8, 0, 5, true));
    EXPECT_FALSE(m.measuring());
    EXPECT_FALSE(m.complete(false, true, 8, 1, 6, true));
    EXPECT_TRUE(m.measuring());
    EXPECT_DOUBLE_EQ(warm_at, 6.0);
    EXPECT_DOUBLE_EQ(m.window_start_ms(), 6.0);
    EXPECT_FALSE(m.complete(false, false, 8, 2, 7, true));  // a late warm-up request
    EXPECT_EQ(m.measured(), 0u);
    EXPECT_FALSE(m.complete(true, true, 8, 6, 9, true));
    EXPECT_FALSE(m.complete(true, false, 8, 6, 10, true));
    EXPECT_TRUE(m.complete(true, true, 8, 7, 16, true));
    EXPECT_TRUE(m.done());
    EXPECT_EQ(m.measured(), 3u);
    EXPECT_EQ(m.completed_total(), 6u);
    EXPECT_EQ(m.reads().count(), 2u);
    EXPECT_EQ(m.writes().count(), 1u);
    EXPECT_DOUBLE_EQ(m.all().mean_ms(), (3.0 + 4.0 + 9.0) / 3);
    EXPECT_DOUBLE_EQ(m.window_ms(), 10.0);
    EXPECT_DOUBLE_EQ(m.iops(), 300.0);                        // 3 requests in 10 ms
    EXPECT_DOUBLE_EQ(m.mb_per_s(), 24 * 512.0 / 1e6 / 0.01);  // 24 sectors in 10 ms
    // After the end nothing more is counted.
    EXPECT_TRUE(m.complete(true, true, 8, 7, 20, true));
    EXPECT_EQ(m.measured(), 3u);
}

TEST(run_measurement, no_warmup_measures_from_time_zero) {
    run_measurement m(0, 1, 0.5, 100);
    EXPECT_TRUE(m.measuring());
    EXPECT_TRUE(m.complete(true, true, 8, 0, 4, true));
    EXPECT_DOUBLE_EQ(m.window_start_ms(), 0.0);
    EXPECT_DOUBLE_EQ(m.window_end_ms(), 4.0);
}

TEST(run_measurement, errors_are_counted_not_timed) {
    run_measurement m(0, 2, 0.5, 100);
    m.complete(true, true, 8, 0, 4, false);
    EXPECT_EQ(m.errors(), 1u);
    EXPECT_EQ(m.all().count(), 0u);
    EXPECT_EQ(m.measured(), 1u);
    EXPECT_TRUE(m.complete(true, true, 8, 0, 5, true));
}

TEST(run_measurement, stopping_rule_stops_when_the_interval_is_narrow_enough) {
    raidtlm::testbench::stopping_rule rule;
    rule.ci_target = 0.02;
    rule.min_requests = 1000;
    run_measurement m(0, 1000000, 0.5, 100, rule);
    raidtlm::testbench::random_source rng(3);
    double t = 0;
    uint64_t n = 0;
    while (!m.complete(true, true, 8, t, t + rng.exponential(10.0), true)) {
        t += 1;
        ++n;
    }
    EXPECT_EQ(m.stopped_by(), raidtlm::testbench::stop_reason::ci);
    EXPECT_LE(m.ci_relative(), 0.02);
    EXPECT_GE(m.measured(), 1000u);
    // Exponential samples: about (1.96 / 0.02)^2 = 9604 are needed.
    EXPECT_NEAR(static_cast<double>(m.measured()), 9604, 3000);
    EXPECT_DOUBLE_EQ(m.window_end_ms(), t + (m.window_end_ms() - t));
}

TEST(run_measurement, the_cap_wins_when_the_interval_stays_wide_and_the_source_can_end_the_run) {
    raidtlm::testbench::stopping_rule rule;
    rule.ci_target = 0.001;
    run_measurement m(0, 500, 0.5, 100, rule);
    raidtlm::testbench::random_source rng(4);
    for (int i = 0; i < 499; ++i) EXPECT_FALSE(m.complete(true, true, 8, i, i + rng.exponential(10.0), true));
    EXPECT_TRUE(m.complete(true, true, 8, 499, 510, true));
    EXPECT_EQ(m.stopped_by(), raidtlm::testbench::stop_reason::requests);

    run_measurement open_ended(2, 0, 0.5, 100);  // requests 0: until the source ends
    for (int i = 0; i < 10; ++i) EXPECT_FALSE(open_ended.complete(i >= 2, true, 8, i, i + 1, true));
    open_ended.finish(50);
    EXPECT_TRUE(open_ended.done());
    EXPECT_EQ(open_ended.stopped_by(), raidtlm::testbench::stop_reason::source_end);
    EXPECT_DOUBLE_EQ(open_ended.window_end_ms(), 50);
    EXPECT_EQ(open_ended.measured(), 8u);
}
