#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "testbench/workloads/random.h"
#include "testbench/measurement/response_statistics.h"

using raidtlm::testbench::random_source;
using raidtlm::testbench::response_statistics;

namespace {
double exact_percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const size_t rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(p * v.size())));
    return v[rank - 1];
}
}  // namespace

TEST(response_statistics, empty_is_all_zero) {
    response_statistics s;
    EXPECT_EQ(s.count(), 0u);
    EXPECT_EQ(s.mean_ms(), 0.0);
    EXPECT_EQ(s.stddev_ms(), 0.0);
    EXPECT_EQ(s.percentile_ms(0.5), 0.0);
    EXPECT_EQ(s.max_ms(), 0.0);
}

TEST(response_statistics, mean_stddev_min_max_match_direct_computation) {
    response_statistics s(0.5, 200);
    const std::vector<double> v = {1.0, 2.0, 4.0, 8.0, 16.5};
    for (double x : v) s.add(x);
    double mean = 0;
    for (double x : v) mean += x;
    mean /= v.size();
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    EXPECT_EQ(s.count(), 5u);
    EXPECT_NEAR(s.mean_ms(), mean, 1e-12);
    EXPECT_NEAR(s.stddev_ms(), std::sqrt(ss / (v.size() - 1)), 1e-12);
    EXPECT_EQ(s.min_ms(), 1.0);
    EXPECT_EQ(s.max_ms(), 16.5);
}

TEST(response_statistics, percentiles_within_stated_precision) {
    random_source rng(42);
    response_statistics s(0.5, 200);
    std::vector<double> v;
    for (int i = 0; i < 100000; ++i) {
        const double x = rng.exponential(10.0) + 0.2;
        v.push_back(x);
        s.add(x);
    }
    for (double p : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
        const double exact = exact_percentile(v, p);
        EXPECT_NEAR(s.percentile_ms(p), exact, exact * response_statistics::percentile_relative_error) << "p=" << p;
    }
    EXPECT_EQ(s.percentile_ms(1.0), s.max_ms());
}

TEST(response_statistics, percentile_of_a_constant_is_the_constant) {
    response_statistics s;
    for (int i = 0; i < 10; ++i) s.add(7.25);
    EXPECT_DOUBLE_EQ(s.percentile_ms(0.5), 7.25);  // clamped into [min, max]
    EXPECT_DOUBLE_EQ(s.percentile_ms(0.99), 7.25);
}

TEST(response_statistics, fixed_buckets_and_overflow) {
    response_statistics s(0.5, 2.0);  // buckets [0,0.5) [0.5,1) [1,1.5) [1.5,2), then overflow
    for (double x : {0.0, 0.49, 0.5, 1.2, 1.99, 2.0, 50.0}) s.add(x);
    ASSERT_EQ(s.buckets().size(), 4u);
    EXPECT_EQ(s.buckets()[0], 2u);
    EXPECT_EQ(s.buckets()[1], 1u);
    EXPECT_EQ(s.buckets()[2], 1u);
    EXPECT_EQ(s.buckets()[3], 1u);
    EXPECT_EQ(s.overflow(), 2u);
    const auto j = s.to_json();
    EXPECT_EQ(j["histogram"]["overflow"], 2);
    EXPECT_EQ(j["histogram"]["counts"].size(), 4u);
    EXPECT_EQ(j["count"], 7);
    for (const char *k : {"mean_ms", "stddev_ms", "min_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms"})
        EXPECT_TRUE(j.contains(k)) << k;
}

TEST(response_statistics, merge_equals_adding_everything_to_one) {
    response_statistics a, b, all;
    random_source rng(7);
    for (int i = 0; i < 1000; ++i) {
        const double x = rng.uniform() * 30;
        (i % 3 ? a : b).add(x);
        all.add(x);
    }
    a.merge(b);
    EXPECT_EQ(a.count(), all.count());
    EXPECT_NEAR(a.mean_ms(), all.mean_ms(), 1e-9);
    EXPECT_NEAR(a.stddev_ms(), all.stddev_ms(), 1e-9);
    EXPECT_EQ(a.percentile_ms(0.9), all.percentile_ms(0.9));
    EXPECT_EQ(a.buckets(), all.buckets());
}
