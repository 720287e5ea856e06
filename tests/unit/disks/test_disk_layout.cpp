#include <gtest/gtest.h>

#include <algorithm>
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

namespace {

// runs() from its definition, one LBN at a time: an LBN joins the current run while it lies on the
// same track in a later slot than the run's last one; otherwise it starts a new run.
std::vector<track_run> runs_one_lbn_at_a_time(const disk_layout &l, int64_t lbn, int64_t count) {
    std::vector<track_run> out;
    for (int64_t x = lbn; x < lbn + count; ++x) {
        const physical_address p = l.to_physical(x);
        if (!out.empty()) {
            track_run &r = out.back();
            if (p.cyl == r.cyl && p.head == r.head && p.slot > r.first_slot + r.slots - 1) {
                r.slots = p.slot - r.first_slot + 1;
                ++r.lbns;
                continue;
            }
        }
        out.push_back({p.cyl, p.head, p.slot, 1, x, 1});
    }
    return out;
}

void expect_runs_match_one_lbn_at_a_time(const disk_layout &l, int64_t lbn, int64_t count) {
    lbn = std::clamp<int64_t>(lbn, 0, l.lbn_count() - 1);
    count = std::min(count, l.lbn_count() - lbn);
    std::vector<track_run> fast;
    l.runs(lbn, count, fast);
    const std::vector<track_run> slow = runs_one_lbn_at_a_time(l, lbn, count);
    ASSERT_EQ(fast.size(), slow.size()) << "runs(" << lbn << ", " << count << ")";
    for (size_t i = 0; i < fast.size(); ++i) {
        const track_run &f = fast[i], &s = slow[i];
        ASSERT_TRUE(f.cyl == s.cyl && f.head == s.head && f.first_slot == s.first_slot && f.slots == s.slots &&
                    f.first_lbn == s.first_lbn && f.lbns == s.lbns)
            << "runs(" << lbn << ", " << count << ") run " << i << ": cyl " << f.cyl << "/" << s.cyl << " head "
            << f.head << "/" << s.head << " first_slot " << f.first_slot << "/" << s.first_slot << " slots " << f.slots
            << "/" << s.slots << " first_lbn " << f.first_lbn << "/" << s.first_lbn << " lbns " << f.lbns << "/"
            << s.lbns;
    }
}

// Requests of several lengths starting on and before `lbn`, so that they end on it, cross it or
// start at it.
void expect_runs_match_around(const disk_layout &l, int64_t lbn) {
    for (int64_t count : {1, 2, 8, 67, 700, 2500})
        for (int64_t back : {0, 1, 5, 64, 333, 1200, 2499}) expect_runs_match_one_lbn_at_a_time(l, lbn - back, count);
}

// The first LBN at or past cylinder `cyl` (LBNs ascend through the cylinders).
int64_t first_lbn_from_cyl(const disk_layout &l, int cyl) {
    int64_t lo = 0, hi = l.lbn_count();
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (l.to_physical(mid).cyl < cyl) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void expect_runs_match_over_every_zone_boundary(const disk_spec &spec) {
    disk_layout l(spec);
    expect_runs_match_around(l, 0);
    expect_runs_match_around(l, l.lbn_count());
    for (const zone_spec &z : spec.layout.zones) {
        expect_runs_match_around(l, first_lbn_from_cyl(l, z.first_cyl));
        for (int64_t slip : z.slips) {
            // The slot, or track, of a slip holds no LBN; the first LBN of the slip's cylinder
            // lies on or before it.
            const int64_t slip_slot = spec.layout.sparing == sparing_scheme::tracks_per_zone
                                          ? slip * z.sectors_per_track
                                          : slip;
            const int cyl = z.first_cyl + int(slip_slot / z.sectors_per_track / spec.surfaces);
            const int64_t from = first_lbn_from_cyl(l, cyl);
            expect_runs_match_one_lbn_at_a_time(l, from, 2 * z.sectors_per_track * spec.surfaces);
        }
    }
}

// A zone-relative slot number (conventional mapping) as a physical address.
physical_address zone_slot_address(const disk_spec &spec, const zone_spec &z, int64_t slot) {
    const int64_t track = slot / z.sectors_per_track;
    return {z.first_cyl + int(track / spec.surfaces), int(track % spec.surfaces), int(slot % z.sectors_per_track)};
}

}  // namespace

TEST(disk_layout, runs_match_one_lbn_at_a_time_over_every_zone_boundary) {
    for (const disk_spec *s : {&cheetah9lp(), &atlas10k(), &hp_c2247a(), &barracuda(), &cheetah4lp()}) {
        SCOPED_TRACE(s->name);
        expect_runs_match_over_every_zone_boundary(*s);
    }
}

TEST(disk_layout, runs_match_one_lbn_at_a_time_around_remapped_sectors) {
    // Defects remapped to spare slots elsewhere in the zone, to a later and to an earlier slot of
    // their own track, and back to back: a remapped LBN leaves its run or ends it.
    disk_spec s = cheetah9lp();
    ASSERT_EQ(s.layout.mapping, lbn_mapping::conventional);
    const disk_layout plain(s);
    zone_spec &z = s.layout.zones[0];
    const int spt = z.sectors_per_track;
    const int64_t zone_slots = int64_t(z.last_cyl - z.first_cyl + 1) * s.surfaces * spt;
    // The zone's spare area (sectors per zone sparing) is its first hole past its last LBN.
    int64_t spare = zone_slots - 1;
    while (spare > 0 && !plain.to_lbn(zone_slot_address(s, z, spare - 1))) --spare;
    ASSERT_LT(spare + 8, zone_slots);
    ASSERT_GT(spare % spt, 8) << "the spare area should start inside a track";
    int64_t first = 0;  // the zone's first LBN slot, past any management area
    while (!plain.to_lbn(zone_slot_address(s, z, first))) ++first;
    const int64_t slip = z.slips.at(0);
    z.defects = {{first + 10, spare + 3},                                   // to the far end of the zone
                 {first + 11, spare + 4}, {first + 12, spare + 5},          // back to back
                 {spare - 4, spare + 1},                                    // to a later slot of its own track
                 {spare - 2, spare},                                        // to the next slot but one
                 {slip + 2, slip}};                                         // to an earlier slot of its own track
    const disk_layout l(s);
    EXPECT_EQ(l.lbn_count(), plain.lbn_count());
    for (auto [bad, good] : z.defects) {
        EXPECT_FALSE(l.to_lbn(zone_slot_address(s, z, bad)).has_value());
        const auto moved = l.to_lbn(zone_slot_address(s, z, good));
        ASSERT_TRUE(moved.has_value()) << "slot " << good;
        expect_runs_match_around(l, *moved);
        expect_runs_match_around(l, *moved + 1);
    }
}

TEST(disk_layout, runs_match_one_lbn_at_a_time_around_a_remapped_track) {
    // Track sparing remaps whole tracks: the HP's slipped-track zone, with a track sent to a spare.
    disk_spec s = hp_c2247a();
    ASSERT_EQ(s.layout.sparing, sparing_scheme::tracks_per_zone);
    const disk_layout plain(s);
    zone_spec &z = s.layout.zones[0];
    const int64_t tracks = int64_t(z.last_cyl - z.first_cyl + 1) * s.surfaces;
    int64_t spare_track = tracks - 1;  // the zone's spare tracks come last
    ASSERT_EQ(plain.lbns_on_track(zone_slot_address(s, z, spare_track * z.sectors_per_track).cyl,
                                  zone_slot_address(s, z, spare_track * z.sectors_per_track).head),
              0);
    auto track_address = [&](int64_t t) { return zone_slot_address(s, z, t * z.sectors_per_track); };
    int64_t bad_track = 2;  // a track past the zone's first that holds a full track of LBNs
    while (plain.lbns_on_track(track_address(bad_track).cyl, track_address(bad_track).head) != z.sectors_per_track)
        ++bad_track;
    z.defects = {{bad_track, spare_track}};
    const disk_layout l(s);
    const auto moved = l.to_lbn(track_address(spare_track));
    ASSERT_TRUE(moved.has_value());
    for (int64_t k : {int64_t(0), int64_t(z.sectors_per_track) - 1, int64_t(z.sectors_per_track)})
        expect_runs_match_around(l, *moved + k);
}
