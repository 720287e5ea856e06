// Parity logging beyond its checks (parity_logging_lost_sectors.cpp): a disk lost, then the power
// lost while the loss's handling reintegrates the logs (the explorer's case 2:172, a disk loss
// then a controller loss). The torn reintegration's parity cannot be made again from the data
// with a data member missing, so the rows its log named are lost on that member: their reads
// fail, never return what the torn parity gives, and a write makes them good again.
#include <cstdint>
#include <iostream>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "parity_logging_bench.h"
#include "rebuild_load.h"

using namespace raidtlm;
using component_test::pause_ms;
using component_test::wait_for_state;
using controller::member_state;

namespace {

using plog_writer = component_test::host_writer<component_test::plog_bench>;

// One unreadable sector (MEDIUM ERROR) under each of `lbns`, then the controller's state lost
// (every log dropped, every region's parity made again), then everything written read back.
plog_writer::read_back_counts unreadable_then_state_lost(component_test::plog_bench &b, plog_writer &w,
                                                         std::initializer_list<uint64_t> lbns) {
    for (uint64_t lbn : lbns) {
        const auto e = b.layout().data_location(int64_t(lbn));
        b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, 1);
    }
    b.firmware().lose_controller_state();
    return w.read_back_each();
}

// The firmware's lost sectors, printed with the read-back's counts.
int64_t lost_sectors_after(component_test::plog_bench &b, const plog_writer::read_back_counts &got) {
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    const int64_t lost = fw.value("lost_sectors", int64_t(0));
    std::cout << "failed reads " << got.failed << ", wrong " << got.wrong << ", lost sectors " << lost << "\n";
    return lost;
}

}  // namespace

