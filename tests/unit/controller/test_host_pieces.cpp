// The sizes of a host request's pieces (controller/kit/host_pieces.h) and the lost-sector range set
// (controller/kit/sector_ranges.h).
#include <stdexcept>

#include <gtest/gtest.h>

#include "controller/kit/host_pieces.h"
#include "controller/kit/sector_ranges.h"

using namespace raidtlm::controller;

TEST(host_pieces, a_piece_is_a_quarter_of_the_dram_in_whole_stripes) {
    // 1 MiB: at most 512 sectors a piece; stripes of 3 x 16 sectors: 10 stripes (480 sectors).
    const host_piece_limits l = plan_host_pieces(1 << 20, 48, 16, 11 * 16 * 512);
    EXPECT_EQ(l.piece_sectors, 480u);
    EXPECT_EQ(l.staging_bytes, (1u << 20) - 11 * 16 * 512);
    // A stripe larger than a piece: whole units.
    EXPECT_EQ(plan_host_pieces(1 << 20, 1000, 96, 0).piece_sectors, 480u);
    // A unit larger than a piece: any number of sectors.
    EXPECT_EQ(plan_host_pieces(1 << 20, 0, 1000, 0).piece_sectors, 512u);
    // A DRAM of unlimited size bounds nothing.
    EXPECT_EQ(plan_host_pieces(0, 48, 16, 1 << 30).piece_sectors, 0u);
}

TEST(host_pieces, a_piece_leaves_room_for_the_largest_work_buffer) {
    // 1 MiB, work of 900 KiB: a piece of at most 124 KiB (248 sectors), in 16-sector units.
    const host_piece_limits l = plan_host_pieces(1 << 20, 0, 16, 900 << 10);
    EXPECT_EQ(l.piece_sectors, 240u);
    EXPECT_GE(l.staging_bytes, l.piece_sectors * 512);
    EXPECT_LE(l.piece_sectors * 512 + (900u << 10), 1u << 20);
    // Not even a sector beside the work buffer: refused, naming the keys.
    try {
        plan_host_pieces(1 << 20, 0, 2048, 1 << 20);
        FAIL() << "no error";
    } catch (const host_piece_error &e) {
        EXPECT_EQ(e.key(), "controller.dram.capacity_mib");
        EXPECT_NE(std::string(e.what()).find("stripe_unit_sectors"), std::string::npos);
    }
}

TEST(host_pieces, a_request_no_larger_than_a_piece_is_one_piece_wherever_it_lies) {
    EXPECT_EQ(host_piece_length(470, 570, 100, 480), 100u);  // crosses a boundary, fits a piece
    // Larger: cut at multiples of the piece, in address order.
    EXPECT_EQ(host_piece_length(470, 1470, 1000, 480), 10u);
    EXPECT_EQ(host_piece_length(480, 1470, 1000, 480), 480u);
    EXPECT_EQ(host_piece_length(1440, 1470, 1000, 480), 30u);
    EXPECT_EQ(host_piece_length(0, 1 << 30, 1 << 30, 0), 1u << 30);  // unbounded
}

TEST(sector_ranges, merges_erases_and_overlaps) {
    sector_ranges r;
    r.insert(10, 20);
    r.insert(20, 30);  // touching: merged
    r.insert(40, 50);
    EXPECT_EQ(r.ranges(), 2u);
    EXPECT_EQ(r.sectors(), 30);
    EXPECT_TRUE(r.overlaps(29, 31));
    EXPECT_FALSE(r.overlaps(30, 40));
    EXPECT_TRUE(r.overlaps(0, 11));
    EXPECT_TRUE(r.covers(12, 30));
    EXPECT_FALSE(r.covers(12, 31));
    EXPECT_FALSE(r.covers(5, 12));
    r.erase(15, 45);  // trims both
    EXPECT_EQ(r.ranges(), 2u);
    EXPECT_EQ(r.sectors(), 10);
    EXPECT_FALSE(r.overlaps(15, 45));
    EXPECT_TRUE(r.overlaps(14, 15));
    EXPECT_TRUE(r.overlaps(45, 46));
    r.erase(12, 13);  // splits
    EXPECT_EQ(r.ranges(), 3u);
    EXPECT_FALSE(r.overlaps(12, 13));
    r.insert(0, 100);  // covers all
    EXPECT_EQ(r.ranges(), 1u);
    EXPECT_EQ(r.sectors(), 100);
    r.erase(0, 100);
    EXPECT_TRUE(r.empty());
}

TEST(sector_ranges, a_million_lost_units_cost_a_range_each_at_most) {
    // Two lost units in every stripe of 3 x 64 sectors: units 0 and 1 touch, so one range a stripe.
    sector_ranges r;
    for (int64_t s = 0; s < 1'000'000; ++s) {
        r.insert(s * 192, s * 192 + 64);
        r.insert(s * 192 + 64, s * 192 + 128);
    }
    EXPECT_EQ(r.ranges(), 1'000'000u);
    EXPECT_EQ(r.sectors(), 128'000'000);
}
