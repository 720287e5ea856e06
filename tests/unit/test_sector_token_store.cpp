#include <gtest/gtest.h>

#include <map>
#include <random>

#include "controller/scoreboard.h"
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
