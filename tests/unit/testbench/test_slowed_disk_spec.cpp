// Lumb's slow replica (Table 6.5): a drive at two-thirds speed takes 1.5 times as long to seek,
// switch heads and turn, and keeps its electronics' overheads.
#include <gtest/gtest.h>

#include "testbench/commands/slowed_disk_spec.h"

using namespace raidtlm;

TEST(slowed_disk_spec, two_thirds_speed_scales_every_mechanical_time_by_one_and_a_half) {
    disks::disk_spec spec;
    spec.mech.rpm = 10000;
    spec.mech.head_switch_ms = 0.2;
    spec.mech.write_settle_ms = 0.1;
    spec.mech.seek.type = disks::seek_type::extracted;
    spec.mech.seek.curve = {{1, 1.0}, {100, 3.0}, {1000, 6.0}};
    spec.mech.seek.hpl = {300, 1.0, 0.1, 2.0, 0.01, -1};
    spec.overheads.per_request_ms = 0.3;
    const disks::disk_spec slow = testbench::slowed_disk_spec(spec, 2.0 / 3.0);
    EXPECT_NEAR(60000.0 / slow.mech.rpm, 1.5 * 6.0, 1e-9);  // one revolution, ms
    EXPECT_NEAR(slow.mech.head_switch_ms, 0.3, 1e-12);
    EXPECT_NEAR(slow.mech.write_settle_ms, 0.15, 1e-12);
    EXPECT_NEAR(slow.mech.seek.curve[1].second, 4.5, 1e-12);
    EXPECT_EQ(slow.mech.seek.curve[1].first, 100);      // distances stay
    EXPECT_DOUBLE_EQ(slow.mech.seek.hpl[0], 300);        // HPL's V1 is a distance
    EXPECT_NEAR(slow.mech.seek.hpl[1], 1.5, 1e-12);
    EXPECT_DOUBLE_EQ(slow.mech.seek.hpl[5], -1);         // "none" stays none
    EXPECT_DOUBLE_EQ(slow.overheads.per_request_ms, 0.3);  // electronics, not mechanism
    EXPECT_DOUBLE_EQ(testbench::slowed_disk_spec(spec, 1.0).mech.rpm, 10000);
    EXPECT_THROW(testbench::slowed_disk_spec(spec, 0.0), std::invalid_argument);
    EXPECT_THROW(testbench::slowed_disk_spec(spec, 1.5), std::invalid_argument);
}
