#include <gtest/gtest.h>

#include <cmath>

#include "testbench/models/sr_array_model.h"

using namespace raidtlm::controller::sr_model;

namespace {
// The paper's ST39133LWV: R = 6 ms; S = 10 ms reproduces the Dr optima it prints (SEEDS.md).
disk_times seagate(double locality = 1) { return {10.0, 6.0, locality}; }
constexpr double cello_base_L = 4.14, cello_disk6_L = 16.67;  // Table 3
}  // namespace

TEST(sr_array_model, eq5_gives_the_dr_optima_the_paper_prints_for_nine_disks) {
    // "the non-integer solution of Equation (5) (5.8 for Cello base and 11.6 for Cello disk 6)"
    EXPECT_NEAR(optimal_aspect_ratio(seagate(cello_base_L), 9).dr, 5.8, 0.05);
    EXPECT_NEAR(optimal_aspect_ratio(seagate(cello_disk6_L), 9).dr, 11.6, 0.05);
    // "the largest practical value of Dr for D = 9 is only three"
    EXPECT_EQ(practical_replicas(9, 5.8), 3);
    EXPECT_EQ(practical_replicas(9, 11.6), 3);
    // "when the number of disks is six, the model recommends ... 2 x 3 for Cello base"
    const aspect_ratio six = optimal_aspect_ratio(seagate(cello_base_L), 6);
    EXPECT_EQ(practical_replicas(6, six.dr), 3);
    EXPECT_NEAR(six.ds * six.dr, 6.0, 1e-12);
}

TEST(sr_array_model, eq4_and_its_optimum) {
    const disk_times d = seagate();
    EXPECT_NEAR(read_latency_ms(d, 2, 3), 10.0 / 6 + 1.0, 1e-12);
    EXPECT_NEAR(read_latency_ms(d, 1, 1), 10.0 / 3 + 3.0, 1e-12);  // one disk: S/3 + R/2
    for (double D : {2.0, 6.0, 9.0, 36.0}) {
        const aspect_ratio a = optimal_aspect_ratio(d, D);
        EXPECT_NEAR(a.ds, std::sqrt(2 * 10.0 * D / (3 * 6.0)), 1e-12);
        EXPECT_NEAR(a.dr, std::sqrt(3 * 6.0 * D / (2 * 10.0)), 1e-12);
        const double best = best_latency_ms(d, D);
        EXPECT_NEAR(best, std::sqrt(2 * 10.0 * 6.0 / (3 * D)), 1e-12);  // Eq 6
        for (double f : {0.8, 0.95, 1.05, 1.25}) EXPECT_GT(read_latency_ms(d, a.ds * f, a.dr / f), best);
    }
    // Locality L divides S.
    EXPECT_NEAR(read_latency_ms(seagate(4), 2, 3), 10.0 / 4 / 6 + 1.0, 1e-12);
    // SR-Mirror: Dr*Dm replicas.
    EXPECT_NEAR(sr_mirror_read_latency_ms(d, 3, 1, 2), read_latency_ms(d, 3, 2), 1e-12);
}

TEST(sr_array_model, section_2_1_and_2_2_building_blocks) {
    const disk_times d = seagate();
    EXPECT_NEAR(striping_seek_ms(d, 1), mirror_seek_ms(d, 1), 1e-12);  // one disk: S/3 both ways
    EXPECT_LT(striping_seek_ms(d, 4), mirror_seek_ms(d, 4));              // striping cuts seeks more
    EXPECT_NEAR(even_replica_read_rotation_ms(d, 3), 1.0, 1e-12);
    EXPECT_NEAR(random_replica_read_rotation_ms(d, 3), 1.5, 1e-12);
    for (double D : {1.0, 2.0, 6.0})  // "Notice that R_r(D) + R_w(D) = R"
        EXPECT_NEAR(even_replica_read_rotation_ms(d, D) + replica_write_rotation_ms(d, D), 6.0, 1e-12);
}

