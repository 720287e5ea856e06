#include <gtest/gtest.h>

#include <map>
#include <set>

#include "controller/layouts/raid10_layout.h"
#include "layout_error_text.h"

using namespace raidtlm::controller;

namespace {

// Maps every logical sector one at a time and checks each replica is where a whole-range map
// puts it, that no two logical sectors share a place and every place is on its disk.
void expect_round_trip(const layout &l, const std::vector<int64_t> &disk_sectors) {
    std::map<std::pair<int, int64_t>, int64_t> owner;
    std::vector<chunk> one, all;
    l.map(0, int32_t(l.capacity_sectors()), all);
    int64_t next = 0;
    for (const chunk &c : all) {
        EXPECT_EQ(c.lbn, next);
        next += c.sectors;
        ASSERT_EQ(int(c.replicas.size()), l.copies());
        for (const replica &r : c.replicas) {
            EXPECT_EQ(r.sectors(), c.sectors);
            int64_t logical = c.lbn;
            for (const disk_extent &e : r.extents) {
                for (int i = 0; i < e.sectors; ++i, ++logical) {
                    const auto place = std::make_pair(r.disk, e.drive_lbn + i);
                    ASSERT_LT(place.second, disk_sectors[size_t(r.disk)]);
                    ASSERT_TRUE(owner.emplace(place, logical).second) << "two sectors at disk " << r.disk << " lbn " << place.second;
                    l.map(logical, 1, one);
                    ASSERT_EQ(one.size(), 1u);
                    bool found = false;
                    for (const replica &o : one[0].replicas)
                        found |= o.disk == r.disk && o.extents[0].drive_lbn == place.second;
                    EXPECT_TRUE(found);
                }
            }
        }
    }
    EXPECT_EQ(next, l.capacity_sectors());
}

}  // namespace

TEST(raid10_layout, raid0_round_robins_units_over_disks) {
    const std::vector<int64_t> disks{100, 90, 100};
    auto l = raid10_layout::raid0(disks, 8);
    EXPECT_EQ(l.capacity_sectors(), 3 * 88);  // 11 whole units of the smallest disk
    EXPECT_EQ(l.copies(), 1);
    std::vector<chunk> out;
    l.map(8 * 4 + 3, 10, out);  // unit 4 (disk 1, row 1) offset 3, into unit 5 (disk 2, row 1)
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].replicas[0].disk, 1);
    EXPECT_EQ(out[0].replicas[0].extents[0].drive_lbn, 8 + 3);
    EXPECT_EQ(out[0].sectors, 5);
    EXPECT_EQ(out[1].replicas[0].disk, 2);
    EXPECT_EQ(out[1].replicas[0].extents[0].drive_lbn, 8);
    EXPECT_EQ(out[1].sectors, 5);
    expect_round_trip(l, disks);
}

TEST(raid10_layout, raid1_puts_every_sector_on_every_disk_at_the_same_lbn) {
    const std::vector<int64_t> disks{50, 60, 55};
    auto l = raid10_layout::raid1(disks);
    EXPECT_EQ(l.capacity_sectors(), 50);
    EXPECT_EQ(l.copies(), 3);
    std::vector<chunk> out;
    l.map(10, 40, out);
    ASSERT_EQ(out.size(), 1u);
    for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(out[0].replicas[size_t(d)].disk, d);
        EXPECT_EQ(out[0].replicas[size_t(d)].extents[0].drive_lbn, 10);
    }
    expect_round_trip(l, disks);
}

TEST(raid10_layout, raid10_stripes_over_mirrored_pairs) {
    const std::vector<int64_t> disks(6, 64);
    auto l = raid10_layout::raid10(disks, 2, 4);
    EXPECT_EQ(l.columns(), 3);
    EXPECT_EQ(l.capacity_sectors(), 3 * 64);
    std::vector<chunk> out;
    l.map(4 * 5 + 1, 1, out);  // unit 5: column 2 (disks 4, 5), row 1
    ASSERT_EQ(out[0].replicas.size(), 2u);
    EXPECT_EQ(out[0].replicas[0].disk, 4);
    EXPECT_EQ(out[0].replicas[1].disk, 5);
    EXPECT_EQ(out[0].replicas[1].copy, 1);
    EXPECT_EQ(out[0].replicas[1].extents[0].drive_lbn, 4 + 1);
    expect_round_trip(l, disks);
}

TEST(raid10_layout, layouts_that_do_not_fit_say_why) {
    const auto message = [](auto make) { return layout_error_text(make); };
    EXPECT_EQ(message([] { raid10_layout::raid1({100}); }), "RAID 1 needs at least 2 disks; the array has 1");
    EXPECT_EQ(message([] { raid10_layout::raid10(std::vector<int64_t>(5, 100), 2, 8); }),
              "RAID 10 with 2-way mirrors needs a multiple of 2 disks; the array has 5");
    EXPECT_EQ(message([] { raid10_layout::raid0({100, 40}, 64); }),
              "stripe unit of 64 sectors exceeds the smallest disk's 40 sectors");
    EXPECT_EQ(message([] { raid10_layout::raid0({100, 40}, 0); }), "stripe unit of 0 sectors; expected a positive number");
    EXPECT_EQ(message([] { raid10_layout::raid0({}, 8); }), "RAID 0 needs at least 1 disk; the array has 0");
}

TEST(raid10_layout, ranges_beyond_the_array_are_refused) {
    auto l = raid10_layout::raid0({16, 16}, 4);
    std::vector<chunk> out;
    EXPECT_THROW(l.map(30, 3, out), std::out_of_range);
    EXPECT_THROW(l.map(-1, 1, out), std::out_of_range);
    EXPECT_NO_THROW(l.map(29, 3, out));
}