TEST(parity_logging_lost_sectors, a_reintegration_torn_while_a_member_is_missing_loses_its_rows_never_serves_them) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    component_test::host_writer<component_test::plog_bench> w{b};
    const int lost = b.layout().member_disk(0, 0);
    uint64_t failed_reads = 0, reads = 0;
    auto read_back = [&] {
        for (const auto &[lbn, tok] : w.expect) {
            uint64_t t = 0;
            ++reads;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) ++failed_reads;
        }
    };
    component_test::run_clean(b, [&] {
        const uint64_t capacity = b.ctl->capacity_sectors();
        for (int k = 0; k < 300; ++k) w.write((uint64_t(k) * 7919) % (capacity - 4), 3);
        ASSERT_GT(b.firmware().statistics().small_writes, 0u);
        b.ctl->fail_member(lost);
        // The next request has the loss handled: every region's log applied, region by region.
        sc_core::sc_spawn([&] {
            uint64_t t = 0;
            b.host.send(true, 0, 1, &t);
        });
        pause_ms(2);
        b.ctl->power_fail();  // a reintegration of the handling torn
        pause_ms(100);
        b.drives[size_t(lost)]->replace_media();
        b.ctl->insert_drive(lost);
        pause_ms(100);
        b.ctl->power_restore_and_recover();
        read_back();
        wait_for_state(b, lost, member_state::optimal, 600000);
        read_back();
        // Written again: a sector lost only because its checks could not be trusted
        // (parity_logging_lost_sectors.cpp) is good again; one whose drive sectors are recorded
        // lost beyond the checks (parity_logging_beyond_checks.cpp) refuses the write (not yet
        // made whole again, EXPERIMENTS.md 19.7). Either way no wrong data: every write that
        // succeeded reads back what it wrote.
        std::vector<uint64_t> again;
        for (const auto &[lbn, tok] : w.expect) again.push_back(lbn);
        uint64_t rewritten = 0;
        for (uint64_t lbn : again) {
            std::vector<uint64_t> t = component_test::tokens(900000 + lbn, 1);
            if (b.host.send(false, lbn, 1, t.data()) != tlm::TLM_OK_RESPONSE) continue;
            ++rewritten;
            w.expect[lbn] = t[0];
            uint64_t got = 0;
            ASSERT_EQ(b.host.send(true, lbn, 1, &got), tlm::TLM_OK_RESPONSE) << "lbn " << lbn;
            EXPECT_EQ(got, t[0]) << "lbn " << lbn;
        }
        EXPECT_GT(rewritten, 0u);
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    std::cout << "reads " << reads << ", failed " << failed_reads << ", lost sectors " << fw.value("lost_sectors", 0)
              << ", integrity errors " << b.ctl->integrity().integrity_errors() << "\n";
    EXPECT_GT(b.firmware().statistics().parity_rebuilds, 0u) << "no reintegration was torn: the test shows nothing";
    EXPECT_GT(fw.value("lost_sectors", 0), 0) << "nothing recorded lost: the test shows nothing";
    EXPECT_GT(failed_reads, 0u);
}

// The explorer's cases 15:27, 15:28 and 16:36: a member lost and a fresh drive in its slot a
// millisecond later, before any request came; the rebuild's first step has the loss handled (every
// region's log applied) and the power fails while it runs. The recovery starts with the loss not
// handled (the lost member rebuilding, not yet among the handled losses): the region caught
// reintegrating gets its checks made again from its data, and before, the rows decided there took
// the rebuilding member as present and read the fresh drive's zeros as its data (the checks
// made from them; the rebuild then solved the member's rows as zeros). A member whose loss is not
// handled is missing in every row decision: its rows are lost where they cannot be made, never
// read from the new drive.
class parity_logging_lost_sectors_at : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(checks, parity_logging_lost_sectors_at, ::testing::Values(1, 2, 3),
                         [](const ::testing::TestParamInfo<int> &i) { return std::to_string(i.param) + "_checks"; });

TEST_P(parity_logging_lost_sectors_at, a_power_loss_while_a_replaced_members_loss_is_handled_never_serves_the_new_drive) {
    const int C = GetParam();
    component_test::plog_bench b(3 * C + 3, component_test::small_parity_logging_config(C), 4096);
    component_test::host_writer<component_test::plog_bench> w{b};
    const int lost = b.layout().member_disk(0, 0);
    uint64_t failed_reads = 0, reads = 0;
    int64_t lost_at_recovery = 0;
    component_test::run_clean(b, [&] {
        const uint64_t capacity = b.ctl->capacity_sectors();
        for (int k = 0; k < 300; ++k) w.write((uint64_t(k) * 7919) % (capacity - 4), 3);
        ASSERT_GT(b.firmware().statistics().small_writes, 0u);
        b.ctl->fail_member(lost);
        pause_ms(1);
        b.drives[size_t(lost)]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(lost));  // its first step handles the loss: the logs applied
        // The new drive's identity written (else the start-up check fails it and nothing of it is
        // read), the logs of the first region still being applied.
        pause_ms(10);
        b.ctl->power_fail();  // a reintegration of the handling torn
        pause_ms(20);
        b.ctl->power_restore_and_recover();
        nlohmann::json at_recovery;
        b.ctl->report_firmware(at_recovery);
        lost_at_recovery = at_recovery.value("lost_sectors", int64_t(0));
        wait_for_state(b, lost, member_state::optimal, 600000);
        for (const auto &[lbn, tok] : w.expect) {
            uint64_t t = 0;
            ++reads;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) ++failed_reads;
        }
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    const int64_t lost_sectors = fw.value("lost_sectors", int64_t(0));
    std::cout << C << " checks: reads " << reads << ", failed " << failed_reads << ", lost sectors " << lost_sectors
              << ", integrity errors " << b.ctl->integrity().integrity_errors() << "\n";
    EXPECT_GT(b.firmware().statistics().parity_rebuilds, 0u) << "no reintegration was torn: the test shows nothing";
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(failed_reads, 0u);
    EXPECT_LT(failed_reads, reads);
    // Per sector: the recovery loses only the rows the torn log named (one sector of the missing
    // member per row of the torn region a host write touched), not every row of their big rows.
    // (The rebuild then records a whole unit lost where one of its rows is: not per sector yet.)
    const auto &l = b.layout();
    std::set<std::pair<int64_t, int64_t>> rows;  // (logical stripe, offset in the unit) of region 0
    for (const auto &[lbn, tok] : w.expect)
        if (l.region_of(int64_t(lbn)) == 0) rows.insert({l.stripe_of(int64_t(lbn)), int64_t(lbn) % l.unit_sectors()});
    std::cout << "rows written in region 0: " << rows.size() << ", lost sectors at the recovery " << lost_at_recovery
              << "\n";
    EXPECT_LE(lost_at_recovery, int64_t(rows.size()));
}

// The explorer's 97:572 (one check): a parity made from the data (here a lost controller state:
// every log dropped, every region's parity made again) whose data read meets MEDIUM ERROR. Before,
// the big row was left as it was and nothing recorded, so its parity missed the dropped log's
// records; a later read of the unreadable sector rebuilt it from that stale parity and returned
// the sector's data from before its last write. Now each row is judged alone
// (parity_logging_unreadable_rows.cpp): the unreadable sector of a row whose parity is stale is
// recorded lost and its read fails; every other sector reads back what was written.
TEST(parity_logging_lost_sectors, a_parity_made_from_data_with_an_unreadable_sector_never_serves_it_from_stale_parity) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    plog_writer w{b};
    plog_writer::read_back_counts got;
    const uint64_t unreadable_lbn = 41;
    component_test::run_clean(b, [&] {
        w.churn(0, 15);
        w.write(unreadable_lbn, 1);  // its record in the log: the parity on the drive misses it
        ASSERT_GT(b.firmware().statistics().small_writes, 0u);
        got = unreadable_then_state_lost(b, w, {unreadable_lbn});
    });
    EXPECT_EQ(lost_sectors_after(b, got), 1);
    EXPECT_EQ(got.wrong, 0u);
    EXPECT_EQ(got.failed, 1u);  // the unreadable sector alone
}

