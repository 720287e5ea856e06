#include <gtest/gtest.h>

#include <set>

#include "controller/layouts/parity_layout.h"

using namespace raidtlm::controller;

namespace {

constexpr int P = -1;
using table = std::vector<std::vector<int>>;  // [stripe][disk]: data unit number or P

table placement_table(parity_placement placement, int stripes) {
    parity_layout l(std::vector<int64_t>(5, 1000), 10, placement);
    table t;
    for (int s = 0; s < stripes; ++s) {
        std::vector<int> row;
        for (int d = 0; d < 5; ++d) {
            const int j = l.data_unit_on_disk(s, d);
            row.push_back(j < 0 ? P : s * 4 + j);
        }
        t.push_back(row);
    }
    return t;
}

}  // namespace

TEST(parity_layout, left_symmetric_matches_the_textbook_table) {
    const table expected{{0, 1, 2, 3, P}, {5, 6, 7, P, 4}, {10, 11, P, 8, 9}, {15, P, 12, 13, 14}, {P, 16, 17, 18, 19},
                         {20, 21, 22, 23, P}};
    EXPECT_EQ(placement_table(parity_placement::left_symmetric, 6), expected);
}

TEST(parity_layout, left_asymmetric_table) {
    const table expected{{0, 1, 2, 3, P}, {4, 5, 6, P, 7}, {8, 9, P, 10, 11}, {12, P, 13, 14, 15}, {P, 16, 17, 18, 19}};
    EXPECT_EQ(placement_table(parity_placement::left_asymmetric, 5), expected);
}

TEST(parity_layout, right_symmetric_table) {
    const table expected{{P, 0, 1, 2, 3}, {7, P, 4, 5, 6}, {10, 11, P, 8, 9}, {13, 14, 15, P, 12}, {16, 17, 18, 19, P}};
    EXPECT_EQ(placement_table(parity_placement::right_symmetric, 5), expected);
}

TEST(parity_layout, right_asymmetric_table) {
    const table expected{{P, 0, 1, 2, 3}, {4, P, 5, 6, 7}, {8, 9, P, 10, 11}, {12, 13, 14, P, 15}, {16, 17, 18, 19, P}};
    EXPECT_EQ(placement_table(parity_placement::right_asymmetric, 5), expected);
}

TEST(parity_layout, raid4_keeps_parity_on_the_last_disk) {
    const table expected{{0, 1, 2, 3, P}, {4, 5, 6, 7, P}, {8, 9, 10, 11, P}};
    EXPECT_EQ(placement_table(parity_placement::dedicated, 3), expected);
}

TEST(parity_layout, map_round_trips_for_every_rotation) {
    for (auto placement : {parity_placement::dedicated, parity_placement::left_symmetric, parity_placement::left_asymmetric,
                           parity_placement::right_symmetric, parity_placement::right_asymmetric}) {
        parity_layout l(std::vector<int64_t>{40, 44, 41, 40}, 4, placement);
        EXPECT_EQ(l.capacity_sectors(), 10 * 3 * 4);
        std::set<std::pair<int, int64_t>> used;
        std::vector<chunk> out;
        for (int64_t lbn = 0; lbn < l.capacity_sectors(); ++lbn) {
            l.map(lbn, 1, out);
            ASSERT_EQ(out.size(), 1u);
            const replica &r = out[0].replicas[0];
            const int64_t stripe = l.stripe_of(lbn);
            EXPECT_NE(r.disk, l.parity_disk(stripe));
            EXPECT_EQ(r.extents[0].drive_lbn, l.drive_lbn_of(lbn));
            EXPECT_EQ(l.logical_lbn(stripe, l.data_unit_on_disk(stripe, r.disk), lbn % 4), lbn);
            EXPECT_TRUE(used.insert({r.disk, r.extents[0].drive_lbn}).second);
        }
        // Data and parity together fill every disk's used units exactly once.
        for (int64_t s = 0; s < l.stripes(); ++s)
            for (int64_t o = 0; o < 4; ++o) EXPECT_TRUE(used.insert({l.parity_disk(s), s * 4 + o}).second);
        EXPECT_EQ(used.size(), size_t(4 * 40));
    }
}

TEST(parity_layout, names_and_errors) {
    EXPECT_EQ(parse_parity_placement("right-asymmetric"), parity_placement::right_asymmetric);
    EXPECT_EQ(to_string(parity_placement::left_symmetric), "left-symmetric");
    try {
        parse_parity_placement("left");
        FAIL();
    } catch (const layout_error &e) {
        EXPECT_STREQ(e.what(), "unknown parity placement 'left'; expected one of dedicated, left-symmetric, "
                               "left-asymmetric, right-symmetric, right-asymmetric");
    }
    try {
        parity_layout({100, 100}, 8);
        FAIL();
    } catch (const layout_error &e) {
        EXPECT_STREQ(e.what(), "RAID 5 needs at least 3 disks; the array has 2");
    }
    EXPECT_EQ(parity_layout(std::vector<int64_t>(5, 640), 64).describe(),
              "RAID 5 left-symmetric, 5 disks, 64-sector stripe unit");
}
