// D-SPTF's CLAIM timing (claim_protocol.h): when a brick picks ahead, how long it waits before
// the disk command under each protocol, and which brick yields after a duplicate.
#include <gtest/gtest.h>

#include "controller/families/bricks/claim_arbiter.h"
#include "controller/families/bricks/claim_protocol.h"

using namespace raidtlm::controller;

TEST(claim_timing, prescheduling_picks_two_latencies_before_the_predicted_status) {
    EXPECT_DOUBLE_EQ(pick_ahead_at_ms(10.0, 20.0, 1.0), 18.0);
    EXPECT_DOUBLE_EQ(pick_ahead_at_ms(10.0, 20.0, 0.05), 19.9);
    // A command predicted to end sooner than the round trip: the pick is now, not in the past.
    EXPECT_DOUBLE_EQ(pick_ahead_at_ms(10.0, 11.0, 1.0), 10.0);
}

TEST(claim_timing, the_wait_before_the_disk_command_depends_on_the_protocol) {
    EXPECT_DOUBLE_EQ(claim_wait_ms(claim_protocol::prescheduling, 0.75, 3.0), 1.5);
    EXPECT_DOUBLE_EQ(claim_wait_ms(claim_protocol::latency, 0.75, 3.0), 3.0);
    EXPECT_DOUBLE_EQ(claim_wait_ms(claim_protocol::latency_random_backoff, 0.75, 0.4), 0.4);
    EXPECT_DOUBLE_EQ(claim_wait_ms(claim_protocol::latency, 0.75, -1e-12), 0.0);
    EXPECT_DOUBLE_EQ(claim_wait_ms(claim_protocol::post_abort, 0.75, 3.0), 0.0);
}

TEST(claim_timing, protocol_properties_and_names_round_trip) {
    EXPECT_TRUE(picks_ahead(claim_protocol::prescheduling));
    EXPECT_FALSE(picks_ahead(claim_protocol::latency));
    EXPECT_TRUE(claims_before_issue(claim_protocol::latency));
    EXPECT_FALSE(claims_before_issue(claim_protocol::post_abort));
    EXPECT_TRUE(backs_off_at_random(claim_protocol::latency_random_backoff));
    EXPECT_FALSE(backs_off_at_random(claim_protocol::latency));
    for (claim_protocol p : {claim_protocol::prescheduling, claim_protocol::latency,
                             claim_protocol::latency_random_backoff, claim_protocol::post_abort})
        EXPECT_EQ(claim_protocol_named(to_string(p)), p);
    EXPECT_FALSE(claim_protocol_named("optimistic").has_value());
}

TEST(claim_timing, after_a_duplicate_only_the_brick_with_the_worse_bid_yields) {
    // Latency scheduling: both bricks issued the read before the other's CLAIM came.
    claim_arbiter b0(0), b1(1);
    b0.enqueue(9);
    b1.enqueue(9);
    const claim_bid c0 = b0.start_claim(9, 4.0);
    const claim_bid c1 = b1.start_claim(9, 2.5);
    ASSERT_TRUE(b0.may_issue(9));
    ASSERT_TRUE(b1.may_issue(9));
    EXPECT_EQ(b0.on_remote_claim(9, c1, 1.0), claim_arbiter::verdict::duplicate_should_yield);
    EXPECT_EQ(b1.on_remote_claim(9, c0, 1.0), claim_arbiter::verdict::duplicate);
    EXPECT_EQ(b0.stats().duplicates, 1u);
    EXPECT_EQ(b1.stats().duplicates, 1u);
}
