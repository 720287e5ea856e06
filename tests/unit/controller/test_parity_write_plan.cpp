#include <gtest/gtest.h>

#include <map>

#include "controller/kit/data_token.h"
#include "controller/layouts/parity_layout.h"
#include "controller/kit/parity_tokens.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/platform/scoreboard.h"
#include "token_array_model.h"

using namespace raidtlm::controller;
using raidtlm::controller::testing::token_array;

namespace {

int count(const stripe_write_plan &p, disk_op_kind k) {
    int n = 0;
    for (const auto &op : p.ops) n += op.kind == k;
    return n;
}

}  // namespace

TEST(parity_write_plan, a_small_write_is_two_read_rotate_writes) {
    parity_layout l(std::vector<int64_t>(5, 800), 8);
    std::vector<stripe_write_plan> plans;
    plan_parity_write(l, 8 * 4 * 3 + 8 + 2, 3, {}, plans);  // stripe 3, unit 1, offsets 2..4
    ASSERT_EQ(plans.size(), 1u);
    const auto &p = plans[0];
    EXPECT_EQ(p.path, write_path::read_modify_write);
    ASSERT_EQ(p.ops.size(), 2u);
    EXPECT_EQ(count(p, disk_op_kind::read_rotate_write), 2);
    EXPECT_EQ(p.ops[0].disk, l.data_disk(3, 1));
    EXPECT_EQ(p.ops[0].drive_lbn, 3 * 8 + 2);
    EXPECT_EQ(p.ops[0].sectors, 3);
    EXPECT_TRUE(p.ops[1].parity);
    EXPECT_EQ(p.ops[1].disk, l.parity_disk(3));
    EXPECT_EQ(p.ops[1].drive_lbn, 3 * 8 + 2);

    plan_parity_write(l, 8 * 4 * 3 + 8 + 2, 3, {0.5, false}, plans);
    EXPECT_EQ(count(plans[0], disk_op_kind::read), 2);
    EXPECT_EQ(count(plans[0], disk_op_kind::write), 2);
    EXPECT_EQ(plans[0].ops[0].kind, disk_op_kind::read);  // reads first
    EXPECT_EQ(plans[0].ops[3].kind, disk_op_kind::write);
}

TEST(parity_write_plan, threshold_chooses_reconstruct_write_and_full_stripes_read_nothing) {
    parity_layout l(std::vector<int64_t>(5, 800), 8);
    std::vector<stripe_write_plan> plans;
    // Units 0 (from offset 3), 1 and 2 (to offset 5) of stripe 0: three of four units.
    plan_parity_write(l, 3, 8 - 3 + 8 + 5, {}, plans);
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_EQ(plans[0].path, write_path::reconstruct_write);
    // Reads: unit 0 [0,3), unit 2 [5,8), unit 3 [0,8); writes: 3 data + parity [0,8).
    ASSERT_EQ(count(plans[0], disk_op_kind::read), 3);
    EXPECT_EQ(plans[0].ops[0].sectors, 3);
    EXPECT_EQ(plans[0].ops[1].drive_lbn, 5);
    EXPECT_EQ(plans[0].ops[2].sectors, 8);
    EXPECT_EQ(count(plans[0], disk_op_kind::write), 4);
    EXPECT_EQ(plans[0].parity_write().sectors, 8);

    plan_parity_write(l, 3, 8 - 3 + 8 + 5, {1.1, true}, plans);
    EXPECT_EQ(plans[0].path, write_path::read_modify_write);
    EXPECT_EQ(count(plans[0], disk_op_kind::read_rotate_write), 4);

    // A stripe and a half: the first stripe is full, the second reconstructs (2 of 4 units).
    plan_parity_write(l, 0, 32 + 16, {}, plans);
    ASSERT_EQ(plans.size(), 2u);
    EXPECT_EQ(plans[0].path, write_path::full_stripe);
    EXPECT_EQ(count(plans[0], disk_op_kind::read), 0);
    EXPECT_EQ(count(plans[0], disk_op_kind::write), 5);
    EXPECT_EQ(plans[1].path, write_path::reconstruct_write);
    EXPECT_EQ(plans[1].lbn, 32);
    EXPECT_EQ(count(plans[1], disk_op_kind::read), 2);
}

