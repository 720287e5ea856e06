// AdaptRaid5 driven by the RAID 5 write plans and degraded reads (parity_stripe_layout): the same
// functional check as RAID 5's (test_parity_write_plan.cpp), over stripes of different widths
// whose units lie at different drive LBNs on different disks.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "controller/families/adaptraid5/adaptraid5_keys.h"
#include "controller/layouts/adaptraid5_layout.h"
#include "controller/kit/data_token.h"
#include "controller/kit/parity_tokens.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/platform/scoreboard.h"
#include "token_array_model.h"

using namespace raidtlm::controller;
using raidtlm::controller::testing::token_array;

namespace {

// Figure 5's array: UF [1,1,1,1,0.4], SIP 6, three repetitions of 4-sector units.
adaptraid5_layout figure5() { return adaptraid5_layout(std::vector<int64_t>(5, 60), 4, {1, 1, 1, 1, 0.4}, 6); }

}  // namespace

TEST(adaptraid5_writes, every_path_keeps_parity_exact_and_degraded_reads_rebuild) {
    std::mt19937_64 rng(7);
    std::vector<adaptraid5_layout> layouts = {figure5(),
                                              adaptraid5_layout(std::vector<int64_t>(9, 400), 4,
                                                                {1, 1, 1, 0.46, 0.46, 0.46, 0.46, 0.46, 0.46}, 19)};
    for (const auto &l : layouts)
        for (const parity_write_policy policy : {parity_write_policy{0.5, false}, parity_write_policy{2.0, false},
                                                 parity_write_policy{2.0, true}, parity_write_policy{0.0, false}}) {
            token_array array(l);
            scoreboard sb;
            for (int i = 0; i < 200; ++i) {
                const int32_t n = int32_t(1 + rng() % 40);
                const int64_t lbn = int64_t(rng() % uint64_t(l.capacity_sectors() - n));
                array.write(lbn, n, policy, sb);
            }
            EXPECT_TRUE(array.stripes_consistent(l.stripes())) << l.describe();
            for (int failed = -1; failed < l.disks(); ++failed)
                for (int64_t lbn = 0; lbn < l.capacity_sectors(); ++lbn) sb.check_read(lbn, array.read(lbn, failed));
            EXPECT_EQ(sb.integrity_errors(), 0u) << l.describe();
            EXPECT_GT(sb.reads_checked(), 0u);
        }
}

TEST(adaptraid5_writes, a_file_system_full_stripe_is_whole_narrower_stripes_without_reads) {
    const adaptraid5_layout l = figure5();
    std::vector<stripe_write_plan> plans;
    // Every reference stripe (4 data units), including those the three-wide stripes make up.
    for (int64_t at = 0; at + l.reference_stripe_data_sectors() <= l.capacity_sectors();
         at += l.reference_stripe_data_sectors()) {
        plan_parity_write(l, at, int32_t(l.reference_stripe_data_sectors()), {}, plans);
        for (const auto &p : plans) {
            EXPECT_EQ(p.path, write_path::full_stripe) << "at " << at;
            for (const auto &op : p.ops) EXPECT_NE(op.kind, disk_op_kind::read);
        }
    }
    // The pattern's 3-wide stripes (two data units) come in pairs under one reference stripe.
    plan_parity_write(l, 2 * l.reference_stripe_data_sectors(), int32_t(l.reference_stripe_data_sectors()), {}, plans);
    ASSERT_EQ(plans.size(), 2u);
    EXPECT_EQ(l.stripe_data_units(plans[0].stripe), 2);
}

TEST(adaptraid5_writes, a_small_write_reads_and_writes_one_data_unit_and_the_parity) {
    const adaptraid5_layout l = figure5();
    std::vector<stripe_write_plan> plans;
    const int64_t lbn = 2 * l.reference_stripe_data_sectors() + 1;  // inside a three-wide stripe
    plan_parity_write(l, lbn, 2, {2.0, false}, plans);  // 2.0: never reconstruct-write
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_EQ(plans[0].path, write_path::read_modify_write);
    ASSERT_EQ(plans[0].ops.size(), 4u);  // read data, read parity, write data, write parity
    const unit_place data = l.data_unit(plans[0].stripe, 0), parity = l.parity_unit(plans[0].stripe);
    EXPECT_EQ(plans[0].ops[0].disk, data.disk);
    EXPECT_EQ(plans[0].ops[0].drive_lbn, data.drive_lbn + 1);
    EXPECT_EQ(plans[0].parity_write().disk, parity.disk);
    EXPECT_EQ(plans[0].parity_write().drive_lbn, parity.drive_lbn + 1);
}

TEST(adaptraid5_keys, utilisation_factors_per_disk_per_class_or_from_capacity) {
    adaptraid5_config c;
    EXPECT_EQ(utilisation_factors(c, {100, 50, 25}, {"a", "b", "c"}), (std::vector<double>{1, 0.5, 0.25}));
    c.uf_per_class = {{"fast", 1.0}, {"slow", 0.46}};
    EXPECT_EQ(utilisation_factors(c, {100, 50, 50}, {"fast", "slow", "slow"}), (std::vector<double>{1, 0.46, 0.46}));
    EXPECT_THROW(utilisation_factors(c, {100, 50}, {"fast", "other"}), adaptraid5_key_error);
    c.uf_per_class.clear();
    c.uf_per_disk = {1, 0.5};
    EXPECT_THROW(utilisation_factors(c, {100, 50, 50}, {}), adaptraid5_key_error);
}

TEST(adaptraid5_keys, a_layout_that_cannot_be_built_names_its_key) {
    auto key_of = [](adaptraid5_config c, int64_t unit, std::vector<int64_t> sizes) {
        try {
            make_adaptraid5_layout(c, unit, sizes, std::vector<std::string>(sizes.size(), "d"));
        } catch (const adaptraid5_key_error &e) {
            return e.key();
        }
        return std::string("built");
    };
    adaptraid5_config c;
    EXPECT_EQ(key_of(c, 8, {800}), "controller.layout");                       // one disk
    c.uf_per_disk = {1, 1, 0.1};
    c.sip = 5;
    EXPECT_EQ(key_of(c, 8, {800, 800, 800}), "controller.adaptraid5.sip");     // 0.1 x 5 < 1 block
    c.sip = 10;
    EXPECT_EQ(key_of(c, 8, {800, 800, 800}), "built");
    EXPECT_EQ(key_of(c, 1000, {800, 800, 800}), "host.stripe_unit_sectors");   // unit larger than a disk
    EXPECT_EQ(key_of(c, 8, {8, 800, 800}), "controller.adaptraid5.sip");       // no room for one pattern
    c.uf_per_disk = {1, 1, 1.5};
    EXPECT_EQ(key_of(c, 8, {800, 800, 800}), "controller.adaptraid5.uf");
}
