#include <gtest/gtest.h>

#include <cmath>

#include "disk_fixtures.h"
#include "disks/seek_model.h"

using namespace raidtlm::disks;

TEST(seek_model, extracted_curve_hits_every_measured_point) {
    for (const disk_spec *s : {&raidtlm::test::cheetah9lp(), &raidtlm::test::atlas10k(), &raidtlm::test::barracuda()}) {
        seek_model m(s->mech.seek);
        for (auto [d, t] : s->mech.seek.curve) EXPECT_DOUBLE_EQ(m.seek_ms(d), t) << s->name << " d=" << d;
        EXPECT_EQ(m.seek_ms(0), 0.0);
    }
}

TEST(seek_model, extracted_curve_interpolates_linearly) {
    const auto &c = raidtlm::test::cheetah9lp().mech.seek.curve;
    seek_model m(raidtlm::test::cheetah9lp().mech.seek);
    // Cheetah 9LP lists 10 and 12 cylinders; 11 lies halfway.
    EXPECT_EQ(c[9].first, 10);
    EXPECT_EQ(c[10].first, 12);
    EXPECT_NEAR(m.seek_ms(11), (c[9].second + c[10].second) / 2, 1e-12);
    // Beyond the last measured distance the last segment extends.
    const auto &a = c[c.size() - 2], &b = c.back();
    EXPECT_NEAR(m.seek_ms(b.first + 10), b.second + 10 * (b.second - a.second) / (b.first - a.first), 1e-9);
}

TEST(seek_model, hplplus10_uses_table_then_equation) {
    const seek_spec &s = raidtlm::test::hp_c2247a().mech.seek;
    seek_model m(s);
    EXPECT_DOUBLE_EQ(m.seek_ms(1), 2.89);
    EXPECT_DOUBLE_EQ(m.seek_ms(10), s.first_ten_ms[9]);
    EXPECT_NEAR(m.seek_ms(100), 3.81 + 0.33 * std::sqrt(100.0), 1e-12);   // below V1 = 300
    EXPECT_NEAR(m.seek_ms(1000), 7.75 + 0.0059 * 1000, 1e-12);             // from V1 on
}

TEST(seek_model, closed_forms_from_the_papers) {
    seek_spec s;
    s.type = seek_type::sqrt_linear;  // parity-logging paper, IBM 0661
    s.a_ms = 2.0;
    s.b_ms = 0.46;
    s.c_ms = 0.01;
    EXPECT_NEAR(seek_model(s).seek_ms(100), 2.0 + 0.46 * 10 + 1.0, 1e-12);
    EXPECT_EQ(seek_model(s).seek_ms(0), 0.0);
    seek_spec t;
    t.type = seek_type::two_piece;  // AdaptRaid5 paper, Cheetah 4LP
    t.boundary_cyl = 600;
    t.short_a_ms = 1.55;
    t.short_b_ms = 0.155134;
    t.long_a_ms = 4.2458;
    t.long_b_ms = 0.001740;
    EXPECT_NEAR(seek_model(t).seek_ms(400), 1.55 + 0.155134 * 20, 1e-12);
    EXPECT_NEAR(seek_model(t).seek_ms(1000), 4.2458 + 1.74, 1e-12);
    seek_spec c;
    c.type = seek_type::constant;
    c.constant_ms = 3.5;
    EXPECT_EQ(seek_model(c).seek_ms(7), 3.5);
}

TEST(seek_model, lee_curve_passes_through_single_cylinder_time) {
    seek_spec s;
    s.type = seek_type::curve;
    s.single_cylinder_ms = 1.0;
    s.average_ms = 8.0;
    s.full_strobe_ms = 16.0;
    s.cylinders = 3000;
    seek_model m(s);
    EXPECT_NEAR(m.seek_ms(1), 1.0, 1e-12);
    EXPECT_GT(m.seek_ms(1000), m.seek_ms(100));
}
