// `raidtlm sr-model`'s report: which model the throughput takes at a given per-disk queue, and
// Eq 15/16 on top of it.
#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "testbench/commands/sr_model_report.h"

using raidtlm::testbench::sr_model_options;
using raidtlm::testbench::sr_model_report;

namespace {
sr_model_options two_by_three(double queue) {
    sr_model_options o;
    o.max_seek_ms = 10;
    o.rotation_ms = 6;
    o.ds = 2;
    o.dr = 3;
    o.outstanding = queue;
    o.overhead_ms = 0.5;
    return o;
}
}  // namespace

TEST(sr_model_report, a_long_queue_takes_the_rlook_stroke_model_and_eq16) {
    const auto j = sr_model_report(two_by_three(32));
    const double q = 32.0 / 6;
    EXPECT_DOUBLE_EQ(j["per_disk_queue"].get<double>(), q);
    const double t = 10 / (q * 2) + 6.0 / 6;  // Eq 12 with p = 1
    EXPECT_DOUBLE_EQ(j["eq12_stroke_latency_ms"].get<double>(), t);
    EXPECT_DOUBLE_EQ(j["eq15_single_disk_iops"].get<double>(), 1000 / (0.5 + t));
    EXPECT_DOUBLE_EQ(j["eq16_array_iops"].get<double>(), 6 * (1 - std::pow(5.0 / 6, 32)) * 1000 / (0.5 + t));
    EXPECT_EQ(j["throughput_model"], "eq12 (per-disk queue > 3)");
}

TEST(sr_model_report, a_short_queue_takes_the_latency_model) {
    const auto j = sr_model_report(two_by_three(8));
    const double t = 10.0 / 6 + 6.0 / 6;  // Eq 4: S/(3 Ds) + R/(2 Dr)
    EXPECT_DOUBLE_EQ(j["eq4_read_latency_ms"].get<double>(), t);
    EXPECT_DOUBLE_EQ(j["eq15_single_disk_iops"].get<double>(), 1000 / (0.5 + t));
    EXPECT_EQ(j["throughput_model"], "eq9 (per-disk queue <= 3)");
}

TEST(sr_model_report, writes_cost_a_revolution_less_the_read_rotation_and_mirrors_count_as_replicas) {
    sr_model_options o = two_by_three(8);
    o.ds = 3;
    o.dr = 1;
    o.dm = 2;  // 3x1x2: modelled as 2 replicas
    o.read_fraction = 0.5;
    const auto j = sr_model_report(o);
    EXPECT_DOUBLE_EQ(j["eq4_rotation_ms"].get<double>(), 6.0 / 4);
    EXPECT_DOUBLE_EQ(j["eq7_write_latency_ms"].get<double>(), 10.0 / 9 + 6 - 6.0 / 4);
    EXPECT_DOUBLE_EQ(j["eq9_mixed_latency_ms"].get<double>(), 10.0 / 9 + 0.5 * 1.5 + 0.5 * 4.5);
}

TEST(sr_model_report, missing_disk_times_are_refused_naming_the_option) {
    sr_model_options o = two_by_three(8);
    o.max_seek_ms = -1;
    try {
        sr_model_report(o);
        FAIL();
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("--max-seek-ms"), std::string::npos);
    }
}
