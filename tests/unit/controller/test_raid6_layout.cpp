// RAID 6 (P+Q) address map and the write plans over it.
#include <gtest/gtest.h>

#include <set>

#include "controller/kit/parity_write_plan.h"
#include "controller/layouts/raid6_layout.h"
#include "layout_error_text.h"

using namespace raidtlm::controller;

namespace {
constexpr int P = -1, Q = -3, R = -4;
}

TEST(raid6_layout, left_symmetric_matches_linux_md) {
    raid6_layout l(std::vector<int64_t>(5, 1000), 10);
    const std::vector<std::vector<int>> expected{
        {Q, 0, 1, 2, P}, {3, 4, 5, P, Q}, {7, 8, P, Q, 6}, {11, P, Q, 9, 10}, {P, Q, 12, 13, 14}, {Q, 15, 16, 17, P}};
    for (int s = 0; s < 6; ++s)
        for (int d = 0; d < 5; ++d) {
            const int j = l.unit_on_disk(s, d);
            EXPECT_EQ(j < 0 ? j : s * 3 + j, expected[size_t(s)][size_t(d)]) << "stripe " << s << " disk " << d;
        }
}

TEST(raid6_layout, map_round_trips_and_every_stripe_has_distinct_disks) {
    raid6_layout l(std::vector<int64_t>{40, 44, 41, 40, 43, 40}, 4);
    EXPECT_EQ(l.capacity_sectors(), 10 * 4 * 4);
    EXPECT_TRUE(l.has_q());
    for (int64_t s = 0; s < l.stripes(); ++s) {
        std::set<int> disks;
        for (const auto &u : l.units_by_disk(s)) disks.insert(u.disk);
        EXPECT_EQ(disks.size(), 6u);
    }
    std::vector<chunk> out;
    for (int64_t lbn = 0; lbn < l.capacity_sectors(); ++lbn) {
        l.map(lbn, 1, out);
        ASSERT_EQ(out.size(), 1u);
        const auto &r = out[0].replicas[0];
        const int64_t stripe = l.stripe_of(lbn);
        EXPECT_EQ(l.logical_lbn_on_disk(stripe, r.disk, r.extents[0].drive_lbn), lbn);
        EXPECT_NE(r.disk, l.parity_unit(stripe).disk);
        EXPECT_NE(r.disk, l.q_unit(stripe).disk);
    }
}

TEST(raid6_layout, fewer_than_four_disks_are_refused) {
    EXPECT_THROW(raid6_layout(std::vector<int64_t>(3, 1000), 10), layout_error);
}

TEST(raid6_layout, small_write_reads_and_writes_data_p_and_q) {
    raid6_layout l(std::vector<int64_t>(6, 1000), 8);
    std::vector<stripe_write_plan> plans;
    parity_write_policy separate;
    separate.read_rotate_write = false;
    plan_parity_write(l, 3, 2, separate, plans);
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_EQ(plans[0].path, write_path::read_modify_write);
    int reads = 0, writes = 0, q_reads = 0, q_writes = 0;
    for (const auto &op : plans[0].ops) {
        (op.kind == disk_op_kind::read ? reads : writes)++;
        if (op.q) {
            (op.kind == disk_op_kind::read ? q_reads : q_writes)++;
            EXPECT_EQ(op.disk, l.q_unit(0).disk);
            EXPECT_EQ(op.drive_lbn, 3);
            EXPECT_EQ(op.sectors, 2);
            EXPECT_FALSE(op.parity);
        }
    }
    EXPECT_EQ(reads, 3);  // old data, old P, old Q
    EXPECT_EQ(writes, 3);
    EXPECT_EQ(q_reads, 1);
    EXPECT_EQ(q_writes, 1);
    EXPECT_EQ(plans[0].parity_write().disk, l.parity_unit(0).disk);
    // A full stripe: four data units, P and Q written, nothing read.
    plan_parity_write(l, 0, 32, separate, plans);
    ASSERT_EQ(plans[0].path, write_path::full_stripe);
    EXPECT_EQ(plans[0].ops.size(), 6u);
    // Read-rotate-write: one command per data disk, P and Q.
    plan_parity_write(l, 3, 2, parity_write_policy{}, plans);
    EXPECT_EQ(plans[0].ops.size(), 3u);
    for (const auto &op : plans[0].ops) EXPECT_EQ(op.kind, disk_op_kind::read_rotate_write);
}

