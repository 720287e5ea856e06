#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "testbench/workloads/workload_generator.h"

using namespace raidtlm::testbench;

namespace {
workload_config base() {
    workload_config c;
    c.request_sectors = 8;
    c.alignment_sectors = 8;
    c.read_fraction = 0.67;
    c.seed = 1;
    return c;
}
}  // namespace

TEST(workload_generator, same_seed_same_sequence_other_seed_other_sequence) {
    workload_config c = base();
    workload_generator a(c, 1000000), b(c, 1000000);
    c.seed = 2;
    workload_generator d(c, 1000000);
    int differ = 0;
    for (int i = 0; i < 1000; ++i) {
        const host_request x = a.next(), y = b.next(), z = d.next();
        EXPECT_EQ(x.lbn, y.lbn);
        EXPECT_EQ(x.read, y.read);
        EXPECT_EQ(a.next_interarrival_ms(), b.next_interarrival_ms());
        differ += x.lbn != z.lbn;
    }
    EXPECT_GT(differ, 990);
}

TEST(workload_generator, uniform_addresses_are_aligned_in_range_and_flat) {
    workload_config c = base();
    const uint64_t capacity = 800000;
    workload_generator g(c, capacity);
    const int n = 200000;
    int bins[10] = {};
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        const host_request r = g.next();
        ASSERT_EQ(r.lbn % 8, 0u);
        ASSERT_LE(r.lbn + r.sectors, capacity);
        ASSERT_EQ(r.sectors, 8u);
        ++bins[r.lbn * 10 / capacity];
        sum += static_cast<double>(r.lbn);
    }
    for (int b : bins) EXPECT_NEAR(b, n / 10, 5 * std::sqrt(n / 10.0));
    EXPECT_NEAR(sum / n, (capacity - 8) / 2.0, capacity * 0.005);
}

TEST(workload_generator, read_fraction_is_respected) {
    for (double f : {0.0, 0.25, 0.67, 1.0}) {
        workload_config c = base();
        c.read_fraction = f;
        workload_generator g(c, 100000);
        const int n = 100000;
        int reads = 0;
        for (int i = 0; i < n; ++i) reads += g.next().read;
        EXPECT_NEAR(static_cast<double>(reads) / n, f, 0.006) << f;
    }
}

TEST(workload_generator, sequential_follows_on_and_wraps) {
    workload_config c = base();
    c.address = address_pattern::sequential;
    c.request_sectors = 16;
    c.alignment_sectors = 8;
    const uint64_t capacity = 1024;
    workload_generator g(c, capacity);
    host_request prev = g.next();
    int wraps = 0;
    for (int i = 0; i < 500; ++i) {
        const host_request r = g.next();
        ASSERT_LE(r.lbn + r.sectors, capacity);
        if (r.lbn == 0 && prev.lbn + prev.sectors + 16 > capacity)
            ++wraps;
        else
            EXPECT_EQ(r.lbn, prev.lbn + prev.sectors);
        prev = r;
    }
    EXPECT_GT(wraps, 0);
}

TEST(workload_generator, local_offsets_have_the_configured_spread) {
    workload_config c = base();
    c.address = address_pattern::local;
    c.alignment_sectors = 1;
    c.local_stddev_sectors = 1000;
    const uint64_t capacity = 100000000;
    workload_generator g(c, capacity);
    host_request prev = g.next();
    double sum = 0, sum2 = 0;
    const int n = 50000;
    int counted = 0;
    for (int i = 0; i < n; ++i) {
        const host_request r = g.next();
        const double d = static_cast<double>(r.lbn) - static_cast<double>(prev.lbn);
        if (std::fabs(d) < capacity / 2.0) {  // skip the rare wrap-around
            sum += d;
            sum2 += d * d;
            ++counted;
        }
        prev = r;
    }
    const double mean = sum / counted;
    EXPECT_NEAR(mean, 0.0, 30.0);
    EXPECT_NEAR(std::sqrt(sum2 / counted - mean * mean), 1000.0, 25.0);
}

TEST(workload_generator, interarrivals_are_exponential_with_the_mean) {
    workload_config c = base();
    c.mean_interarrival_ms = 4.0;
    workload_generator g(c, 100000);
    const int n = 200000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
        const double x = g.next_interarrival_ms();
        ASSERT_GE(x, 0.0);
        sum += x;
        sum2 += x * x;
    }
    const double mean = sum / n;
    EXPECT_NEAR(mean, 4.0, 0.05);
    EXPECT_NEAR(std::sqrt(sum2 / n - mean * mean), 4.0, 0.08);  // exponential: stddev == mean
}

TEST(workload_generator, changing_read_fraction_does_not_move_addresses) {
    workload_config c = base();
    workload_generator a(c, 1000000);
    c.read_fraction = 0.1;
    workload_generator b(c, 1000000);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next().lbn, b.next().lbn);
}

