#include <gtest/gtest.h>

#include <stdexcept>

#include "controller/kit/rebuild/rebuild_cursor.h"
#include "controller/kit/rebuild/rebuild_pacing.h"

using raidtlm::controller::rebuild_cursor;
using raidtlm::controller::rebuild_pacing;

TEST(rebuild_cursor, units_below_the_cursor_are_rebuilt_and_only_those) {
    rebuild_cursor c(4);
    EXPECT_FALSE(c.rebuilt(0));
    c.advance();
    c.advance();
    EXPECT_TRUE(c.rebuilt(1));
    EXPECT_FALSE(c.rebuilt(2));
    EXPECT_DOUBLE_EQ(c.fraction(), 0.5);
    c.advance();
    c.advance();
    EXPECT_TRUE(c.done());
    EXPECT_THROW(c.advance(), std::logic_error);
    c.restart();
    EXPECT_FALSE(c.rebuilt(0));
}

TEST(rebuild_cursor, a_second_loss_loses_exactly_the_unrebuilt_units_that_need_both_members) {
    rebuild_cursor c(10);
    for (int i = 0; i < 3; ++i) c.advance();
    // Units 5 and 8 do not need the second member (e.g. narrower AdaptRaid5 stripes).
    const auto lost = c.lost_units([](uint64_t u) { return u != 5 && u != 8; });
    using run = std::pair<uint64_t, uint64_t>;
    EXPECT_EQ(lost, (std::vector<run>{{3, 5}, {6, 8}, {9, 10}}));
    while (!c.done()) c.advance();
    EXPECT_TRUE(c.lost_units([](uint64_t) { return true; }).empty());
}

TEST(rebuild_pacing, the_share_and_the_rate_cap_each_set_the_pause) {
    rebuild_pacing p;  // 30%: 7/3 of the busy time idle
    EXPECT_NEAR(p.idle_after_ms(3, 0), 7, 1e-9);
    p.share = 1;
    EXPECT_DOUBLE_EQ(p.idle_after_ms(3, 1 << 20), 0);
    p.rate_mb_s = 1;  // 1 MB per second: 10^6 bytes take 1000 ms in all
    EXPECT_NEAR(p.idle_after_ms(100, 1000000), 900, 1e-9);
    p.share = 0.5;    // the larger pause wins
    EXPECT_NEAR(p.idle_after_ms(600, 1000000), 600, 1e-9);
}
