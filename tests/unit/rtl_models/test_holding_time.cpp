// holding_time: a resource's holdings counted only for their part within [window start, now],
// whether booked ahead of the present or still open.
#include <gtest/gtest.h>

#include "rtl_models/common/holding_time.h"

using raidtlm::rtl_models::holding_time;

TEST(holding_time, booked_ahead_counts_only_up_to_now) {
    holding_time h(2);
    h.book(0, 1.0, 3.0, 1.0);
    EXPECT_DOUBLE_EQ(h.held_s(0, 2.0), 1.0);
    EXPECT_DOUBLE_EQ(h.held_s(0, 5.0), 2.0);
    EXPECT_DOUBLE_EQ(h.held_s(1, 5.0), 0.0);
}

TEST(holding_time, open_holding_counts_until_now_then_until_close) {
    holding_time h(2);
    h.open(1, 2.0);
    EXPECT_TRUE(h.is_open(1));
    EXPECT_DOUBLE_EQ(h.held_s(1, 1.0), 0.0);  // opens ahead of the present
    EXPECT_DOUBLE_EQ(h.held_s(1, 4.0), 2.0);
    h.close(1, 6.0, 4.0);  // closes ahead of the present
    EXPECT_FALSE(h.is_open(1));
    EXPECT_DOUBLE_EQ(h.held_s(1, 5.0), 3.0);
    EXPECT_DOUBLE_EQ(h.held_s(1, 9.0), 4.0);
}

TEST(holding_time, restart_keeps_what_lies_after_it) {
    holding_time h(3);
    h.book(0, 0.0, 1.0, 0.0);
    h.book(1, 1.0, 4.0, 1.0);  // straddles the restart
    h.open(2, 3.5);
    h.restart(2.0);
    EXPECT_DOUBLE_EQ(h.since_s(), 2.0);
    EXPECT_DOUBLE_EQ(h.held_s(0, 5.0), 0.0);
    EXPECT_DOUBLE_EQ(h.held_s(1, 3.0), 1.0);
    EXPECT_DOUBLE_EQ(h.held_s(1, 5.0), 2.0);
    EXPECT_DOUBLE_EQ(h.held_s(2, 5.0), 1.5);
    EXPECT_DOUBLE_EQ(h.total_s(5.0), 3.5);
}

TEST(holding_time, open_before_restart_counts_from_restart) {
    holding_time h(1);
    h.open(0, 1.0);
    h.restart(3.0);
    h.close(0, 4.0, 4.0);
    EXPECT_DOUBLE_EQ(h.held_s(0, 10.0), 1.0);
}

TEST(holding_time, a_holding_closed_ahead_of_a_restart_keeps_its_part_after_it) {
    holding_time h(2);
    h.open(0, 1.0);
    h.close(0, 2.4, 2.0);        // status ends 0.4 after the release at 2.0
    h.book(1, 2.4, 2.8, 2.0);    // the bus free delay, booked at the release
    h.restart(2.2);
    EXPECT_NEAR(h.held_s(0, 3.0), 0.2, 1e-12);
    EXPECT_NEAR(h.held_s(1, 3.0), 0.4, 1e-12);
}

TEST(holding_time, many_bookings_in_order_add_up) {
    holding_time h(2);
    double expected = 0;
    // Each booked as its start arrives; queries at a present no earlier than the last booking's.
    for (int i = 0; i <= 998; ++i) {
        h.book(i % 2, i * 1.0, i * 1.0 + 0.25, i * 1.0);
        if (i % 2 == 0) expected += 0.25;
    }
    EXPECT_NEAR(h.held_s(0, 998.1), expected - 0.25 + 0.1, 1e-9);  // the last booking is 998..998.25
    EXPECT_NEAR(h.held_s(0, 1000.0), expected, 1e-9);
    EXPECT_NEAR(h.total_s(1000.0), 999 * 0.25, 1e-9);
}
