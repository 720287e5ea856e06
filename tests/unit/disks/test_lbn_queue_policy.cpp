// DiskSim's LBN queue policies as one choice function (the drive's queue and the host's).
#include <vector>

#include <gtest/gtest.h>

#include "disks/lbn_queue_policy.h"

using raidtlm::disks::drive_scheduling;
using raidtlm::disks::pick_by_policy;

namespace {
size_t pick(const std::vector<int64_t> &lbns, drive_scheduling p, int64_t position, bool &ascending) {
    return pick_by_policy(lbns.size(), [&](size_t i) { return lbns[i]; }, p, position, ascending);
}
}  // namespace

TEST(lbn_queue_policy, each_policy_takes_its_request) {
    const std::vector<int64_t> q = {900, 100, 480, 20, 530};
    bool up = true;
    EXPECT_EQ(pick(q, drive_scheduling::fcfs, 500, up), 0u);
    EXPECT_EQ(pick(q, drive_scheduling::sstf_lbn, 500, up), 2u);       // 480 is 20 away, 530 30
    EXPECT_EQ(pick(q, drive_scheduling::cycle_lbn, 500, up), 4u);      // next upwards: 530
    EXPECT_EQ(pick(q, drive_scheduling::elevator_lbn, 500, up), 4u);
    EXPECT_TRUE(up);
    // Past the highest request: C-LOOK wraps to the lowest, the elevator turns round.
    EXPECT_EQ(pick(q, drive_scheduling::cycle_lbn, 950, up), 3u);
    EXPECT_TRUE(up);
    EXPECT_EQ(pick(q, drive_scheduling::elevator_lbn, 950, up), 0u);  // 900, now descending
    EXPECT_FALSE(up);
    EXPECT_EQ(pick(q, drive_scheduling::elevator_lbn, 500, up), 2u);  // 480, below, descending
}
