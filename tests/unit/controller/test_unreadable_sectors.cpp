// narrow_unreadable: the unreadable sectors of a range found by reading halves.
#include <set>

#include <gtest/gtest.h>

#include "controller/kit/unreadable_sectors.h"

using raidtlm::controller::narrow_unreadable;
using raidtlm::controller::sector_run;

namespace {
struct fake_drive {
    std::set<uint64_t> bad;
    std::set<uint64_t> read_ok;  // sectors delivered by successful reads
    int reads = 0;
    bool read(uint64_t at, uint64_t n) {
        ++reads;
        for (uint64_t k = at; k < at + n; ++k)
            if (bad.count(k)) return false;
        for (uint64_t k = at; k < at + n; ++k) read_ok.insert(k);
        return true;
    }
};
}  // namespace

TEST(unreadable_sectors, finds_exactly_the_bad_sectors_and_reads_every_other) {
    for (const std::set<uint64_t> &bad : {std::set<uint64_t>{5}, std::set<uint64_t>{0, 1, 2, 3}, std::set<uint64_t>{63},
                                          std::set<uint64_t>{10, 11, 40, 41, 42}}) {
        fake_drive d{bad};
        const auto runs = narrow_unreadable(64, [&](uint64_t a, uint64_t n) { return d.read(a, n); });
        std::set<uint64_t> found;
        for (const sector_run &r : runs)
            for (uint64_t k = r.first; k < r.first + r.count; ++k) found.insert(k);
        EXPECT_EQ(found, bad);
        EXPECT_EQ(d.read_ok.size() + bad.size(), 64u);
        for (size_t i = 1; i < runs.size(); ++i) EXPECT_LT(runs[i - 1].first + runs[i - 1].count, runs[i].first);
    }
}

TEST(unreadable_sectors, one_bad_sector_costs_about_two_reads_per_halving) {
    fake_drive d{{37}};
    EXPECT_EQ(narrow_unreadable(64, [&](uint64_t a, uint64_t n) { return d.read(a, n); }),
              (std::vector<sector_run>{{37, 1}}));
    EXPECT_EQ(d.reads, 12);  // 6 halvings of 64, two reads each
}

TEST(unreadable_sectors, a_range_all_bad_is_one_run) {
    fake_drive d;
    for (uint64_t k = 0; k < 16; ++k) d.bad.insert(k);
    EXPECT_EQ(narrow_unreadable(16, [&](uint64_t a, uint64_t n) { return d.read(a, n); }),
              (std::vector<sector_run>{{0, 16}}));
}