// The explorer's 91:571 (one check): a member lost, and the loss's handling applies the region's
// log but cannot read its sublogs (MEDIUM ERROR): the rows their records name keep a parity that
// misses them (note_unread_checks), to be made again from the data before any request is served
// (repair_stale_checks; with the member missing, those rows are lost on it). Before, the request
// that ran the handling went on at once and rebuilt the lost member's piece from that parity.
TEST(parity_logging_lost_sectors, a_loss_whose_log_replay_cannot_read_a_sublog_never_serves_its_rows_from_stale_parity) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    component_test::host_writer<component_test::plog_bench> w{b};
    const auto &l = b.layout();
    const int lost = l.data_location(0).disk;
    uint64_t failed_reads = 0, wrong_reads = 0, reads = 0;
    component_test::run_clean(b, [&] {
        w.churn(0, 8);  // 24 records: a log write of the first 16 (lbn 0 among them), none applied
        ASSERT_GT(b.firmware().statistics().log_writes, 0u);
        ASSERT_EQ(b.firmware().statistics().reintegrations, 0u);
        ASSERT_FALSE(l.is_log_disk(0, lost));
        for (int s = 0; s < 2; ++s) {
            const auto e = l.sublog_extent(0, s);
            b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, uint32_t(e.sectors));
        }
        b.ctl->fail_member(lost);
        // The first request after the loss runs its handling, then is served: lbn 0 is on the lost
        // member, in a row the unread sublog names.
        std::vector<uint64_t> order{0};
        for (const auto &[lbn, tok] : w.expect)
            if (lbn != 0) order.push_back(lbn);
        for (uint64_t lbn : order) {
            uint64_t t = 0;
            ++reads;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) {
                ++failed_reads;
                continue;
            }
            if (t != w.expect.at(lbn)) ++wrong_reads;
        }
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    std::cout << "reads " << reads << ", failed " << failed_reads << ", wrong " << wrong_reads << ", lost sectors "
              << fw.value("lost_sectors", 0) << "\n";
    EXPECT_EQ(wrong_reads, 0u);
    EXPECT_GT(failed_reads, 0u) << "no row was lost: the test shows nothing";
    EXPECT_LT(failed_reads, reads);
}

