#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "controller/controller_config.h"
#include "rtl_models/scsi_bus_timing.h"

using namespace raidtlm::rtl_models;

TEST(scsi_bus_timing, presets_are_the_standards_rates) {
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::fast20).rate_mb_per_s(), 20);
    EXPECT_EQ(scsi_bus_config::with_preset(scsi_preset::fast20).width_bits, 8);
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::ultra2).rate_mb_per_s(), 80);
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::ultra160).rate_mb_per_s(), 160);
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::ultra320).rate_mb_per_s(), 320);
    // 512 bytes at 160 MB/s take 3.2 us; an unlimited bus takes none.
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::ultra160).sector_us(), 3.2);
    scsi_bus_config custom = scsi_bus_config::with_preset(scsi_preset::custom);
    custom.mtransfers_per_s = 0;
    EXPECT_DOUBLE_EQ(custom.sector_us(), 0);
}

TEST(scsi_bus_timing, connection_costs_add_the_phases) {
    scsi_bus_config c;
    c.phases = {2.0, 0.5, 1.0, 1.5, 0.25, 3.0, 0.75};  // arb, free, sel, resel, msg, cmd, status
    EXPECT_DOUBLE_EQ(c.select_us(), 2.0 + 1.0 + 0.25 + 3.0);
    EXPECT_DOUBLE_EQ(c.reselect_us(), 2.0 + 1.5 + 0.25);
    EXPECT_DOUBLE_EQ(c.release_tail_us(), 0.75 + 0.5);
    EXPECT_FALSE(c.phases.all_zero());
    EXPECT_TRUE((scsi_phase_costs{0, 0, 0, 0, 0, 0, 0}.all_zero()));
    // The documented defaults: SCSI-2 arbitration delay and bus free delay.
    EXPECT_DOUBLE_EQ(scsi_phase_costs{}.arbitration_us, 2.4);
    EXPECT_DOUBLE_EQ(scsi_phase_costs{}.bus_free_us, 0.8);
}

TEST(scsi_bus_timing, id_priority_is_7_to_0_then_15_to_8) {
    const std::vector<int> order = {7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8};
    for (size_t i = 1; i < order.size(); ++i)
        EXPECT_GT(scsi_priority(order[i - 1]), scsi_priority(order[i])) << order[i - 1] << " vs " << order[i];
}

TEST(scsi_arbiter, highest_priority_wins_every_round_without_fairness) {
    scsi_arbiter a(false);
    EXPECT_EQ(a.choose({1, 3, 2}), 3);
    EXPECT_EQ(a.choose({8, 0, 15}), 0);  // wide bus: 0 outranks 8..15
    EXPECT_EQ(a.choose({9, 15}), 15);
    // The same greedy pair wins over and over; 0 never gets a turn.
    for (int i = 0; i < 10; ++i) EXPECT_EQ(a.choose({6, 5, 0}), 6);
}

TEST(scsi_arbiter, fairness_gives_every_waiting_device_a_turn) {
    scsi_arbiter a(true);
    // Three devices keep arbitrating: the winner waits until the others it beat have won.
    std::vector<int> winners;
    for (int i = 0; i < 9; ++i) winners.push_back(a.choose({6, 5, 0}));
    EXPECT_EQ(winners, (std::vector<int>{6, 5, 0, 6, 5, 0, 6, 5, 0}));
    // A device that arrives later is not overtaken more than once by each of the others.
    scsi_arbiter b(true);
    EXPECT_EQ(b.choose({6, 5}), 6);  // 6 now defers to 5
    EXPECT_EQ(b.choose({6, 5, 1}), 5);
    EXPECT_EQ(b.choose({6, 1}), 6);  // 5 has won: 6 may arbitrate again, and 1 joined after 6 won
    EXPECT_EQ(b.choose({6, 1}), 1);
}

TEST(scsi_targets, ids_skip_the_initiator) {
    using raidtlm::controller::target_id;
    EXPECT_EQ(target_id(0, 7), 0);
    EXPECT_EQ(target_id(6, 7), 6);
    EXPECT_EQ(target_id(7, 7), 8);
    EXPECT_EQ(target_id(14, 7), 15);
    EXPECT_EQ(target_id(0, 0), 1);
    EXPECT_EQ(raidtlm::controller::max_targets(8), 7);
    EXPECT_EQ(raidtlm::controller::max_targets(16), 15);
}
