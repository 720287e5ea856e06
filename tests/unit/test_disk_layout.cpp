#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "disk_fixtures.h"
#include "disks/disk_layout.h"

using namespace raidtlm::disks;
using raidtlm::test::atlas10k;
using raidtlm::test::barracuda;
using raidtlm::test::cheetah4lp;
using raidtlm::test::cheetah9lp;
using raidtlm::test::hp_c2247a;

namespace {

// LBN -> PBN -> LBN must be the identity, and LBNs on one track must sit in distinct slots.
void expect_round_trip(const disk_layout &l, int64_t lbn) {
    const physical_address p = l.to_physical(lbn);
    auto back = l.to_lbn(p);
    ASSERT_TRUE(back.has_value()) << "LBN " << lbn << " maps to an unmapped slot";
    EXPECT_EQ(*back, lbn) << "cyl " << p.cyl << " head " << p.head << " slot " << p.slot;
}

void round_trip_every_boundary(const disk_spec &spec) {
    disk_layout l(spec);
    // Around every zone boundary and every slip, plus the ends of the disk.
    std::vector<int64_t> probes{0, 1, l.lbn_count() - 1};
    for (const zone_spec &z : spec.layout.zones) {
        auto first = l.to_lbn({z.first_cyl, 0, 0});
        for (int c : {z.first_cyl, z.last_cyl})
            for (int h : {0, spec.surfaces - 1})
                for (int s : {0, 1, z.sectors_per_track - 1})
                    if (auto v = l.to_lbn({c, h, s})) probes.push_back(*v);
        (void)first;
    }
    int64_t zone_start = 0;
    for (const zone_spec &z : spec.layout.zones) {
        for (int64_t slip : z.slips) {
            // A slot near each slip, expressed as an LBN through the zone's first LBN.
            probes.push_back(std::min(l.lbn_count() - 1, zone_start + std::max<int64_t>(0, slip - 2)));
            probes.push_back(std::min(l.lbn_count() - 1, zone_start + slip));
        }
        auto next = l.to_lbn({z.last_cyl, spec.surfaces - 1, z.sectors_per_track - 1});
        if (next) zone_start = *next + 1;
    }
    for (int64_t p : probes)
        for (int64_t d = -3; d <= 3; ++d)
            if (p + d >= 0 && p + d < l.lbn_count()) expect_round_trip(l, p + d);
    // A dense sweep across the first zone boundary.
    auto b = l.to_lbn({spec.layout.zones[1].first_cyl, 0, 0});
    ASSERT_TRUE(b.has_value());
    for (int64_t x = *b - 3000; x < *b + 3000; ++x) expect_round_trip(l, x);
}

}  // namespace

TEST(disk_layout, round_trips_cheetah9lp) { round_trip_every_boundary(cheetah9lp()); }
TEST(disk_layout, round_trips_atlas10k_serpentine) { round_trip_every_boundary(atlas10k()); }
TEST(disk_layout, round_trips_hp_c2247a_track_sparing) { round_trip_every_boundary(hp_c2247a()); }
TEST(disk_layout, round_trips_barracuda_range_sparing) { round_trip_every_boundary(barracuda()); }
TEST(disk_layout, round_trips_cheetah4lp) { round_trip_every_boundary(cheetah4lp()); }

TEST(disk_layout, hp_capacity_matches_block_count_exactly) {
    // The HP spec's zones, spare tracks and slipped tracks add up to its Block count: a check of
    // the track-sparing arithmetic against the drive's own figure.
    disk_layout l(hp_c2247a());
    EXPECT_EQ(l.lbn_count(), hp_c2247a().block_count);
}

TEST(disk_layout, every_spec_maps_at_least_its_block_count) {
    for (const disk_spec *s : {&cheetah9lp(), &atlas10k(), &barracuda(), &cheetah4lp()}) {
        disk_layout l(*s);
        EXPECT_GE(l.lbn_count(), s->block_count) << s->name;
    }
}

