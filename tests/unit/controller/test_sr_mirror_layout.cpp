#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "controller/layouts/sr_mirror_layout.h"
#include "disk_fixtures.h"
#include "disks/mechanics.h"

using namespace raidtlm::controller;
using raidtlm::disks::disk_layout;
using raidtlm::disks::physical_address;

namespace {

double turn(double x) { return x - std::floor(x); }
// Distance between two angles in revolutions, in [-0.5, 0.5).
double angle_gap(double a, double b) { return turn(a - b + 0.5) - 0.5; }

double angle_of(const disk_layout &l, const physical_address &p) { return l.slot_angle(p.cyl, p.head, p.slot); }

std::string error_of(int disks, sr_mirror_shape shape) {
    try {
        sr_mirror_layout l(raidtlm::test::cheetah9lp(), disks, shape);
    } catch (const layout_error &e) {
        return e.what();
    }
    return "no error";
}

// Media time of reading `extents` (one replica) from a standing start at the first sector.
double sequential_read_ms(const raidtlm::disks::mechanics &m, const disk_layout &l,
                          const std::vector<disk_extent> &extents) {
    std::vector<raidtlm::disks::track_run> runs;
    for (const auto &e : extents) {
        const physical_address p = l.to_physical(e.drive_lbn);
        runs.push_back({p.cyl, p.head, p.slot, e.sectors, e.drive_lbn, e.sectors});
    }
    std::vector<raidtlm::disks::media_segment> out;
    const auto r = m.access(0.0, {runs[0].cyl, runs[0].head}, runs, false, false, nullptr, out);
    return r.end_ms - r.rotation_ms;
}

}  // namespace

TEST(sr_mirror_layout, sr_array_replicas_are_a_third_of_a_turn_apart_on_one_cylinder) {
    const auto &spec = raidtlm::test::cheetah9lp();
    sr_mirror_layout l(spec, 6, {2, 3, 1, 128, 0});
    EXPECT_EQ(l.kind(), "SR-Array");
    EXPECT_EQ(l.copies(), 3);
    const auto &map = l.replica_map();
    EXPECT_EQ(map.cylinder_limit(), spec.cylinders / 2);
    EXPECT_EQ(map.tracks_per_replica(), 4);
    const disk_layout &geo = map.drive_layout();
    for (int64_t dbn = 0; dbn < map.data_sectors(); dbn += 9973) {
        const physical_address p0 = map.locate(dbn, 0, 0);
        EXPECT_LT(p0.cyl, map.cylinder_limit());
        const double sector = 1.0 / geo.sectors_per_track(p0.cyl);
        std::set<int> heads{p0.head};
        for (int r = 1; r < 3; ++r) {
            const physical_address p = map.locate(dbn, r, 0);
            EXPECT_EQ(p.cyl, p0.cyl);
            heads.insert(p.head);
            EXPECT_NEAR(angle_gap(angle_of(geo, p), angle_of(geo, p0)), angle_gap(r / 3.0, 0), sector + 1e-9)
                << "dbn " << dbn << " replica " << r;
        }
        EXPECT_EQ(heads.size(), 3u);
    }
}

TEST(sr_mirror_layout, each_used_cylinder_holds_every_replica_of_its_data_exactly_once) {
    sr_mirror_layout l(raidtlm::test::cheetah9lp(), 6, {2, 3, 1, 128, 0});
    const auto &map = l.replica_map();
    const disk_layout &geo = map.drive_layout();
    const int spt = geo.sectors_per_track(0);
    const int per_cylinder = map.tracks_per_replica() * spt;
    const int cylinders = 60;  // cylinder 55 holds a slipped sector: it is skipped
    std::set<int64_t> lbns;
    std::set<int> cyls;
    std::vector<disk_extent> ext;
    for (int r = 0; r < 3; ++r) {
        ext.clear();
        map.extents(0, per_cylinder * cylinders, r, 0, ext);
        for (const auto &e : ext)
            for (int i = 0; i < e.sectors; ++i) {
                const physical_address p = geo.to_physical(e.drive_lbn + i);
                ASSERT_EQ(geo.to_lbn(p), e.drive_lbn + i);
                cyls.insert(p.cyl);
                lbns.insert(e.drive_lbn + i);
            }
    }
    EXPECT_EQ(cyls.size(), size_t(cylinders));
    EXPECT_EQ(cyls.count(55), 0u);
    EXPECT_EQ(*cyls.rbegin(), cylinders);
    // Dr * G = 12 = surfaces: the replicas fill every slot of every used track once.
    EXPECT_EQ(lbns.size(), size_t(3 * per_cylinder * cylinders));
    EXPECT_EQ(lbns.size(), size_t(geo.surfaces() * spt * cylinders));
}

TEST(sr_mirror_layout, sequential_reads_through_any_replica_lose_no_revolution_at_track_and_cylinder_switches) {
    const auto &spec = raidtlm::test::cheetah9lp();
    const auto &zone = spec.layout.zones[0];
    sr_mirror_layout sr(spec, 6, {2, 3, 1, 128, 0});
    sr_mirror_layout striping(spec, 6, {6, 1, 1, 128, 0});
    const auto &map = sr.replica_map();
    const disk_layout &geo = map.drive_layout();
    raidtlm::disks::mechanics mech(spec, geo, 0.0);
    const double tau = mech.sector_ms(0);
    const int spt = geo.sectors_per_track(0);
    const int64_t n = int64_t(spt) * 6;  // six logical tracks
    // Striping (Dr = 1) is the drive's own LBN order: five track switches, each one skew.
    std::vector<disk_extent> ext;
    striping.replica_map().extents(0, int32_t(n), 0, 0, ext);
    for (const auto &e : ext) EXPECT_FALSE(e.wraps_from_previous);
    EXPECT_NEAR(sequential_read_ms(mech, geo, ext), (n + 5 * zone.track_skew_sectors) * tau, 1e-6);
    // Through any SR-Array replica (G = 4 logical tracks per cylinder): four track switches and a
    // cylinder switch, each exactly its skew, never a lost revolution.
    for (int r = 0; r < 3; ++r) {
        ext.clear();
        map.extents(0, int32_t(n), r, 0, ext);
        EXPECT_NEAR(sequential_read_ms(mech, geo, ext),
                    (n + 4 * zone.track_skew_sectors + zone.cylinder_skew_sectors) * tau, 1e-6)
            << "replica " << r;
    }
}

