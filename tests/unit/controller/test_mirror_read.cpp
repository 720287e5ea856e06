#include <gtest/gtest.h>

#include <cstdlib>

#include "controller/kit/queues/duplicate_request_tracker.h"
#include "controller/kit/queues/mirror_read_router.h"

using namespace raidtlm::controller;

namespace {
replica on(int disk, int64_t lbn) { return {disk, disk, {{lbn, 1, false}}}; }
}  // namespace

TEST(mirror_read_router, sends_to_the_idle_holder_closest_to_its_copy) {
    const std::vector<replica> copies{on(0, 100), on(1, 100), on(2, 100)};
    const std::vector<int> head_cyl{90, 10, 99};
    auto cost = [&](const replica &r) { return double(std::abs(head_cyl[size_t(r.disk)] - 100)); };
    auto r = route_mirror_read(copies, [](int d) { return d != 2; }, cost);  // disk 2 is closest but busy
    EXPECT_FALSE(r.duplicate);
    EXPECT_EQ(r.replica, 0u);
    r = route_mirror_read(copies, [](int) { return true; }, cost);
    EXPECT_EQ(r.replica, 2u);
    r = route_mirror_read(copies, [](int) { return false; }, cost);
    EXPECT_TRUE(r.duplicate);
}

TEST(duplicate_request_tracker, the_first_disk_to_schedule_wins_and_cancels_the_rest) {
    duplicate_request_tracker t;
    t.add(7, {0, 1, 2});
    EXPECT_EQ(t.tracked(), 1u);
    const auto won = t.scheduled(7, 1);
    EXPECT_TRUE(won.won);
    EXPECT_EQ(won.cancel_on, (std::vector<int>{0, 2}));
    // Disk 2 picks it before its cancellation arrived: it must drop its copy.
    EXPECT_FALSE(t.scheduled(7, 2).won);
    t.cancelled(7, 2);
    EXPECT_EQ(t.tracked(), 1u);
    t.cancelled(7, 0);
    EXPECT_EQ(t.tracked(), 0u);
    // A request never duplicated is simply won.
    const auto single = t.scheduled(8, 3);
    EXPECT_TRUE(single.won);
    EXPECT_TRUE(single.cancel_on.empty());
}
