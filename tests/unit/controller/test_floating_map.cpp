// Floating data and parity's per-disk map (controller/families/floating/floating_map.h) on the IBM 0661 geometry:
// 48-sector tracks, 4-sector track skew, 14 tracks, 2 KB (4-sector) units: D = 12, T = 14.
#include <gtest/gtest.h>

#include "controller/families/floating/floating_map.h"
#include "controller/layouts/layout.h"
#include "disks/diskspec_loader.h"

using namespace raidtlm;
using controller::floating_map;

namespace {
const disks::disk_spec &ibm0661() {
    static const disks::disk_spec s =
        disks::load_diskspec(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/disks/ibm0661.diskspecs");
    return s;
}
const disks::disk_layout &geometry() {
    static const disks::disk_layout l(ibm0661());
    return l;
}
double period_ms() { return 60000.0 / ibm0661().mech.rpm; }
floating_map make() { return floating_map(geometry(), 4, ibm0661().mech.head_switch_ms, period_ms()); }
}  // namespace

TEST(FloatingMap, StartsWithTheLastTrackOfEveryCylinderFree) {
    const floating_map m = make();
    EXPECT_EQ(m.units_per_track(), 12);
    EXPECT_EQ(m.logical_units(), 949LL * 13 * 12);
    EXPECT_EQ(m.drive_lbn(0), 0);
    EXPECT_EQ(m.drive_lbn(155), 12 * 48 + 44);  // last unit of track 12
    EXPECT_EQ(m.drive_lbn(156), 14 * 48);       // cylinder 1 starts after the 14 tracks of cylinder 0
    EXPECT_EQ(m.free_slots(0), 12);
}

TEST(FloatingMap, MovesToTheSlotTheHeadReachesFirstAfterTheRead) {
    floating_map m = make();
    // Unit 0 (track 0, sectors 0-3) is read by angle 4/48; a head switch (= the 4-sector skew)
    // later the head can write on the free track 13, whose sector k starts at (k + 13*4)/48: its
    // unit at k = 4 starts at angle 8/48, just after the head is ready.
    auto mv = m.begin_move(0);
    ASSERT_TRUE(mv);
    EXPECT_TRUE(mv->head_switch);
    EXPECT_EQ(mv->new_drive_lbn, 13 * 48 + 4);
    EXPECT_LT(mv->wait_revolutions, 0.001);
    EXPECT_EQ(m.free_slots(0), 11);  // reserved while the write is in flight
    m.finish_move(*mv);
    EXPECT_EQ(m.drive_lbn(0), 13 * 48 + 4);
    EXPECT_EQ(m.free_slots(0), 12);  // the old slot (track 0, unit 0) is free now
    // Unit 1 (sectors 4-7 of track 0) ends at 8/48: the next reachable free slot is track 13's
    // unit at k = 8; the freed slot 0 on its own track is almost a revolution away.
    auto mv1 = m.begin_move(1);
    ASSERT_TRUE(mv1);
    EXPECT_EQ(mv1->new_drive_lbn, 13 * 48 + 8);
    EXPECT_LT(mv1->wait_revolutions, 0.001);
}

TEST(FloatingMap, PrefersTheSameTrackWhenItIsCloser) {
    floating_map m = make();
    // Free slot 2 of track 0 (sectors 8-11) by moving unit 2 away, then move unit 1 (sectors 4-7):
    // slot 2 follows it directly, no head switch, no wait.
    auto a = m.begin_move(2);
    ASSERT_TRUE(a);
    m.finish_move(*a);
    auto b = m.begin_move(1);
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->head_switch);
    EXPECT_EQ(b->new_drive_lbn, 8);
    EXPECT_LT(b->wait_revolutions, 1e-6);
}

TEST(FloatingMap, RunsOutOnlyWhenEveryFreeSlotIsReserved) {
    floating_map m = make();
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(m.begin_move(i)) << i;
    EXPECT_FALSE(m.begin_move(12));
    EXPECT_TRUE(m.begin_move(156));  // another cylinder
}

TEST(FloatingMap, ASlotWithACommandInFlightIsNeverTheTargetOfAMove) {
    floating_map m = make();
    // Same as PrefersTheSameTrackWhenItIsCloser, but a read of unit 2's old slot (sectors 8-11)
    // is still in flight when unit 2 has moved away: unit 1 must not be written over it.
    auto a = m.begin_move(2);
    ASSERT_TRUE(a);
    m.hold(9);  // a command translated to the slot of sectors 8-11
    EXPECT_EQ(m.holds(8), 1);
    m.finish_move(*a);
    auto b = m.begin_move(1);
    ASSERT_TRUE(b);
    EXPECT_NE(b->new_drive_lbn, 8);
    m.release(11);
    EXPECT_EQ(m.holds(8), 0);
    EXPECT_THROW(m.release(8), std::logic_error);
    m.finish_move(*b);
    EXPECT_EQ(m.free_slots(0), 12);
}

TEST(FloatingMap, TablesAreThePapersSize) {
    const floating_map m = make();
    EXPECT_EQ(m.bitmask_bits() + m.location_table_bits(), 1343784);  // Section 4, per disk
}

TEST(FloatingMap, RefusesUnitsThatDoNotTileATrack) {
    EXPECT_THROW(floating_map(geometry(), 5, 1.158, period_ms()), controller::layout_error);
}
