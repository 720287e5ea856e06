#include <cmath>

#include <gtest/gtest.h>

#include "testbench/commands/rate_search.h"
#include "testbench/measurement/timeline.h"

using namespace raidtlm::testbench;

namespace {

// A queue with mean service S and capacity mu: M/M/1 (cv 1) or M/D/1 (cv 0) mean response.
rate_point queue(double rate, double s_ms, double mu, double cv2, double noise = 0) {
    rate_point p;
    p.rate_iops = rate;
    const double rho = rate / mu;
    if (rho >= 1) {
        p.overloaded = true;
        return p;
    }
    p.mean_ms = s_ms + rho * s_ms * (1 + cv2) / (2 * (1 - rho));
    p.mean_ms *= 1 + noise;
    p.achieved_iops = rate;
    return p;
}

}  // namespace

TEST(rate_search, finds_the_threshold_of_an_mm1_queue_in_few_evaluations) {
    rate_search_config c;
    c.threshold_ms = 15;
    c.precision = 0.01;
    const double s = 10, mu = 100;
    const auto r = find_sustainable_rate(
        c, [&](double rate) { return queue(rate, s, mu, 1.0); }, [&](double sv) { return 1000 / sv; });
    // M/M/1: R = S / (1 - rho) = 15 at rho = 1/3.
    EXPECT_TRUE(r.found);
    EXPECT_NEAR(r.rate_iops, 100.0 / 3, 0.01 * 100 / 3);
    EXPECT_LE(r.points.size(), 4u);  // the probe, then exact on M/M/1
    EXPECT_DOUBLE_EQ(r.service_ms, queue(1, s, mu, 1.0).mean_ms);
}

TEST(rate_search, brackets_an_md1_queue_and_survives_overload) {
    rate_search_config c;
    c.threshold_ms = 30;
    const double s = 10, mu = 100;
    // M/D/1 reaches 30 ms at rho = 0.8; the M/M/1 first guess is low, the secant overshoots.
    const auto r = find_sustainable_rate(
        c, [&](double rate) { return queue(rate, s, mu, 0.0); }, [&](double sv) { return 1000 / sv; });
    EXPECT_TRUE(r.found);
    EXPECT_NEAR(r.rate_iops, 80, 0.8);
    EXPECT_LE(r.points.size(), 10u);
    // A capacity guess far too high starts in overload: the search comes back down.
    const auto h = find_sustainable_rate(
        c, [&](double rate) { return queue(rate, s, mu, 0.0); }, [&](double) { return 1000.0; });
    EXPECT_TRUE(h.found);
    EXPECT_NEAR(h.rate_iops, 80, 0.8);
}

TEST(rate_search, noise_moves_the_answer_by_about_the_noise_over_the_elasticity) {
    rate_search_config c;
    c.threshold_ms = 15;
    // A +1% bias on every mean: R = 15 is reached where the true R is 15 / 1.01.
    const auto r = find_sustainable_rate(
        c, [&](double rate) { return queue(rate, 10, 100, 1.0, 0.01); }, [&](double sv) { return 1000 / sv; });
    const double want = 100 * (1 - 10 / (15 / 1.01));
    EXPECT_NEAR(r.rate_iops, want, 0.01 * want);
}

TEST(rate_search, light_load_above_the_threshold_gives_zero) {
    rate_search_config c;
    c.threshold_ms = 5;
    const auto r = find_sustainable_rate(
        c, [&](double rate) { return queue(rate, 10, 100, 1.0); }, [&](double sv) { return 1000 / sv; });
    EXPECT_FALSE(r.found);
    EXPECT_EQ(r.rate_iops, 0);
    EXPECT_EQ(r.points.size(), 1u);
}

TEST(timeline, intervals_double_and_keep_busy_time_exact) {
    timeline t({"a", "b"}, 10, 4);
    double busy = 0;
    uint64_t n = 0;
    for (double now = 0; now <= 100; now += 1) {
        busy += 0.5;  // half busy
        ++n;
        if (t.due(now)) t.sample(now, {busy, 0.0}, n, 2.0 * static_cast<double>(n));
    }
    EXPECT_LE(t.intervals(), 4u);
    EXPECT_GE(t.intervals(), 2u);
    EXPECT_GT(t.interval_ms(), 10);
    const auto j = t.to_json();
    for (double u : j["utilisation"]["a"]) EXPECT_NEAR(u, 0.5, 0.06);
    for (double u : j["utilisation"]["b"]) EXPECT_EQ(u, 0.0);
    for (double m : j["mean_response_ms"]) EXPECT_DOUBLE_EQ(m, 2.0);
    for (double x : j["iops"]) EXPECT_NEAR(x, 1000.0, 100.0);
    EXPECT_EQ(j["t_end_ms"].size(), t.intervals());
    t.sample(j["t_end_ms"].back().get<double>(), {busy, 0.0}, n, 0);  // no interval of length 0
    EXPECT_EQ(j["t_end_ms"].size(), t.intervals());
}
