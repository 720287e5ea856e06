#include <gtest/gtest.h>

#include <stdexcept>

#include "controller/firmware_api/member_states.h"

using raidtlm::controller::member_state;
using raidtlm::controller::member_states;

TEST(member_states, losses_accumulate_and_a_rebuilding_member_is_not_failed) {
    member_states m(5);
    EXPECT_TRUE(m.all_optimal());
    EXPECT_EQ(m.first_failed(), -1);
    m.set(3, member_state::failed, 10);
    m.set(1, member_state::failed, 20);
    EXPECT_EQ(m.failed(), (std::vector<int>{1, 3}));
    EXPECT_EQ(m.first_failed(), 1);
    m.set(1, member_state::rebuilding, 30);
    EXPECT_EQ(m.failed(), (std::vector<int>{3}));
    EXPECT_TRUE(m.any(member_state::rebuilding));
    m.set_progress(1, 0.25);
    EXPECT_DOUBLE_EQ(m.progress(1), 0.25);
    m.set(1, member_state::optimal, 40);
    EXPECT_DOUBLE_EQ(m.progress(1), 0.0);
    ASSERT_EQ(m.history().size(), 4u);
    EXPECT_EQ(m.history()[2].state, member_state::rebuilding);
    EXPECT_DOUBLE_EQ(m.history()[2].at_ms, 30);
    EXPECT_FALSE(m.all_optimal());
}

TEST(member_states, the_single_failure_setter_leaves_one_failed_member_and_records_only_changes) {
    member_states m(3);
    m.set(0, member_state::failed, 1);
    m.set_only_failed(2, 2);
    EXPECT_EQ(m.failed(), (std::vector<int>{2}));
    m.set_only_failed(-1, 3);
    EXPECT_TRUE(m.all_optimal());
    m.set(0, member_state::optimal, 4);  // no change, not recorded
    EXPECT_EQ(m.history().size(), 4u);   // 0 failed, 0 optimal, 2 failed, 2 optimal
    EXPECT_THROW(m.set(3, member_state::failed, 5), std::invalid_argument);
    EXPECT_THROW(m.set_only_failed(-2, 5), std::invalid_argument);
}