TEST(raid6_layout, degraded_read_plan_rebuilds_one_lost_data_unit_from_p_only) {
    raid6_layout l(std::vector<int64_t>(5, 1000), 8);
    const int lost = l.data_unit(0, 1).disk;
    std::vector<disk_op> ops;
    plan_degraded_read(l, 8, 4, lost, ops);
    EXPECT_EQ(ops.size(), 3u);  // two data units and P
    for (const auto &op : ops) EXPECT_NE(op.disk, l.q_unit(0).disk);
}

// Three checks (controller.raid6_checks 3): R on the disk after Q, the data after R, the same
// left-symmetric rotation; a small write reads and writes data, P, Q and R over the same rows.
TEST(raid6_layout, three_checks_rotate_p_q_and_r_left_symmetrically) {
    raid6_layout l(std::vector<int64_t>(6, 1000), 10, 3);
    EXPECT_EQ(l.check_units(), 3);
    EXPECT_EQ(l.stripe_data_units(0), 3);
    EXPECT_EQ(l.capacity_sectors(), 100 * 3 * 10);
    EXPECT_EQ(parity_stripe_layout::check_on_disk(2), R);
    const std::vector<std::vector<int>> expected{
        {Q, R, 0, 1, 2, P}, {R, 3, 4, 5, P, Q}, {6, 7, 8, P, Q, R}, {10, 11, P, Q, R, 9}};
    for (int s = 0; s < 4; ++s)
        for (int d = 0; d < 6; ++d) {
            const int j = l.unit_on_disk(s, d);
            EXPECT_EQ(j < 0 ? j : s * 3 + j, expected[size_t(s)][size_t(d)]) << "stripe " << s << " disk " << d;
        }
    for (int64_t s = 0; s < 12; ++s) {
        std::set<int> disks;
        for (const auto &u : l.units_by_disk(s)) disks.insert(u.disk);
        EXPECT_EQ(disks.size(), 6u);
        EXPECT_EQ(l.check_unit(s, 1).disk, l.q_unit(s).disk);
    }
    EXPECT_THROW(l.check_unit(0, 3), std::logic_error);
    std::vector<stripe_write_plan> plans;
    parity_write_policy separate;
    separate.read_rotate_write = false;
    plan_parity_write(l, 3, 2, separate, plans);
    ASSERT_EQ(plans[0].path, write_path::read_modify_write);
    int reads = 0, writes = 0, r_ops = 0;
    for (const auto &op : plans[0].ops) {
        (op.kind == disk_op_kind::read ? reads : writes)++;
        if (op.r) {
            ++r_ops;
            EXPECT_EQ(op.check(), 2);
            EXPECT_EQ(op.disk, l.check_unit(0, 2).disk);
            EXPECT_EQ(op.drive_lbn, 3);
            EXPECT_FALSE(op.data());
        }
    }
    EXPECT_EQ(reads, 4);  // old data, P, Q, R
    EXPECT_EQ(writes, 4);
    EXPECT_EQ(r_ops, 2);
    plan_parity_write(l, 3, 2, parity_write_policy{}, plans);  // read-rotate-write: data, P, Q, R
    EXPECT_EQ(plans[0].ops.size(), 4u);
    // A lost data unit's degraded read: the other data and P, never Q or R.
    std::vector<disk_op> ops;
    plan_degraded_read(l, 10, 4, l.data_unit(0, 1).disk, ops);
    EXPECT_EQ(ops.size(), 3u);
}

TEST(raid6_layout, three_checks_need_five_disks_and_at_most_258) {
    EXPECT_THROW(raid6_layout(std::vector<int64_t>(4, 1000), 10, 3), layout_error);
    EXPECT_NO_THROW(raid6_layout(std::vector<int64_t>(5, 1000), 10, 3));
    EXPECT_THROW(raid6_layout(std::vector<int64_t>(259, 1000), 10, 3), layout_error);
    EXPECT_THROW(raid6_layout(std::vector<int64_t>(8, 1000), 10, 4), layout_error);
    EXPECT_THROW(raid6_layout(std::vector<int64_t>(8, 1000), 10, 1), layout_error);
}
