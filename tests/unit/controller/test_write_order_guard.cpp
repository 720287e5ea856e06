#include <vector>

#include <gtest/gtest.h>

#include "controller/kit/write_order_guard.h"

using raidtlm::controller::write_order_guard;

TEST(write_order_guard, a_write_waits_only_for_earlier_overlapping_writes_on_its_disk) {
    write_order_guard g;
    const uint64_t a = g.enter(1, 100, 8);
    const uint64_t b = g.enter(1, 104, 8);  // overlaps a
    const uint64_t c = g.enter(2, 100, 8);  // same sectors, other disk
    const uint64_t d = g.enter(1, 108, 4);  // overlaps b only
    const uint64_t e = g.enter(1, 112, 4);  // touches nobody (b ends at 112)
    EXPECT_FALSE(g.must_wait(a));
    EXPECT_TRUE(g.must_wait(b));
    EXPECT_FALSE(g.must_wait(c));
    EXPECT_TRUE(g.must_wait(d));
    EXPECT_FALSE(g.must_wait(e));
    g.leave(a);
    EXPECT_FALSE(g.must_wait(b));
    EXPECT_TRUE(g.must_wait(d));  // b is still earlier
    g.leave(b);
    EXPECT_FALSE(g.must_wait(d));
    EXPECT_EQ(g.size(), 3u);
    // An earlier write never waits for a later one.
    const uint64_t f = g.enter(2, 0, 1000);
    EXPECT_FALSE(g.must_wait(c));
    EXPECT_TRUE(g.must_wait(f));
}

TEST(write_order_guard, overlaps_any_says_what_a_write_entered_now_would_wait_for) {
    write_order_guard g;
    const uint64_t a = g.enter(0, 100, 8);
    g.enter(0, 200, 8);
    EXPECT_TRUE(g.overlaps_any(0, 104, 1));
    EXPECT_FALSE(g.overlaps_any(0, 108, 92));  // between the two
    EXPECT_FALSE(g.overlaps_any(1, 100, 8));   // other disk
    g.leave(a);
    EXPECT_FALSE(g.overlaps_any(0, 104, 1));
    EXPECT_TRUE(g.overlaps_any(0, 207, 10));
}

TEST(write_order_guard, entries_leaving_out_of_order_keep_every_ticket_and_order_right) {
    // Thousands of entries leaving in an order unlike their entry (the middle is compacted):
    // every live ticket is still found and still waits exactly for its earlier overlaps.
    write_order_guard g;
    std::vector<uint64_t> live;
    for (int round = 0; round < 2000; ++round) {
        live.push_back(g.enter(0, round % 50, 1));
        if (live.size() > 20) {  // leave the second-oldest: the oldest stays, so nothing pops at the front
            g.leave(live[1]);
            live.erase(live.begin() + 1);
        }
    }
    EXPECT_EQ(g.size(), live.size());
    EXPECT_FALSE(g.must_wait(live.front()));
    for (size_t i = 1; i < live.size(); ++i) {
        // Entries of the same sector (round % 50) are 50 rounds apart: none of the live ones overlap
        // but the oldest, entered at round 0 at sector 0, with the one at sector 0.
        bool expect = false;
        for (size_t k = 0; k < i; ++k) expect = expect || (live[k] % 50) == (live[i] % 50);
        EXPECT_EQ(g.must_wait(live[i]), expect) << i;
    }
    g.leave(live.front());
    EXPECT_FALSE(g.must_wait(live[1]));
}
