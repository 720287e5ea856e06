// torn_stripe_rows: which rows of a stripe a member missing from it loses after torn writes.
#include <gtest/gtest.h>

#include "controller/layouts/parity_layout.h"
#include "controller/kit/torn_stripe_rows.h"

using raidtlm::controller::add_run;
using raidtlm::controller::parity_layout;
using raidtlm::controller::sector_run;
using raidtlm::controller::torn_stripe_rows;
using runs = std::vector<sector_run>;

TEST(torn_stripe_rows, add_run_merges_overlapping_and_touching_runs) {
    runs r;
    add_run(r, 10, 2);
    add_run(r, 0, 3);
    add_run(r, 12, 4);  // touches 10-11
    EXPECT_EQ(r, (runs{{0, 3}, {10, 6}}));
    add_run(r, 2, 9);  // bridges both
    EXPECT_EQ(r, (runs{{0, 16}}));
}

// 5 disks, units of 8: stripe s holds data units 0..3, logical [32 s, 32 s + 32).
TEST(torn_stripe_rows, a_missing_unit_loses_only_rows_other_data_units_were_written_in) {
    const parity_layout l(std::vector<int64_t>(5, 800), 8);
    torn_stripe_rows t(l);
    t.add_write(32 + 2, 3);   // stripe 1, unit 0, rows 2-4
    t.add_write(32 + 14, 4);  // stripe 1, unit 1, rows 6-7; unit 2, rows 0-1
    t.add_write(96 + 24, 1);  // stripe 3, unit 3, row 0
    EXPECT_EQ(t.stripes(), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(t.written(1, 1), (runs{{6, 2}}));
    EXPECT_EQ(t.written(1, 3), runs{});
    // Unit 3 missing: every row written elsewhere.
    EXPECT_EQ(t.rows_lost(1, {3}), (runs{{0, 5}, {6, 2}}));
    // Unit 0 missing: its own rows 2-4 come back old or new from the parity; the others' rows are lost.
    EXPECT_EQ(t.rows_lost(1, {0}), (runs{{0, 2}, {6, 2}}));
    // Its own write was the only one in the stripe: nothing lost.
    EXPECT_EQ(t.rows_lost(3, {3}), runs{});
    EXPECT_EQ(t.rows_lost(3, {1}), (runs{{0, 1}}));
    // Two missing: nothing tells them apart in any written row.
    EXPECT_EQ(t.rows_lost(1, {0, 3}), (runs{{0, 5}, {6, 2}}));
    // A stripe no torn write touched: nothing lost.
    EXPECT_EQ(t.rows_lost(2, {0}), runs{});
}

// Read-rotate-writes: a check command out at the power loss may have left its stand-in, so the
// missing unit's own written rows are lost as well.
TEST(torn_stripe_rows, with_read_rotate_writes_a_missing_unit_loses_its_own_written_rows_too) {
    const parity_layout l(std::vector<int64_t>(5, 800), 8);
    torn_stripe_rows t(l, true);
    t.add_write(32 + 2, 3);   // stripe 1, unit 0, rows 2-4
    t.add_write(32 + 14, 4);  // stripe 1, unit 1, rows 6-7; unit 2, rows 0-1
    t.add_write(96 + 24, 1);  // stripe 3, unit 3, row 0
    EXPECT_EQ(t.rows_lost(1, {0}), (runs{{0, 5}, {6, 2}}));
    EXPECT_EQ(t.rows_lost(3, {3}), (runs{{0, 1}}));
    EXPECT_EQ(t.rows_lost(2, {0}), runs{});
}