// The explorer's 171:578 (one check): a disk lost that holds one of region 0's sublogs; the
// loss's handling drops that region's log and makes its parity again from the data, and the
// power fails while it does; the recovery makes it again, and a data member of region 0 is lost
// while it does. Before, the log was dropped before the parity was made, and the rows it named
// with it: the recovery's rows missing the second member were neither made nor recorded lost,
// and were served rebuilt from the parity that missed the log's records. Now the rows stay in
// the log directory (and the region marked stale) until the parity is written: the recovery's
// rows that cannot be made are lost, never served.
TEST(parity_logging_lost_sectors, a_power_loss_while_a_lost_sublogs_region_gets_its_parity_keeps_the_rows_its_log_named) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    plog_writer w{b};
    const auto &l = b.layout();
    int log_disk = -1;  // holds a sublog of region 0, no data or parity of it
    for (int d = 0; d < 6 && log_disk < 0; ++d)
        if (l.is_log_disk(0, d) && l.member_of(0, d) < 0) log_disk = d;
    ASSERT_GE(log_disk, 0);
    const int data_member = l.data_location(0).disk;
    plog_writer::read_back_counts got;
    uint64_t rebuilds_at_loss = 0, rebuilds_after_recovery = 0;
    component_test::run_clean(b, [&] {
        w.churn(0, 8);  // records in region 0's log, none applied
        ASSERT_GT(b.firmware().statistics().log_writes, 0u);
        ASSERT_EQ(b.firmware().statistics().reintegrations, 0u);
        b.ctl->fail_member(log_disk);
        // The next request has the loss handled: region 0 first, its parity made from its data.
        sc_core::sc_spawn([&] {
            uint64_t t = 0;
            b.host.send(true, uint64_t(l.region_data_sectors()), 1, &t);
        });
        pause_ms(2);
        rebuilds_at_loss = b.firmware().statistics().parity_rebuilds;
        b.ctl->power_fail();
        pause_ms(20);
        sc_core::sc_spawn([&] {
            pause_ms(2);
            b.ctl->fail_member(data_member);  // while the recovery makes region 0's parity
        });
        b.ctl->power_restore_and_recover();
        rebuilds_after_recovery = b.firmware().statistics().parity_rebuilds;
        got = w.read_back_each();
    });
    std::cout << "parity rebuilds at the power loss " << rebuilds_at_loss << ", after the recovery "
              << rebuilds_after_recovery << "; reads " << got.reads << ", failed " << got.failed << ", wrong "
              << got.wrong << "\n";
    ASSERT_EQ(rebuilds_at_loss, 0u) << "the power failed after the parity was made: the test shows nothing";
    EXPECT_GT(rebuilds_after_recovery, 0u) << "the recovery did not make the torn parity again";
    EXPECT_EQ(got.wrong, 0u);
    EXPECT_GT(got.failed, 0u) << "no row was lost: the test shows nothing";
    EXPECT_LT(got.failed, got.reads);
}