TEST(sr_mirror_layout, striping_uses_the_drives_lbn_order_on_the_outer_cylinders) {
    const auto &spec = raidtlm::test::cheetah9lp();
    sr_mirror_layout l(spec, 6, {6, 1, 1, 128, 0});
    EXPECT_EQ(l.kind(), "striping");
    EXPECT_EQ(l.copies(), 1);
    std::vector<chunk> out;
    l.map(128 * 7 + 5, 1, out);  // unit 7: column 1 = disk 1, row 1
    ASSERT_EQ(out[0].replicas.size(), 1u);
    EXPECT_EQ(out[0].replicas[0].disk, 1);
    EXPECT_EQ(out[0].replicas[0].extents[0].drive_lbn, 128 + 5);  // cylinder 0 has no defects
    const auto &map = l.replica_map();
    EXPECT_LE(map.used_cylinders(), spec.cylinders / 6);
    EXPECT_LT(map.drive_layout().to_physical(map.data_sectors() - 1 + 0).cyl, spec.cylinders / 6 + 1);
}

TEST(sr_mirror_layout, mirrors_on_synchronized_spindles_spread_all_copies_evenly) {
    const auto &spec = raidtlm::test::cheetah9lp();
    sr_mirror_layout l(spec, 6, {1, 2, 3, 128, 0});
    EXPECT_EQ(l.kind(), "SR-Mirror");
    const disk_layout &geo = l.replica_map().drive_layout();
    std::vector<chunk> out;
    l.map(12345, 1, out);
    ASSERT_EQ(out[0].replicas.size(), 6u);
    std::vector<double> angles;
    for (const replica &r : out[0].replicas) {
        EXPECT_EQ(r.disk, r.copy / 2);  // one column: disks 0..2, two replicas each
        angles.push_back(angle_of(geo, geo.to_physical(r.extents[0].drive_lbn)));
    }
    const double sector = 1.0 / geo.sectors_per_track(geo.to_physical(out[0].replicas[0].extents[0].drive_lbn).cyl);
    for (size_t c = 0; c < 6; ++c)  // copy m*Dr + r is turned by r/2 + m/6
        EXPECT_NEAR(angle_gap(angles[c], angles[0]), angle_gap((c % 2) / 2.0 + (c / 2) / 6.0, 0), sector + 1e-9) << c;

    sr_mirror_layout raid10(spec, 6, {3, 1, 2, 128, 0});
    EXPECT_EQ(raid10.kind(), "striped mirror");
    raid10.map(128 * 2, 1, out);  // column 2: disks 4 and 5, half a turn apart
    EXPECT_EQ(out[0].replicas[0].disk, 4);
    EXPECT_EQ(out[0].replicas[1].disk, 5);
    const double a0 = angle_of(geo, geo.to_physical(out[0].replicas[0].extents[0].drive_lbn));
    const double a1 = angle_of(geo, geo.to_physical(out[0].replicas[1].extents[0].drive_lbn));
    EXPECT_NEAR(std::fabs(angle_gap(a1, a0)), 0.5, sector);
}

TEST(sr_mirror_layout, a_run_past_slot_zero_is_two_rotationally_contiguous_extents) {
    sr_mirror_layout l(raidtlm::test::cheetah9lp(), 6, {2, 3, 1, 128, 0});
    const auto &map = l.replica_map();
    const disk_layout &geo = map.drive_layout();
    const int spt = geo.sectors_per_track(0);
    for (int r = 0; r < 3; ++r) {
        std::vector<disk_extent> ext;
        map.extents(0, spt, r, 0, ext);  // one whole logical track
        int32_t total = 0;
        for (const auto &e : ext) total += e.sectors;
        EXPECT_EQ(total, spt);
        if (ext.size() == 2) {
            EXPECT_TRUE(ext[1].wraps_from_previous);
            const physical_address a = geo.to_physical(ext[0].drive_lbn + ext[0].sectors - 1);
            const physical_address b = geo.to_physical(ext[1].drive_lbn);
            EXPECT_EQ(a.slot, spt - 1);
            EXPECT_EQ(b.slot, 0);
            EXPECT_EQ(a.head, b.head);
        }
    }
}

TEST(sr_mirror_layout, shapes_that_do_not_fit_say_why) {
    EXPECT_EQ(error_of(6, {2, 3, 2, 128, 0}), "SR-Mirror 2×3×2 needs Ds×Dr×Dm = 12 disks; the array has 6");
    EXPECT_EQ(error_of(16, {1, 16, 1, 128, 0}),
              "Dr = 16 rotational replicas need 16 tracks per cylinder; the disk has 12 surfaces");
    EXPECT_EQ(error_of(10000, {10000, 1, 1, 128, 0}), "SR-Mirror 10000×1×1: Ds = 10000 leaves no cylinder of the disk's 6962");
    EXPECT_EQ(error_of(6, {2, 0, 3, 128, 0}), "SR-Mirror 2×0×3: Ds, Dr and Dm must be at least 1");
    EXPECT_EQ(error_of(6, {2, 3, 1, 0, 0}), "stripe unit of 0 sectors; expected a positive number");
}