TEST(sr_array_model, eq9_to_11_with_foreground_writes) {
    const disk_times d = seagate(cello_base_L);
    EXPECT_NEAR(mixed_latency_ms(d, 2, 3, 1.0), read_latency_ms(d, 2, 3), 1e-12);
    EXPECT_NEAR(mixed_latency_ms(d, 2, 3, 0.0), write_latency_ms(d, 2, 3), 1e-12);
    EXPECT_NEAR(write_latency_ms(d, 2, 3), 10.0 / cello_base_L / 6 + 6.0 - 1.0, 1e-12);  // Eq 7
    const double p = 0.8, D = 6;
    const aspect_ratio a = optimal_aspect_ratio(d, D, p);
    EXPECT_NEAR(a.dr, std::sqrt(3 * 6.0 * (2 * p - 1) * D / (2 * 10.0 / cello_base_L)), 1e-12);  // Eq 10
    EXPECT_NEAR(best_latency_ms(d, D, p),
                std::sqrt(2 * 10.0 / cello_base_L * 6.0 * (2 * p - 1) / (3 * D)) + (1 - p) * 6.0, 1e-12);  // Eq 11
    for (double f : {0.9, 1.1}) EXPECT_GT(mixed_latency_ms(d, a.ds * f, a.dr / f, p), best_latency_ms(d, D, p));
    // "A p ratio under 50% precludes rotational replication": pure striping.
    EXPECT_EQ(optimal_aspect_ratio(d, D, 0.4).dr, 1.0);
    EXPECT_EQ(optimal_aspect_ratio(d, D, 0.5).ds, D);
    // At p = 1/2 replication neither helps nor hurts rotation: T depends on Ds only.
    EXPECT_NEAR(mixed_latency_ms(d, 2, 3, 0.5), mixed_latency_ms(d, 2, 1, 0.5), 1e-12);
}

TEST(sr_array_model, eq12_to_16_throughput) {
    const disk_times d = seagate(3);  // the micro-benchmarks' locality index
    const double p = 1, q = 8, D = 6;
    EXPECT_NEAR(stroke_latency_ms(d, 2, 3, p, q), 10.0 / 3 / (8 * 2) + 1.0, 1e-12);
    const aspect_ratio a = optimal_stroke_aspect_ratio(d, D, p, q);
    EXPECT_NEAR(a.ds, std::sqrt(2 * 10.0 / 3 * D / (6.0 * (2 * p - 1) * q)), 1e-12);  // Eq 13
    EXPECT_NEAR(best_stroke_latency_ms(d, D, p, q), std::sqrt(2 * 10.0 / 3 * 6.0 * (2 * p - 1) / (q * D)), 1e-12);  // Eq 14
    // "A long queue ... we should devote more disks to reducing rotational delay."
    EXPECT_GT(optimal_stroke_aspect_ratio(d, D, p, 32).dr, a.dr);
    const double n1 = single_disk_iops(2.7, best_stroke_latency_ms(d, D, p, q));  // Eq 15
    EXPECT_NEAR(n1, 1000.0 / (2.7 + best_stroke_latency_ms(d, D, p, q)), 1e-9);
    // Eq 16: Q = 8 requests over 6 disks leave (5/6)^8 of the disks idle on average.
    EXPECT_NEAR(array_iops(6, 8, 100), 6 * (1 - std::pow(5.0 / 6, 8)) * 100, 1e-9);
    EXPECT_NEAR(array_iops(6, 8, 100), 460.46, 0.01);
    EXPECT_NEAR(array_iops(6, 1e6, 100), 600, 1e-6);
    EXPECT_NEAR(array_iops(1, 1, 100), 100, 1e-12);
}

TEST(sr_array_model, practical_replicas_are_factors_of_d_capped_at_six) {
    EXPECT_EQ(practical_replicas(6, 4.73), 3);
    EXPECT_EQ(practical_replicas(6, 0.7), 1);
    EXPECT_EQ(practical_replicas(12, 8.0), 6);
    EXPECT_EQ(practical_replicas(12, 8.0, 12), 6);
    EXPECT_EQ(practical_replicas(36, 4.5), 4);
    EXPECT_EQ(practical_replicas(7, 5.0), 1);
}