// The explorer's 97:1732 (one check, no member lost): host reads meeting MEDIUM ERROR on data
// sectors are repaired from the parity once the region's log is applied. A repair that came
// while a writer's reintegration of the region was running (the writer found the log full) ran
// a second reintegration alongside it, read the same sublogs and applied their records to the
// parity twice; the pieces repaired from that parity, and every later repair of its rows, were
// wrong. Now a repair waits for the running reintegration.
TEST(parity_logging_lost_sectors, a_media_repair_during_a_writers_reintegration_applies_no_record_twice) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    component_test::host_writer<component_test::plog_bench> w{b};
    const auto &l = b.layout();
    uint64_t wrong_reads = 0, failed_reads = 0;
    int bad = 0, nonzero = 0;
    component_test::run_clean(b, [&] {
        w.churn(0, 40);
        // Every data sector of region 0 on one member unreadable; the writer below keeps the log
        // reintegrating while the reader's repairs come one after another.
        const int disk = l.data_location(0).disk;
        std::vector<uint64_t> on_disk;
        for (const auto &[lbn, tok] : w.expect)
            if (l.data_location(int64_t(lbn)).disk == disk) on_disk.push_back(lbn);
        ASSERT_GT(on_disk.size(), 8u);
        for (uint64_t lbn : on_disk) {
            const auto e = l.data_location(int64_t(lbn));
            b.drives[size_t(disk)]->inject_media_error(e.drive_lbn, 1);
        }
        int writing = 0;
        const int writers = 4;
        for (int c = 0; c < writers; ++c) {
            ++writing;
            b.host.spawn([&, c] {
                // Each writer its own stripes: the expectation follows the order of its writes.
                const int64_t stripes = l.region_data_sectors() / l.stripe_data_sectors();
                for (int k = 0; k < 60; ++k) {
                    const int64_t stripe = (int64_t(k) * 7 * writers + c) % stripes;
                    const uint64_t lbn = uint64_t(stripe * l.stripe_data_sectors() + (k % 3) * 4 + 1);
                    std::vector<uint64_t> t = component_test::tokens(500000 + uint64_t(c * 1000 + k), 2);
                    if (b.host.send(false, lbn, 2, t.data()) == tlm::TLM_OK_RESPONSE)
                        for (uint32_t i = 0; i < 2; ++i) w.expect[lbn + i] = t[i];
                }
                --writing;
            });
        }
        while (writing > 0)
            for (uint64_t lbn : on_disk) {
                if (writing == 0) break;
                uint64_t t = 0;
                b.host.send(true, lbn, 1, &t);  // scored by the integrity checker
            }
        const auto got = w.read_back_each();  // the sectors still unreadable repaired too
        failed_reads += got.failed;
        wrong_reads += got.wrong;
        ASSERT_TRUE(b.firmware().reintegrate_all());
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) bad += b.bad_rows(s, nonzero);
    });
    std::cout << "media repairs " << b.firmware().statistics().media_repairs << ", reintegrations "
              << b.firmware().statistics().reintegrations << ", rows whose parity is not their data's " << bad
              << ", wrong " << wrong_reads << ", failed " << failed_reads << "\n";
    EXPECT_GT(b.firmware().statistics().media_repairs, 0u);
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(wrong_reads, 0u);
    EXPECT_EQ(failed_reads, 0u);
}

// The same in a second region once sectors are recorded lost: region 0's unreadable sector is
// recorded lost first, so region 1's parity is made by rebuild_checks_around_losses, which left
// a big row whose data read failed as it was too (stale, nothing recorded).
TEST(parity_logging_lost_sectors, a_parity_made_around_recorded_losses_with_an_unreadable_sector_never_serves_it_from_stale_parity) {
    component_test::plog_bench b(6, component_test::small_parity_logging_config(1), 4096);
    plog_writer w{b};
    plog_writer::read_back_counts got;
    const uint64_t in_region_0 = 41, in_region_1 = uint64_t(b.layout().region_data_sectors()) + 41;
    component_test::run_clean(b, [&] {
        w.churn(0, 15);
        w.churn(1, 15);
        w.write(in_region_0, 1);
        w.write(in_region_1, 1);
        got = unreadable_then_state_lost(b, w, {in_region_0, in_region_1});
    });
    lost_sectors_after(b, got);
    EXPECT_EQ(got.wrong, 0u);
    EXPECT_EQ(got.failed, 2u);  // the two unreadable sectors alone
}
