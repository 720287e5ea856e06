// The lost stripes kept as runs (controller/kit/lost_stripe_runs.h) and the bounded report of lost
// ranges (controller/kit/lost_range_report.h).
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "controller/kit/lost_range_report.h"
#include "controller/kit/lost_stripe_runs.h"

using raidtlm::controller::lost_range_report;
using raidtlm::controller::lost_stripe_runs;

TEST(lost_stripe_runs, stripes_that_lost_the_same_members_merge_into_one_run) {
    lost_stripe_runs lost;
    for (int64_t s = 100000; s > 0; --s) EXPECT_TRUE(lost.add(s, {2, 1}));  // backwards: joins the run after
    EXPECT_TRUE(lost.add(0, {1, 2}));
    EXPECT_FALSE(lost.add(7, {1, 2}));
    EXPECT_EQ(lost.runs(), 1u);
    EXPECT_EQ(lost.stripes(), 100001);
    EXPECT_EQ(lost.first_stripe(), 0);
    EXPECT_EQ(lost.last_stripe(), 100000);
    EXPECT_EQ(lost.begin()->second.disks, (std::vector<int>{1, 2}));
    EXPECT_TRUE(lost.contains(0) && lost.contains(100000) && !lost.contains(100001) && !lost.contains(-1));
}

TEST(lost_stripe_runs, other_members_or_gaps_start_new_runs_and_a_filled_gap_joins_them) {
    lost_stripe_runs lost;
    lost.add(10, {0, 1});
    lost.add(11, {0, 1});
    lost.add(12, {1, 2});  // other members
    lost.add(20, {1, 2});  // a gap
    EXPECT_EQ(lost.runs(), 3u);
    for (int64_t s = 13; s < 20; ++s) lost.add(s, {1, 2});
    EXPECT_EQ(lost.runs(), 2u);  // the gap filled: 12..20 one run
    EXPECT_TRUE(lost.touches(5, 10));
    EXPECT_FALSE(lost.touches(0, 9));
    EXPECT_FALSE(lost.touches(21, 30));
    EXPECT_TRUE(lost.touches(20, 30));
}

// Against a plain set of stripes, with random adds: membership and counts agree, and the runs are
// exactly the maximal stretches of consecutive stripes with the same members.
TEST(lost_stripe_runs, agrees_with_a_set_of_stripes) {
    std::mt19937_64 rng(3);
    lost_stripe_runs lost;
    std::set<int64_t> reference;
    for (int i = 0; i < 5000; ++i) {
        const int64_t s = int64_t(rng() % 2000);
        const std::vector<int> disks = s < 1000 ? std::vector<int>{0, 3} : std::vector<int>{1, 3};
        EXPECT_EQ(lost.add(s, disks), reference.insert(s).second);
    }
    EXPECT_EQ(lost.stripes(), int64_t(reference.size()));
    for (int64_t s = -1; s <= 2001; ++s) ASSERT_EQ(lost.contains(s), reference.count(s) > 0) << s;
    size_t stretches = 0;
    int64_t previous = -2;
    for (int64_t s : reference) {
        if (s != previous + 1 || s == 1000) ++stretches;
        previous = s;
    }
    EXPECT_EQ(lost.runs(), stretches);
}

TEST(lost_range_report, merges_counts_exactly_and_lists_a_bounded_number) {
    lost_range_report report;
    const int64_t ranges = int64_t(lost_range_report::max_listed) * 3;
    for (int64_t k = 0; k < ranges; ++k) {
        report.add(k * 100, k * 100 + 10);
        report.add(k * 100 + 5, k * 100 + 20);  // overlaps: merged
        report.add(k * 100 + 20, k * 100 + 30);  // touches: merged
    }
    nlohmann::json out;
    report.write(out);
    EXPECT_EQ(out["lost_sectors"].get<int64_t>(), ranges * 30);
    EXPECT_EQ(out["lost_range_count"].get<int64_t>(), ranges);
    ASSERT_EQ(out["lost_ranges"].size(), lost_range_report::max_listed);
    EXPECT_EQ(out["lost_ranges_left_out"].get<int64_t>(), ranges - int64_t(lost_range_report::max_listed));
    EXPECT_EQ(out["lost_ranges"][1], nlohmann::json::array({100, 30}));
}

TEST(lost_range_report, nothing_lost_reports_zeros_and_an_empty_list) {
    lost_range_report report;
    nlohmann::json out;
    report.write(out);
    EXPECT_EQ(out["lost_sectors"], 0);
    EXPECT_EQ(out["lost_range_count"], 0);
    EXPECT_EQ(out["lost_ranges_left_out"], 0);
    EXPECT_TRUE(out["lost_ranges"].is_array() && out["lost_ranges"].empty());
}
