#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "waveforms/monotone_changes.h"
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

// The VCD writer's radix queue against the comparison heap: the same order on random schedules
// that never go back before the last instant handed out, times from the same instant to 2^60
// ahead (most within a hundred), some pushed at the instant just handed out.
TEST(monotone_changes, hands_out_what_timed_changes_does_for_monotone_schedules) {
    raidtlm::waveforms::monotone_changes<int> radix;
    timed_changes<uint64_t, int> heap;
    std::vector<int> from_radix, from_heap;
    uint64_t x = 987654321, now = 0;
    int number = 0;
    for (int step = 0; step < 50000; ++step) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t r = x >> 58;
        if (r < 40) {
            const int shift = int((x >> 20) % 64);
            const uint64_t span = (x >> 24) & ((shift == 63 ? ~uint64_t(0) : (uint64_t(1) << (shift + 1)) - 1) >> 3);
            const uint64_t at = r < 8 ? now : now + (span % 64 < 48 ? span % 97 : span);
            if (at < now) continue;  // wrapped
            radix.push(at, number);
            heap.push(at, number++);
        } else if (!heap.empty()) {
            ASSERT_EQ(radix.first_due(), heap.first_due());
            now = heap.first_due();
            radix.apply_first_instant([&](int c) { from_radix.push_back(c); });
            heap.apply_first_instant([&](int c) { from_heap.push_back(c); });
        }
    }
    EXPECT_EQ(from_radix, from_heap);
    EXPECT_EQ(radix.size(), heap.size());
    EXPECT_THROW(radix.push(now - 1, 0), std::logic_error);
}
