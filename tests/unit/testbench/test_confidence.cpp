#include <cmath>

#include <gtest/gtest.h>

#include "testbench/measurement/confidence.h"
#include "testbench/workloads/random.h"

using namespace raidtlm::testbench;

TEST(confidence, quantiles_match_tables) {
    EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
    EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-14);
    EXPECT_NEAR(normal_quantile(0.001), -3.090232306167814, 1e-11);
    // Student t, two-sided 95% (printed tables, 4 decimals).
    EXPECT_NEAR(t_factor(0.95, 1), 12.7062, 1e-4);
    EXPECT_NEAR(t_factor(0.95, 2), 4.3027, 1e-4);
    EXPECT_NEAR(t_factor(0.95, 4), 2.7764, 1e-4);
    EXPECT_NEAR(t_factor(0.95, 10), 2.2281, 1e-4);
    EXPECT_NEAR(t_factor(0.95, 31), 2.0395, 1e-4);
    EXPECT_NEAR(t_factor(0.95, 63), 1.9983, 1e-4);
    EXPECT_NEAR(t_factor(0.99, 5), 4.0321, 1e-4);
    EXPECT_NEAR(t_factor(0.90, 20), 1.7247, 1e-4);
    EXPECT_NEAR(student_t_cdf(0, 7), 0.5, 1e-15);
    EXPECT_NEAR(student_t_cdf(-2.2281, 10), 0.025, 1e-5);
}

TEST(confidence, batch_means_keeps_between_half_and_all_batches_and_doubles) {
    batch_means b(8);
    for (int i = 0; i < 7; ++i) b.add(i);
    EXPECT_EQ(b.batches(), 7);
    EXPECT_EQ(b.batch_size(), 1u);
    b.add(7);  // 8 full batches: merged into 4 of 2
    EXPECT_EQ(b.batches(), 4);
    EXPECT_EQ(b.batch_size(), 2u);
    for (int i = 8; i < 1000; ++i) b.add(i);
    EXPECT_GE(b.batches(), 4);
    EXPECT_LE(b.batches(), 8);
    EXPECT_EQ(b.count(), 1000u);
    EXPECT_DOUBLE_EQ(b.mean(), 999 / 2.0);
    // A trend shows as correlated batch means.
    EXPECT_GT(b.lag1_autocorrelation(), 0.4);
}

TEST(confidence, batch_means_interval_covers_the_mean_of_an_autocorrelated_series) {
    // AR(1) with phi = 0.9 around 10: the naive interval is ~4.4x too narrow; batch means is not.
    int covered = 0;
    const int trials = 200;
    for (int t = 0; t < trials; ++t) {
        random_source rng(100 + t);
        batch_means b;
        double x = 0;
        for (int i = 0; i < 20000; ++i) {
            x = 0.9 * x + rng.normal();
            b.add(10 + x);
        }
        covered += std::fabs(b.mean() - 10) <= b.half_width(0.95);
    }
    // 95% nominal; the binomial spread over 200 trials is about +-3%.
    EXPECT_GE(covered, trials * 0.89);
    EXPECT_LE(covered, trials * 0.99);
}

TEST(confidence, relative_width_shrinks_like_one_over_root_n) {
    random_source rng(7);
    batch_means b;
    double w1 = 0;
    for (int i = 1; i <= 400000; ++i) {
        b.add(rng.exponential(5.0));
        if (i == 100000) w1 = b.relative_half_width(0.95);
    }
    const double w4 = b.relative_half_width(0.95);
    EXPECT_NEAR(w1, 1.96 / std::sqrt(100000.0), 0.25 * 1.96 / std::sqrt(100000.0));
    EXPECT_NEAR(w4 / w1, 0.5, 0.15);
}

TEST(confidence, summary_of_values) {
    const spread_summary s = summarize({10, 11, 12, 13});
    EXPECT_EQ(s.n, 4);
    EXPECT_DOUBLE_EQ(s.mean, 11.5);
    EXPECT_NEAR(s.stddev, std::sqrt(5.0 / 3), 1e-12);
    EXPECT_DOUBLE_EQ(s.min, 10);
    EXPECT_DOUBLE_EQ(s.max, 13);
    EXPECT_NEAR(s.spread, 3 / 11.5, 1e-12);
    EXPECT_NEAR(s.ci95_half_width, 3.1824 * std::sqrt(5.0 / 3) / 2, 1e-3);
    EXPECT_EQ(summarize({}).n, 0);
    EXPECT_EQ(summarize({4}).ci95_half_width, 0);
}