TEST(disk_layout, slipped_sector_holds_no_lbn) {
    const disk_spec &s = cheetah9lp();
    disk_layout l(s);
    const zone_spec &z0 = s.layout.zones[0];
    const int64_t slip = z0.slips[0];  // zone-relative slot number
    const int spt = z0.sectors_per_track;
    const int64_t track = slip / spt;
    physical_address p{int(track / s.surfaces), int(track % s.surfaces), int(slip % spt)};
    EXPECT_FALSE(l.to_lbn(p).has_value());
    // The LBNs on either side of the slip are consecutive.
    physical_address before = p, after = p;
    before.slot -= 1;
    after.slot += 1;
    auto lb = l.to_lbn(before), la = l.to_lbn(after);
    ASSERT_TRUE(lb && la);
    EXPECT_EQ(*la, *lb + 1);
}

TEST(disk_layout, serpentine_mapping_runs_heads_down_on_odd_cylinders) {
    disk_layout l(atlas10k());
    const int spt = atlas10k().layout.zones[0].sectors_per_track;
    const int heads = atlas10k().surfaces;
    // Cylinder 0 ascends heads; cylinder 1 starts on the last head.
    auto first_of_cyl1 = l.to_lbn({1, heads - 1, 0});
    auto last_of_cyl0 = l.to_lbn({0, heads - 1, spt - 1});
    ASSERT_TRUE(first_of_cyl1 && last_of_cyl0);
    EXPECT_EQ(*first_of_cyl1, *last_of_cyl0 + 1);
}

TEST(disk_layout, skew_offsets_next_track_start) {
    const disk_spec &s = cheetah9lp();
    disk_layout l(s);
    const auto &z = s.layout.zones[0];
    const double spt = z.sectors_per_track;
    const double a0 = l.slot_angle(0, 0, 0), a1 = l.slot_angle(0, 1, 0), c1 = l.slot_angle(1, 0, 0);
    auto diff = [](double a, double b) { double d = a - b; return d < 0 ? d + 1 : d; };
    EXPECT_NEAR(diff(a1, a0) * spt, z.track_skew_sectors, 1e-6);
    // Cylinder 1 head 0 comes after (surfaces-1) track switches and one cylinder switch.
    const double expect = std::fmod((s.surfaces - 1) * z.track_skew_sectors + z.cylinder_skew_sectors, spt);
    EXPECT_NEAR(diff(c1, a0) * spt, expect, 1e-6);
}

TEST(disk_layout, runs_split_at_track_ends) {
    disk_layout l(cheetah9lp());
    std::vector<track_run> runs;
    const int64_t end = l.track_end_lbn(1000);
    l.runs(end - 5, 10, runs);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].lbns, 5);
    EXPECT_EQ(runs[1].lbns, 5);
    EXPECT_EQ(runs[1].first_lbn, end);
    EXPECT_NE(runs[0].head, runs[1].head);
}

TEST(disk_layout, unmapped_gap_cylinder_has_no_lbns) {
    // Cheetah 9LP's zones skip cylinder 847.
    disk_layout l(cheetah9lp());
    EXPECT_FALSE(l.to_lbn({847, 0, 0}).has_value());
    EXPECT_EQ(l.lbns_on_track(847, 0), 0);
    EXPECT_EQ(l.lbns_on_track(846, 0) > 0, true);
}

TEST(disk_layout, a_block_count_beyond_the_zones_is_lowered_with_a_message) {
    disk_spec s = cheetah9lp();
    const int64_t mapped = disk_layout(s).lbn_count();
    EXPECT_EQ(fit_block_count(s), "");  // the real spec fits
    s.block_count = mapped + 1000;
    const std::string m = fit_block_count(s);
    EXPECT_EQ(s.block_count, mapped);
    EXPECT_NE(m.find("Block count"), std::string::npos) << m;
    EXPECT_NE(m.find(std::to_string(mapped)), std::string::npos) << m;
}
