#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "controller/firmware_api/controller_config.h"
#include "rtl_models/buses/scsi_bus_timing.h"

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

TEST(scsi_bus_timing, sas_presets_are_one_8b10b_lane) {
    // Line rate (Gb/s) x 8/10 (8b/10b) / 8 bits = MB/s: 3 -> 300, 6 -> 600, 12 -> 1200.
    const std::map<scsi_preset, double> line_gbit_per_s = {
        {scsi_preset::sas3g, 3}, {scsi_preset::sas6g, 6}, {scsi_preset::sas12g, 12}};
    for (const auto &[p, gbit] : line_gbit_per_s) {
        const scsi_bus_config c = scsi_bus_config::with_preset(p);
        EXPECT_DOUBLE_EQ(c.rate_mb_per_s(), gbit * 1e3 * 8 / 10 / 8) << to_string(p);
        EXPECT_EQ(c.width_bits, 8) << to_string(p);
        EXPECT_EQ(c.preset, p);
        EXPECT_TRUE(c.point_to_point()) << to_string(p);
        EXPECT_TRUE(c.phases.all_zero()) << to_string(p);
        EXPECT_DOUBLE_EQ(c.select_us(), 0) << to_string(p);
        EXPECT_DOUBLE_EQ(c.reselect_us(), 0) << to_string(p);
        EXPECT_DOUBLE_EQ(c.release_tail_us(), 0) << to_string(p);
    }
    // 512 bytes at 1200 MB/s: 0.42667 us; at 600 MB/s twice that.
    EXPECT_NEAR(scsi_bus_config::with_preset(scsi_preset::sas12g).sector_us(), 512.0 / 1200, 1e-12);
    EXPECT_NEAR(scsi_bus_config::with_preset(scsi_preset::sas6g).sector_us(), 512.0 / 600, 1e-12);
    EXPECT_STREQ(to_string(scsi_preset::sas3g), "sas3g");
    EXPECT_STREQ(to_string(scsi_preset::sas6g), "sas6g");
    EXPECT_STREQ(to_string(scsi_preset::sas12g), "sas12g");
}

TEST(scsi_bus_timing, only_serial_links_are_point_to_point) {
    for (scsi_preset p : {scsi_preset::sata150, scsi_preset::sas3g, scsi_preset::sas6g, scsi_preset::sas12g})
        EXPECT_TRUE(scsi_bus_config::with_preset(p).point_to_point()) << to_string(p);
    for (scsi_preset p : {scsi_preset::fast20, scsi_preset::ultra2, scsi_preset::ultra160, scsi_preset::ultra320,
                          scsi_preset::custom}) {
        const scsi_bus_config c = scsi_bus_config::with_preset(p);
        EXPECT_FALSE(c.point_to_point()) << to_string(p);
        EXPECT_FALSE(c.phases.all_zero()) << to_string(p);  // the parallel buses keep the SCSI-2 phase times
    }
    // SATA is unchanged by the SAS presets' arrival.
    EXPECT_DOUBLE_EQ(scsi_bus_config::with_preset(scsi_preset::sata150).rate_mb_per_s(), 150);
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
