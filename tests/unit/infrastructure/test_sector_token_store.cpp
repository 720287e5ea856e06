#include <gtest/gtest.h>

#include <map>
#include <random>

#include "controller/platform/scoreboard.h"
#include "tlm/sector_token_store.h"

using raidtlm::protocol::sector_token_store;

TEST(sector_token_store, never_written_sectors_read_zero_and_cost_no_page) {
    sector_token_store s;
    EXPECT_EQ(s.get(0), 0u);
    EXPECT_EQ(s.get(17783239), 0u);
    EXPECT_EQ(s.get(-5), 0u);
    s.set(100, 0);  // writing what a missing page holds allocates nothing
    EXPECT_EQ(s.pages(), 0u);
}

TEST(sector_token_store, a_write_lands_in_its_sector_only) {
    sector_token_store s;
    s.set(9, 0xabc);
    EXPECT_EQ(s.get(9), 0xabcu);
    EXPECT_EQ(s.get(8), 0u);
    EXPECT_EQ(s.get(10), 0u);
    EXPECT_EQ(s.get(9 + sector_token_store::page_sectors), 0u);
    s.set(9, 0xdef);  // overwrite
    EXPECT_EQ(s.get(9), 0xdefu);
    EXPECT_EQ(s.pages(), 1u);
}

TEST(sector_token_store, an_aligned_small_write_fills_one_page) {
    sector_token_store s;
    for (int64_t i = 0; i < sector_token_store::page_sectors; ++i) s.set(4096 + i, uint64_t(i + 1));
    EXPECT_EQ(s.pages(), 1u);
    s.set(4096 + sector_token_store::page_sectors, 1);
    EXPECT_EQ(s.pages(), 2u);
}

TEST(sector_token_store, pages_straddle_zero_and_negative_addresses) {
    sector_token_store s;
    s.set(-1, 1);
    s.set(0, 2);
    s.set(-sector_token_store::page_sectors, 3);
    s.set(-sector_token_store::page_sectors - 1, 4);
    EXPECT_EQ(s.get(-1), 1u);
    EXPECT_EQ(s.get(0), 2u);
    EXPECT_EQ(s.get(-sector_token_store::page_sectors), 3u);
    EXPECT_EQ(s.get(-sector_token_store::page_sectors - 1), 4u);
    EXPECT_EQ(s.pages(), 3u);
}

// The store against a plain map under random interleaved reads and writes of runs, the way
// requests use it (consecutive sectors, so the remembered last page is exercised and must not go
// stale when another page is created).
TEST(sector_token_store, agrees_with_a_map_under_random_runs) {
    sector_token_store s;
    std::map<int64_t, uint64_t> reference;
    std::mt19937_64 rng(7);
    for (int op = 0; op < 20000; ++op) {
        const int64_t start = int64_t(rng() % 100000) - 50000;
        const int64_t n = 1 + int64_t(rng() % 40);
        const bool write = rng() % 3 == 0;
        for (int64_t i = 0; i < n; ++i) {
            if (write) {
                const uint64_t t = rng();
                s.set(start + i, t);
                reference[start + i] = t;
            } else {
                auto it = reference.find(start + i);
                ASSERT_EQ(s.get(start + i), it == reference.end() ? 0 : it->second) << "sector " << start + i;
            }
        }
    }
    for (const auto &[lbn, t] : reference) ASSERT_EQ(s.get(lbn), t);
    // Memory: pages only where something was written.
    EXPECT_LE(s.sectors_covered(), int64_t(reference.size()) * sector_token_store::page_sectors);
}

TEST(scoreboard, reads_check_against_the_last_acknowledged_token_in_the_compact_store) {
    raidtlm::controller::scoreboard sb;
    EXPECT_TRUE(sb.check_read(5, 0));  // never written
    sb.write_issued(5, 11);
    EXPECT_TRUE(sb.check_read(5, 11));  // the write in flight may be seen
    EXPECT_TRUE(sb.check_read(5, 0));   // or the old data
    sb.write_acknowledged(5, 11);
    EXPECT_FALSE(sb.check_read(5, 0));
    EXPECT_TRUE(sb.check_read(5, 11));
    EXPECT_EQ(sb.expected(5), 11u);
    EXPECT_EQ(sb.expected(6), 0u);
    EXPECT_EQ(sb.integrity_errors(), 1u);
}