TEST(workload_generator, request_larger_than_capacity_is_refused) {
    workload_config c = base();
    c.request_sectors = 100;
    EXPECT_THROW(workload_generator(c, 99), scenario_error);
    workload_generator exact(c, 100);
    EXPECT_EQ(exact.next().lbn, 0u);
}

TEST(workload_generator, natural_alignment_puts_each_request_on_its_own_size) {
    workload_config c = base();
    c.size_distribution = size_dist::table;
    c.size_table = airline_size_table();
    c.alignment_sectors = 0;
    workload_generator g(c, 1000000);
    for (int i = 0; i < 10000; ++i) {
        const host_request r = g.next();
        ASSERT_EQ(r.lbn % r.sectors, 0u) << r.sectors;
        ASSERT_LE(r.lbn + r.sectors, 1000000u);
    }
}

TEST(workload_generator, streams_are_evenly_spaced_sequential_and_wrap_in_their_region) {
    workload_config c = base();
    c.address = address_pattern::streams;
    c.outstanding = 4;
    c.request_sectors = 64;
    c.alignment_sectors = 8;
    const uint64_t capacity = 4000;  // regions of 1000 sectors
    workload_generator g(c, capacity);
    ASSERT_EQ(g.streams(), 4);
    for (int s = 0; s < 4; ++s) EXPECT_EQ(g.next(s).lbn, 1000u * s);
    for (int s = 0; s < 4; ++s) EXPECT_EQ(g.next(s).lbn, 1000u * s + 64);
    // Stream 1 runs to the end of its region and starts over.
    uint64_t prev = 1064;
    int wraps = 0;
    for (int i = 0; i < 40; ++i) {
        const host_request r = g.next(1);
        ASSERT_GE(r.lbn, 1000u);
        ASSERT_LE(r.lbn + r.sectors, 2000u);
        if (r.lbn == 1000)
            ++wraps;
        else
            EXPECT_EQ(r.lbn, prev + 64);
        prev = r.lbn;
    }
    EXPECT_GE(wraps, 2);
    // next() without a stream serves them in turn.
    workload_generator h(c, capacity);
    for (int s = 0; s < 8; ++s) EXPECT_EQ(h.next().lbn / 1000, uint64_t(s % 4));
}

TEST(workload_generator, tracks_keep_within_k_tracks) {
    workload_config c = base();
    c.address = address_pattern::tracks;
    c.locality_tracks = 2;
    c.alignment_sectors = 1;
    const double track = 300;
    workload_generator g(c, 10000000, track);
    host_request prev = g.next();
    double max_d = 0;
    for (int i = 0; i < 20000; ++i) {
        const host_request r = g.next();
        const double d = std::fabs(double(r.lbn) - double(prev.lbn));
        if (d < 5000000) max_d = std::max(max_d, d);
        prev = r;
    }
    EXPECT_LE(max_d, 2 * track + 1);
    EXPECT_GT(max_d, 1.9 * track);
    c.locality_tracks = 1;
    EXPECT_THROW(workload_generator(c, 1000000, 0), scenario_error);
}

TEST(workload_generator, hot_cold_sends_the_hot_fraction_to_the_hot_region) {
    workload_config c = base();
    c.address = address_pattern::hot_cold;
    c.hot_space_fraction = 0.1;
    c.hot_access_fraction = 0.9;
    const uint64_t capacity = 1000000;
    workload_generator g(c, capacity);
    const int n = 100000;
    int hot = 0;
    for (int i = 0; i < n; ++i) hot += g.next().lbn < capacity / 10;
    EXPECT_NEAR(hot / double(n), 0.9, 0.005);
}

TEST(workload_generator, random_fraction_mixes_sequential_runs_in) {
    workload_config c = base();
    c.random_fraction = 0.25;
    workload_generator g(c, 100000000);
    host_request prev = g.next();
    int seq = 0;
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
        const host_request r = g.next();
        seq += r.lbn == prev.lbn + prev.sectors;
        prev = r;
    }
    EXPECT_NEAR(seq / double(n), 0.75, 0.01);
}

TEST(workload_generator, variable_sizes_never_pass_the_end) {
    workload_config c = base();
    c.size_distribution = size_dist::zipf;
    c.size_max_sectors = 256;
    c.size_mean_sectors = 8;
    c.address = address_pattern::sequential;
    workload_generator g(c, 5000);
    for (int i = 0; i < 20000; ++i) {
        const host_request r = g.next();
        ASSERT_LE(r.lbn + r.sectors, 5000u);
        ASSERT_EQ(r.lbn % 8, 0u);
    }
    c.size_max_sectors = 6000;
    EXPECT_THROW(workload_generator(c, 5000), scenario_error);
}
