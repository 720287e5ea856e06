#include <gtest/gtest.h>

#include "disk_fixtures.h"
#include "disks/mechanics.h"

using namespace raidtlm::disks;

TEST(mechanics, rotational_wait_from_known_phase) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    disk_layout l(s);
    mechanics m(s, l, 0.25);
    const double period = 60000.0 / 10045;
    EXPECT_NEAR(m.period_ms(), period, 1e-12);
    EXPECT_NEAR(m.angle_at(0), 0.25, 1e-12);
    EXPECT_NEAR(m.wait_for_angle(0, 0.5), 0.25 * period, 1e-9);
    EXPECT_NEAR(m.wait_for_angle(0, 0.0), 0.75 * period, 1e-9);
    EXPECT_NEAR(m.wait_for_angle(period * 1000, 0.25), 0.0, 1e-6);  // a whole number of turns later
}

TEST(mechanics, spindle_synchronised_drives_share_the_angle) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    disk_layout l(s);
    mechanics a(s, l, 0.4), b(s, l, 0.4), c(s, l, 0.9);
    for (double t : {0.0, 1.234, 98765.4321}) {
        EXPECT_DOUBLE_EQ(a.angle_at(t), b.angle_at(t));
        EXPECT_NE(a.angle_at(t), c.angle_at(t));
    }
}

TEST(mechanics, positioning_adds_write_settle_only_after_motion) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    disk_layout l(s);
    mechanics m(s, l, 0);
    EXPECT_EQ(m.positioning_ms({10, 2}, {10, 2}, true), 0.0);
    EXPECT_NEAR(m.positioning_ms({10, 2}, {10, 3}, false), s.mech.head_switch_ms, 1e-12);
    EXPECT_NEAR(m.positioning_ms({10, 2}, {10, 3}, true), s.mech.head_switch_ms + s.mech.write_settle_ms, 1e-12);
    EXPECT_NEAR(m.positioning_ms({10, 2}, {110, 2}, false), m.seek_ms(100), 1e-12);
}

// DiskSim accepts a negative write settle (the DEC RZ26's is -0.483 ms) and adds it to every
// non-zero positioning time of a write; positioning never takes less than nothing.
TEST(mechanics, negative_write_settle_shortens_write_positioning) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.mech.write_settle_ms = -0.483;
    s.mech.head_switch_ms = 0.865;
    disk_layout l(s);
    mechanics m(s, l, 0);
    EXPECT_NEAR(m.positioning_ms({10, 2}, {10, 3}, true), 0.865 - 0.483, 1e-12);
    EXPECT_NEAR(m.positioning_ms({10, 2}, {10, 3}, false), 0.865, 1e-12);
    s.mech.write_settle_ms = -5.0;
    mechanics clamped(s, l, 0);
    EXPECT_EQ(clamped.positioning_ms({10, 2}, {10, 3}, true), 0.0);
}

TEST(mechanics, read_on_current_track_waits_for_the_sector_then_streams) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    disk_layout l(s);
    mechanics m(s, l, 0);
    std::vector<track_run> runs;
    l.runs(100, 8, runs);
    ASSERT_EQ(runs.size(), 1u);
    std::vector<media_segment> out;
    const head_position here{runs[0].cyl, runs[0].head};
    const double t0 = 3.0;
    auto r = m.access(t0, here, runs, false, false, nullptr, out);
    const double tau = m.sector_ms(runs[0].cyl);
    EXPECT_EQ(r.seek_ms, 0.0);
    EXPECT_NEAR(r.rotation_ms, m.wait_for_angle(t0, l.slot_angle(runs[0].cyl, runs[0].head, runs[0].first_slot)), 1e-9);
    EXPECT_NEAR(r.end_ms, t0 + r.rotation_ms + 8 * tau, 1e-9);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_NEAR(out[0].done_ms(0), t0 + r.rotation_ms + tau, 1e-9);
}

TEST(mechanics, zero_latency_read_takes_one_revolution_when_landing_inside) {
    const disk_spec &s = raidtlm::test::atlas10k();
    disk_layout l(s);
    mechanics m(s, l, 0);
    std::vector<track_run> runs;
    l.runs(0, 100, runs);
    ASSERT_EQ(runs.size(), 1u);
    const head_position here{runs[0].cyl, runs[0].head};
    const double tau = m.sector_ms(0);
    // Arrive when the head is 40.5 sectors into the run.
    const double a = l.slot_angle(0, runs[0].head, runs[0].first_slot);
    const double t0 = m.wait_for_angle(0, a) + 40.5 * tau;
    std::vector<media_segment> normal, zl;
    auto rn = m.access(t0, here, runs, false, false, nullptr, normal);
    auto rz = m.access(t0, here, runs, false, true, nullptr, zl);
    EXPECT_NEAR(rz.end_ms - t0, 0.5 * tau + m.period_ms(), 1e-6);
    EXPECT_GT(rn.end_ms, rz.end_ms);
    ASSERT_EQ(zl.size(), 2u);
    EXPECT_EQ(zl[0].first_lbn, 0);  // sorted back into LBN order
    EXPECT_EQ(zl[1].first_lbn, 41);
}

TEST(mechanics, write_never_outruns_its_data) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    disk_layout l(s);
    mechanics m(s, l, 0);
    std::vector<track_run> runs;
    l.runs(0, 50, runs);
    const head_position here{runs[0].cyl, runs[0].head};
    data_arrival slow{0, 1.0, 0.105, 0.0};  // bus slower than the media
    std::vector<media_segment> out;
    m.access(0.0, here, runs, true, false, &slow, out);
    for (const media_segment &ms : out)
        for (int k = 0; k < ms.count; ++k)
            EXPECT_GE(ms.done_ms(k) + 1e-9, slow.at(ms.first_lbn + k)) << "sector " << ms.first_lbn + k;
}