// Memory is bounded by the address space touched, not by the number of writes: covering a range
// costs ~8.5 bytes a sector, and writing it over again costs nothing more.
TEST(sector_token_store, memory_is_bounded_by_the_space_written_not_by_the_writes) {
    sector_token_store s;
    const int64_t space = 1 << 20;  // 512 MB of sectors
    std::mt19937_64 rng(11);
    for (int64_t lbn = 0; lbn < space; ++lbn) s.set(lbn, rng() | 1);
    const size_t covered = s.bytes();
    EXPECT_EQ(s.sectors_covered(), space);
    EXPECT_LE(double(covered), 8.6 * double(space) + 256 * 1024) << "bytes a sector: " << double(covered) / double(space);
    for (int round = 0; round < 4; ++round)
        for (int64_t i = 0; i < space / 4; ++i) s.set(int64_t(rng() % uint64_t(space)), rng() | 1);
    EXPECT_EQ(s.bytes(), covered);
}

// Sparse small writes over a large space pay their pages and the leaves they touch, far less
// than the space: 1,000 4 KB writes spread over 70 GB.
TEST(sector_token_store, sparse_writes_pay_for_what_they_touch) {
    sector_token_store s;
    const int64_t space = 137'000'000;
    for (int64_t i = 0; i < 1000; ++i)
        for (int64_t k = 0; k < sector_token_store::page_sectors; ++k)
            s.set(i * (space / 1000) / sector_token_store::page_sectors * sector_token_store::page_sectors + k, 1);
    EXPECT_EQ(s.pages(), 1000u);
    // Pages and leaves (one slab each), the directory over the span (4 bytes per leaf range).
    EXPECT_LE(s.bytes(), 2 * 64 * 1024 + 2 * size_t(space / sector_token_store::leaf_sectors) * 4 + 4096);
}

// A failed write leaves its sectors undetermined (old or new data) until a later write is
// acknowledged over them; the scoreboard then forgets it, so failures do not pile up.
TEST(scoreboard, a_failed_write_is_accepted_until_written_over_and_then_forgotten) {
    raidtlm::controller::scoreboard sb;
    sb.write_issued(7, 1);
    sb.write_acknowledged(7, 1);
    sb.write_issued(7, 2);
    sb.write_failed(7, 2);
    EXPECT_TRUE(sb.check_read(7, 1));
    EXPECT_TRUE(sb.check_read(7, 2));
    EXPECT_EQ(sb.writes_pending(), 1u);
    sb.write_issued(7, 3);
    sb.write_issued(7, 4);  // another write in flight stays pending
    sb.write_acknowledged(7, 3);
    EXPECT_FALSE(sb.check_read(7, 2));
    EXPECT_TRUE(sb.check_read(7, 3));
    EXPECT_TRUE(sb.check_read(7, 4));
    EXPECT_EQ(sb.writes_pending(), 1u);
    sb.write_acknowledged(7, 4);
    EXPECT_EQ(sb.writes_pending(), 0u);
    EXPECT_EQ(sb.integrity_errors(), 1u);
}

// A sector no write reaches again (a stripe that lost two members) collects the token of every
// write that fails there: each stays acceptable until a write is acknowledged over the sector.
TEST(scoreboard, every_failed_write_of_a_sector_stays_acceptable_until_written_over) {
    raidtlm::controller::scoreboard sb;
    sb.write_issued(9, 1);
    sb.write_acknowledged(9, 1);
    for (uint64_t t = 100; t < 1100; ++t) {
        sb.write_issued(9, t);
        sb.write_failed(9, t);
    }
    EXPECT_EQ(sb.writes_pending(), 1000u);
    for (uint64_t t = 100; t < 1100; ++t) EXPECT_TRUE(sb.check_read(9, t));
    EXPECT_TRUE(sb.check_read(9, 1));
    EXPECT_FALSE(sb.check_read(9, 99));
    sb.write_issued(9, 5);
    sb.write_acknowledged(9, 5);
    EXPECT_EQ(sb.writes_pending(), 0u);
    EXPECT_FALSE(sb.check_read(9, 100));
    EXPECT_EQ(sb.integrity_errors(), 2u);
}
