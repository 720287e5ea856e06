#include <cmath>
#include <map>

#include <gtest/gtest.h>

#include "testbench/workloads/distributions.h"

using namespace raidtlm::testbench;

TEST(size_sampler, constant_uniform_and_table) {
    workload_config c;
    random_source rng(3);
    int dir = 0;
    c.request_sectors = 16;
    EXPECT_EQ(size_sampler(c).draw(rng, dir), 16u);
    EXPECT_EQ(dir, -1);

    c.size_distribution = size_dist::uniform;
    c.size_min_sectors = 2;
    c.size_max_sectors = 5;
    const size_sampler u(c);
    std::map<uint32_t, int> seen;
    for (int i = 0; i < 40000; ++i) ++seen[u.draw(rng, dir)];
    ASSERT_EQ(seen.size(), 4u);
    for (auto [k, n] : seen) EXPECT_NEAR(n, 10000, 400) << k;
    EXPECT_DOUBLE_EQ(u.mean_sectors(), 3.5);

    c.size_distribution = size_dist::table;
    c.size_table = airline_size_table();
    const size_sampler t(c);
    int reads = 0;
    double read_kb = 0, write_kb = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const uint32_t s = t.draw(rng, dir);
        ASSERT_NE(dir, -1);
        (dir ? read_kb : write_kb) += s / 2.0;
        reads += dir;
    }
    // Fig 26: 82% reads; mean read (20*1 + 20*2 + 33*4 + 9*24) / 82 KB, mean write (9 + 7*8 + 2*24) / 18 KB.
    EXPECT_NEAR(reads / double(n), 0.82, 0.005);
    EXPECT_NEAR(read_kb / reads, 408.0 / 82, 0.05);
    EXPECT_NEAR(write_kb / (n - reads), 113.0 / 18, 0.1);
    EXPECT_NEAR(t.mean_sectors(), 2 * (408.0 + 113.0) / 100, 1e-9);
}

TEST(size_sampler, zipf_has_the_requested_mean_and_falls_with_size) {
    workload_config c;
    c.size_distribution = size_dist::zipf;
    c.size_mean_sectors = 8;  // 4 KB
    c.size_max_sectors = 256;
    const size_sampler z(c);
    EXPECT_NEAR(z.mean_sectors(), 8.0, 1e-6);
    EXPECT_GT(z.zipf_exponent(), 1.0);
    EXPECT_LT(z.zipf_exponent(), 2.0);
    random_source rng(5);
    int dir;
    double sum = 0;
    std::map<uint32_t, int> seen;
    const int n = 400000;
    for (int i = 0; i < n; ++i) {
        const uint32_t s = z.draw(rng, dir);
        ASSERT_GE(s, 1u);
        ASSERT_LE(s, 256u);
        sum += s;
        ++seen[s];
    }
    EXPECT_NEAR(sum / n, 8.0, 0.15);
    EXPECT_GT(seen[1], seen[2]);
    EXPECT_GT(seen[2], seen[4]);
    // P(1) / P(2) = 2^s.
    EXPECT_NEAR(double(seen[1]) / seen[2], std::pow(2.0, z.zipf_exponent()), 0.05);
    EXPECT_THROW(size_sampler::zipf_exponent_for_mean(200, 256), std::invalid_argument);
}

TEST(think_time_source, distributions_have_their_mean_and_spread) {
    workload_config c;
    c.think_time_ms = 10;
    for (auto kind : {think_dist::constant, think_dist::exponential, think_dist::gaussian}) {
        c.think_time_distribution = kind;
        think_time_source t(c, 9);
        double sum = 0, sq = 0;
        const int n = 100000;
        for (int i = 0; i < n; ++i) {
            const double z = t.next_ms();
            ASSERT_GE(z, 0);
            sum += z;
            sq += z * z;
        }
        const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
        EXPECT_NEAR(mean, 10, 0.1) << to_string(kind);
        EXPECT_NEAR(t.drawn_mean_ms(), mean, 1e-9);
        const double want_sd = kind == think_dist::constant ? 0 : kind == think_dist::exponential ? 10 : 2.5;
        EXPECT_NEAR(sd, want_sd, 0.1) << to_string(kind);
    }
}

TEST(think_time_source, tuner_applies_littles_law_and_stops_at_zero) {
    workload_config c;
    c.outstanding = 10;
    c.target_iops = 500;  // N / X = 20 ms per cycle
    think_time_source t(c, 1);
    EXPECT_TRUE(t.tuned());
    EXPECT_DOUBLE_EQ(t.mean_ms(), 20);
    for (int i = 0; i < 5000; ++i) t.on_response(8);
    EXPECT_NEAR(t.mean_ms(), 12, 1e-9);
    for (int i = 0; i < 50000; ++i) t.on_response(30);  // slower than the target allows
    EXPECT_EQ(t.mean_ms(), 0);
    t.reset_counts();
    t.next_ms();
    EXPECT_EQ(t.zero_mean_fraction(), 1.0);
}

TEST(arrival_schedule, constant_rate_matches_the_plain_poisson_stream) {
    workload_config c;
    c.mean_interarrival_ms = 5;
    arrival_schedule a(c, 42);
    random_source same(42);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next_delay_ms(0), same.exponential(5));
}

TEST(arrival_schedule, steps_give_their_rates_and_a_zero_rate_ends_arrivals) {
    workload_config c;
    c.rate_schedule = {{0, 100}, {10, 400}, {20, 0}};
    arrival_schedule a(c, 1);
    double t = 0;
    int n1 = 0, n2 = 0;
    for (;;) {
        const double d = a.next_delay_ms(t);
        if (std::isinf(d)) break;
        t += d;
        ASSERT_LT(t, 20000);
        (t < 10000 ? n1 : n2)++;
    }
    EXPECT_NEAR(n1, 1000, 4 * std::sqrt(1000.0));
    EXPECT_NEAR(n2, 4000, 4 * std::sqrt(4000.0));
    EXPECT_DOUBLE_EQ(a.rate_at(15000), 400);
    EXPECT_DOUBLE_EQ(a.rate_at(25000), 0);
}

TEST(size_sampler, exponential_rounds_up_to_whole_units_as_disksim_synthgen) {
    workload_config c;
    c.size_distribution = size_dist::exponential;
    c.size_mean_sectors = 8;
    c.alignment_sectors = 8;
    c.size_max_sectors = 4096;
    size_sampler s(c);
    // ceil(Exp(1)) units of 8 sectors: geometric with p = 1 - e^-1, mean 8 / (1 - e^-1) = 12.66.
    EXPECT_NEAR(s.mean_sectors(), 8.0 / (1.0 - std::exp(-1.0)), 1e-6);
    random_source rng(7);
    double sum = 0;
    int ones = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        int direction = 0;
        const uint32_t x = s.draw(rng, direction);
        ASSERT_EQ(x % 8, 0u);
        ASSERT_GE(x, 8u);
        sum += x;
        ones += x == 8;
    }
    EXPECT_NEAR(sum / n, s.mean_sectors(), 0.1);
    EXPECT_NEAR(double(ones) / n, 1.0 - std::exp(-1.0), 0.005);
}
