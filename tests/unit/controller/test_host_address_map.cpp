#include <vector>

#include <gtest/gtest.h>

#include "controller/kit/host_address_map.h"

using namespace raidtlm::controller;

TEST(host_address_map, jbod_concatenates_disks) {
    host_address_map m(host_layout::jbod, 64, {100, 200, 50});
    EXPECT_EQ(m.capacity_sectors(), 350u);
    std::vector<disk_fragment> f;
    m.map(0, 10, f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].disk, 0);
    EXPECT_EQ(f[0].lbn, 0u);
    m.map(150, 4, f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].disk, 1);
    EXPECT_EQ(f[0].lbn, 50u);
    // Across the boundary between disk 1 and disk 2.
    m.map(295, 10, f);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].disk, 1);
    EXPECT_EQ(f[0].lbn, 195u);
    EXPECT_EQ(f[0].sectors, 5u);
    EXPECT_EQ(f[1].disk, 2);
    EXPECT_EQ(f[1].lbn, 0u);
    EXPECT_EQ(f[1].sectors, 5u);
    EXPECT_EQ(f[1].host_offset, 5u);
}

TEST(host_address_map, stripe_round_robins_units) {
    host_address_map m(host_layout::stripe, 64, {1000, 1000, 1000, 1000});
    EXPECT_EQ(m.capacity_sectors(), 4u * 960u);  // 15 whole units per disk
    std::vector<disk_fragment> f;
    m.map(64 * 5 + 3, 8, f);  // unit 5 -> disk 1, disk unit 1
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].disk, 1);
    EXPECT_EQ(f[0].lbn, 64u + 3u);
    // 3 units' worth starting mid-unit: 4 pieces on disks 0, 1, 2, 3.
    m.map(32, 192, f);
    ASSERT_EQ(f.size(), 4u);
    uint32_t total = 0;
    for (size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(f[i].disk, static_cast<int>(i));
        EXPECT_EQ(f[i].host_offset, total);
        total += f[i].sectors;
    }
    EXPECT_EQ(total, 192u);
    EXPECT_EQ(f[0].lbn, 32u);
    EXPECT_EQ(f[0].sectors, 32u);
    EXPECT_EQ(f[3].lbn, 0u);
    EXPECT_EQ(f[3].sectors, 32u);
}

TEST(host_address_map, stripe_every_host_sector_lands_once) {
    host_address_map m(host_layout::stripe, 16, {200, 300, 250});
    std::vector<std::vector<int>> seen = {std::vector<int>(200), std::vector<int>(300), std::vector<int>(250)};
    std::vector<disk_fragment> f;
    for (uint64_t h = 0; h < m.capacity_sectors(); h += 7) {
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(7, m.capacity_sectors() - h));
        m.map(h, n, f);
        for (const auto &p : f)
            for (uint32_t s = 0; s < p.sectors; ++s) ++seen[p.disk][p.lbn + s];
    }
    for (int d = 0; d < 3; ++d)
        for (int s = 0; s < 192; ++s) EXPECT_EQ(seen[d][s], 1) << d << ":" << s;  // 12 units of 16
}

TEST(host_address_map, one_disk_stripe_merges_into_one_command) {
    host_address_map m(host_layout::stripe, 8, {100});
    std::vector<disk_fragment> f;
    m.map(4, 30, f);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].lbn, 4u);
    EXPECT_EQ(f[0].sectors, 30u);
}