TEST(parity_write_plan, every_path_keeps_parity_exact_and_reads_check_clean) {
    for (auto placement : {parity_placement::left_symmetric, parity_placement::dedicated, parity_placement::right_asymmetric}) {
        parity_layout l(std::vector<int64_t>(5, 64), 4, placement);
        token_array array(l);
        scoreboard sb;
        uint64_t seed = 7;
        auto next = [&](uint64_t n) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            return (seed >> 33) % n;
        };
        for (int i = 0; i < 300; ++i) {
            const int32_t n = int32_t(1 + next(20));
            const int64_t lbn = int64_t(next(uint64_t(l.capacity_sectors() - n)));
            const parity_write_policy policy{i % 3 == 0 ? 0.0 : 0.5, i % 2 == 0};
            array.write(lbn, n, policy, sb);
        }
        EXPECT_TRUE(array.stripes_consistent(l.stripes()));
        for (int failed = -1; failed < l.disks(); ++failed)
            for (int64_t lbn = 0; lbn < l.capacity_sectors(); ++lbn) sb.check_read(lbn, array.read(lbn, failed));
        EXPECT_EQ(sb.integrity_errors(), 0u);
        EXPECT_GT(sb.reads_checked(), 0u);
    }
}

TEST(parity_write_plan, a_corrupted_parity_token_is_caught_on_a_degraded_read) {
    parity_layout l(std::vector<int64_t>(4, 64), 4);
    token_array array(l);
    scoreboard sb;
    array.write(0, int32_t(l.capacity_sectors()), {}, sb);
    const int64_t lbn = 13;  // stripe 1, unit 0, offset 1
    const int64_t stripe = l.stripe_of(lbn);
    const int64_t dl = l.drive_lbn_of(lbn);
    const int data_disk = l.data_disk(stripe, 0);
    EXPECT_TRUE(sb.check_read(lbn, array.read(lbn, data_disk)));  // reconstruction is exact
    array.set(l.parity_disk(stripe), dl, array.at(l.parity_disk(stripe), dl) ^ 0x10);
    EXPECT_TRUE(sb.check_read(lbn, array.read(lbn, -1)));          // a normal read does not see parity
    EXPECT_FALSE(sb.check_read(lbn, array.read(lbn, data_disk)));  // the degraded read does
    EXPECT_EQ(sb.integrity_errors(), 1u);
    ASSERT_EQ(sb.first_mismatches().size(), 1u);
    EXPECT_EQ(sb.first_mismatches()[0].lbn, lbn);
    EXPECT_EQ(sb.first_mismatches()[0].got ^ sb.first_mismatches()[0].expected, 0x10u);
}

TEST(parity_write_plan, a_degraded_read_reads_every_survivor_of_the_lost_chunk) {
    parity_layout l(std::vector<int64_t>(4, 64), 4);
    std::vector<disk_op> ops;
    plan_degraded_read(l, 2, 8, l.data_disk(0, 1), ops);  // unit 0 [2,4) alive, unit 1 lost, unit 2 [0,2) alive
    ASSERT_EQ(ops.size(), 1u + 3u + 1u);
    EXPECT_EQ(ops[0].disk, l.data_disk(0, 0));
    EXPECT_EQ(ops[0].drive_lbn, 2);
    int parity_reads = 0;
    for (size_t i = 1; i < 4; ++i) {
        EXPECT_NE(ops[i].disk, l.data_disk(0, 1));
        EXPECT_EQ(ops[i].drive_lbn, 0);
        EXPECT_EQ(ops[i].sectors, 4);
        parity_reads += ops[i].parity;
    }
    EXPECT_EQ(parity_reads, 1);
    EXPECT_EQ(ops[4].sectors, 2);
    plan_degraded_read(l, 2, 8, -1, ops);
    EXPECT_EQ(ops.size(), 3u);
}

TEST(scoreboard, accepts_the_acknowledged_token_or_one_being_written) {
    scoreboard sb;
    EXPECT_TRUE(sb.check_read(5, 0));  // never written
    sb.write_acknowledged(5, 111);
    EXPECT_FALSE(sb.check_read(5, 0));
    sb.write_issued(5, 222);
    EXPECT_TRUE(sb.check_read(5, 111));
    EXPECT_TRUE(sb.check_read(5, 222));
    sb.write_acknowledged(5, 222);
    EXPECT_FALSE(sb.check_read(5, 111));
    EXPECT_EQ(sb.integrity_errors(), 2u);
    EXPECT_EQ(sb.reads_checked(), 5u);
}

TEST(data_token, tokens_differ_and_parity_math_inverts) {
    EXPECT_NE(make_token(1, 1), make_token(1, 2));
    EXPECT_NE(make_token(1, 1), make_token(2, 1));
    EXPECT_NE(make_token(0, 0), 0u);
    const uint64_t a = make_token(1, 1), b = make_token(2, 1), c = make_token(3, 1), b2 = make_token(2, 2);
    const uint64_t p = parity_of({a, b, c});
    EXPECT_EQ(read_modify_write_parity(p, b, b2), parity_of({a, b2, c}));
    EXPECT_EQ(reconstruct_token({a, c, p}), b);
}
