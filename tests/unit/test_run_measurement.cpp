#include <gtest/gtest.h>

#include "testbench/run_measurement.h"

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
