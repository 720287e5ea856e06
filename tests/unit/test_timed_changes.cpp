#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "waveforms/timed_changes.h"

using raidtlm::waveforms::timed_changes;

TEST(timed_changes, same_instant_changes_apply_in_the_order_scheduled) {
    // Many changes at one instant: a binary heap ordered by time alone hands these out in an
    // order of its own; the last one scheduled must be the state left behind.
    timed_changes<double, int> q;
    for (int i = 0; i < 100; ++i) q.push(5.0, i);
    std::vector<int> seen;
    q.apply_due(5.0, [&](int c) { seen.push_back(c); });
    ASSERT_EQ(seen.size(), 100u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[i], i);
    EXPECT_TRUE(q.empty());
}

TEST(timed_changes, earlier_times_first_and_only_what_is_due) {
    timed_changes<double, std::string> q;
    q.push(3.0, "transfer");
    q.push(1.0, "seek");
    q.push(2.0, "rotate");
    q.push(1.0, "idle-after-seek?");  // scheduled after "seek" for the same instant: comes after it
    q.push(4.0, "idle");
    std::vector<std::string> seen;
    q.apply_due(2.5, [&](const std::string &c) { seen.push_back(c); });
    EXPECT_EQ(seen, (std::vector<std::string>{"seek", "idle-after-seek?", "rotate"}));
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.first_due(), 3.0);
    seen.clear();
    q.apply_due(10.0, [&](const std::string &c) { seen.push_back(c); });
    EXPECT_EQ(seen, (std::vector<std::string>{"transfer", "idle"}));
}

TEST(timed_changes, an_aborted_read_ahead_then_the_next_seek_leaves_the_seek) {
    // The drive's pattern: the read-ahead's stop ("idle") and the next access's seek, both at the
    // instant the mechanism is free, interleaved with changes of other times.
    timed_changes<double, int> q;
    int state = -1;
    for (int k = 0; k < 50; ++k) {
        const double t = 10.0 * k;
        q.push(t, 0);        // read-ahead stops
        q.push(t, 1);        // seek starts
        q.push(t + 4.0, 2);  // rotate
        q.push(t + 7.0, 0);  // idle
    }
    for (int k = 0; k < 50; ++k) {
        q.apply_due(10.0 * k, [&](int c) { state = c; });
        EXPECT_EQ(state, 1) << k;
        q.apply_due(10.0 * k + 4.0, [&](int c) { state = c; });
        EXPECT_EQ(state, 2) << k;
    }
}

// Against a stable sort by time (the definition of the order), on random times with many ties.
TEST(timed_changes, random_pushes_and_pops_come_out_by_time_then_schedule_order) {
    timed_changes<uint64_t, int> q;
    std::vector<std::pair<uint64_t, int>> pending;  // (time, number), in schedule order
    std::vector<int> out, expected;
    uint64_t x = 12345, now = 0;
    int number = 0;
    for (int step = 0; step < 20000; ++step) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        if ((x >> 60) < 11) {  // push, often at a time already queued
            const uint64_t at = now + (x >> 33) % 40;
            q.push(at, number);
            pending.push_back({at, number++});
        } else {
            now += (x >> 40) % 8;
            q.apply_due(now, [&](int c) { out.push_back(c); });
            std::stable_sort(pending.begin(), pending.end(),
                             [](const auto &a, const auto &b) { return a.first < b.first; });
            auto due = std::find_if(pending.begin(), pending.end(), [&](const auto &p) { return p.first > now; });
            for (auto it = pending.begin(); it != due; ++it) expected.push_back(it->second);
            pending.erase(pending.begin(), due);
        }
    }
    EXPECT_EQ(out, expected);
    EXPECT_EQ(q.size(), pending.size());
}
