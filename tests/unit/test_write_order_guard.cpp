#include <gtest/gtest.h>

#include "controller/write_order_guard.h"

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
