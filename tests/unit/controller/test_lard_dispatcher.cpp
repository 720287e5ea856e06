// Brick-based LARD's routing (lard_dispatcher.h).
#include <gtest/gtest.h>

#include "controller/families/bricks/lard_dispatcher.h"

using namespace raidtlm::controller;

TEST(lard_dispatcher, first_reads_go_to_the_least_loaded_replica_and_stay_there) {
    lard_dispatcher d(3, 8, 25, 65);
    EXPECT_EQ(d.route(0), 0);
    EXPECT_EQ(d.route(8), 1);
    EXPECT_EQ(d.route(16), 2);
    d.completed(1);
    EXPECT_EQ(d.route(24), 1);  // replica 1 has the fewest outstanding now
    EXPECT_EQ(d.route(3), 0);   // block 0 again: where it went, though replica 0 is not the least loaded
    EXPECT_EQ(d.outstanding(0), 2);
    EXPECT_EQ(d.reassignments(), 0u);
}

TEST(lard_dispatcher, an_overloaded_replica_loses_a_block_only_past_the_thresholds) {
    lard_dispatcher d(2, 8, 1, 2);  // adaptive: small thresholds
    EXPECT_EQ(d.route(0), 0);       // block 0 -> replica 0
    EXPECT_EQ(d.route(0), 0);       // load 1 -> 2: not above high
    EXPECT_EQ(d.route(0), 0);       // load 2 -> 3
    // Replica 0 has 3 > high 2 and replica 1 has 0 < low 1: block 0 moves.
    EXPECT_EQ(d.route(0), 1);
    EXPECT_EQ(d.reassignments(), 1u);
    EXPECT_EQ(d.route(0), 1);  // and stays
    lard_dispatcher pai(2, 8, 25, 65);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(pai.route(0), 0);  // 40 outstanding: below Pai et al.'s high
    EXPECT_EQ(pai.reassignments(), 0u);
}

TEST(lard_dispatcher, bad_thresholds_are_rejected) {
    EXPECT_THROW(lard_dispatcher(0, 8, 1, 2), std::invalid_argument);
    EXPECT_THROW(lard_dispatcher(2, 8, 3, 2), std::invalid_argument);
}
