// Component benches for parity logging over P+Q and P+Q+R with a replicated log
// (controller.parity_logging.checks 2 and 3; the parity logging paper's Section 9 at f = 2, 3),
// each test run for both: after small and large writes and reintegrations, every check of every
// big row equals what the data on the drives gives (raw contents, pq_parity.h's check k = sum
// g^(k j) D_j: P = sum D_j, Q = sum g^j D_j, R = sum g^2j D_j); a small write costs its data
// commands and its records reach every log copy; a disk loss (member or log disk), MEDIUM ERRORs,
// a power loss and a lost controller state keep the checks exact and the data readable.
// Real Cheetah 9LP drives; a 16-sector "track" and many regions keep logs and check images small.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "parity_logging_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/layouts/parity_logging_layout.h"
#include "controller/layouts/pq_parity.h"
#include "rtl_models/xor/gf256.h"

using namespace raidtlm;

namespace {

// L = 2 and 3 data columns: 2 checks on 9 disks (4 log disks per region: 2 copies of 2 sublogs,
// M = 5 members), 3 checks on 12 (6 log disks: 3 copies, M = 6).
int disks_for(int checks) { return 2 * checks + checks + 3; }

controller::controller_config pq_config(int checks) {
    controller::controller_config c;
    c.channels = 3;
    c.firmware.array = controller::array_kind::parity_logging;
    c.firmware.stripe_unit_sectors = 4;
    auto &p = c.firmware.parity_logging;
    p.checks = checks;
    p.track_sectors = 16;
    p.regions_per_disk = 20000;
    p.log_stripes = 2;
    p.log_to_parity = 0.06;  // tiny logs: a few tracks per sublog, reintegrations come soon
    p.log_write_tracks = 1;
    p.buffer_tracks = 64;
    c.nvram.capacity_bytes = 4 << 20;
    return c;
}

struct pq_bench : component_test::plog_bench {
    explicit pq_bench(const controller::controller_config &c) : plog_bench(disks_for(c.firmware.parity_logging.checks), c) {}
    explicit pq_bench(int checks) : pq_bench(pq_config(checks)) {}
};

using writer = component_test::host_writer<pq_bench>;

// The number of checks: 2 (P+Q) and 3 (P+Q+R).
class controller_parity_logging_pq : public ::testing::TestWithParam<int> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(checks, controller_parity_logging_pq, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int> &i) { return std::to_string(i.param) + "_checks"; });

TEST_P(controller_parity_logging_pq, layout_has_c_checks_per_row_and_c_copies_of_two_sublogs) {
    const int C = GetParam();
    pq_bench b(C);
    const auto &l = b.layout();
    EXPECT_EQ(l.checks(), C);
    EXPECT_EQ(l.log_disks(), 2 * C);
    EXPECT_EQ(l.members(), C + 3);
    EXPECT_EQ(l.data_columns(), 3);
    EXPECT_EQ(l.stripe_data_sectors(), 12);
    EXPECT_NE(l.describe().find(C == 2 ? "P+Q," : "P+Q+R,"), std::string::npos) << l.describe();
}

TEST_P(controller_parity_logging_pq, small_and_large_writes_keep_every_check_of_every_row) {
    const int C = GetParam();
    pq_bench b(C);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 60);  // 180 update records: several reintegrations of region 0
        const uint64_t stripe = uint64_t(l.stripe_data_sectors());
        w.write(5 * stripe, uint32_t(stripe));  // a large write: overwrite records of every check
        w.churn(1, 10);
        w.write(5 * stripe + 1, 2);  // an update after the overwrite, same check sectors
        w.write(7 * stripe + 2, 9);  // across two logical stripes: small pieces of each
        w.check_all();
        ASSERT_TRUE(b.firmware().reintegrate_all());  // every log into the checks
        w.check_all();
        const auto &st = b.firmware().statistics();
        EXPECT_GE(st.reintegrations, 3u);
        EXPECT_EQ(st.large_writes, 1u);
        EXPECT_EQ(st.overwrite_records, uint64_t(C) * uint64_t(l.unit_sectors()));  // P's, Q's (and R's)
        // Raw drive contents (debug transport, from the bench's thread).
        int bad = 0, nonzero = 0;
        const int64_t stripes = 2 * l.region_data_sectors() / l.stripe_data_sectors();
        for (int64_t s = 0; s < stripes; ++s) bad += b.bad_rows(s, nonzero);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, 200);  // not vacuous: rows holding ~230 written sectors were compared
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), 150u);
    EXPECT_GT(b.ctl->xor_unit().statistics().gf_commands, 0u);  // Q (and R) on the engine's GF mode
}

// One small write costs its data preread and write (2 drive commands); its records go into each
// of the C log copies: a track of records (16 sectors) is one log write on each copy.
TEST_P(controller_parity_logging_pq, a_small_write_costs_two_data_commands_and_each_log_copy_is_written) {
    const int C = GetParam();
    pq_bench b(C);
    const auto &l = b.layout();
    uint64_t after_one = 0, after_all = 0;
    run_to_end(b, [&] {
        writer w{b, {}};
        w.write(1, 2);
        after_one = b.drive_commands();  // records still in NVRAM: no log write yet
        for (int k = 1; k < 8; ++k) w.write(uint64_t(k * l.stripe_data_sectors() + 1), 2);  // 16 records
        sc_core::wait(sc_core::sc_time(200, sc_core::SC_MS));  // the background log writes end
        after_all = b.drive_commands();  // before the raw reads below, which the drives count too
        // The C copies of sublog 0 hold the same 16 record images, on different disks.
        const auto c0 = l.sublog_extent(0, 0, 0);
        std::set<int> disks{c0.disk};
        for (int c = 1; c < C; ++c) {
            const auto cc = l.sublog_extent(0, 0, c);
            EXPECT_TRUE(disks.insert(cc.disk).second) << "copy " << c;
            for (int64_t k = 0; k < 16; ++k)
                EXPECT_EQ(b.raw(c0.disk, c0.drive_lbn + k), b.raw(cc.disk, cc.drive_lbn + k)) << "record " << k;
        }
        int nonzero = 0;
        for (int64_t k = 0; k < 16; ++k) nonzero += b.raw(c0.disk, c0.drive_lbn + k) != 0;
        EXPECT_EQ(nonzero, 16);
    });
    EXPECT_EQ(after_one, 2u);
    const auto &st = b.firmware().statistics();
    EXPECT_EQ(st.small_writes, 8u);
    EXPECT_EQ(st.log_writes, uint64_t(C));  // one per copy
    EXPECT_EQ(st.log_write_sectors, 16u * uint64_t(C));
    EXPECT_EQ(after_all, 8u * 2u + uint64_t(C));
}

// A disk lost with records reintegrated, on the sublogs and only in NVRAM: the first request
// applies every log (a lost log disk's sublogs read from another copy), then reads of the lost
// disk are rebuilt from the row's other data and P, and writes update the live checks directly.
// Every check of every row then matches the data (the lost disk's taken from what the host wrote).
void expect_a_disk_loss_keeps_the_checks(int checks, bool log_disk) {
    pq_bench b(checks);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, log_disk ? 15 : 50);  // log disk: 45 records on its sublogs, none reintegrated
        w.churn(1, 7);
        const int lost = log_disk ? l.log_disk(0, 0) : l.member_disk(0, 0);
        b.ctl->set_failed_disk(lost);
        w.check_all();
        const auto &st = b.firmware().statistics();
        EXPECT_EQ(st.parity_rebuilds, 0u);  // nothing rebuilt from data: the logs were applied
        if (log_disk) {
            EXPECT_EQ(st.reintegrations, 2u);  // regions 0 (from copy 1) and 1
        }
        w.churn(0, 20);  // direct check updates
        const uint64_t stripe = uint64_t(l.stripe_data_sectors());
        w.write(3 * stripe, uint32_t(stripe));  // a whole stripe, piece by piece
        w.churn(1, 10);
        w.check_all();
        EXPECT_GT(st.degraded_writes, 30u);
        if (!log_disk) {
            EXPECT_GT(st.rebuilt_reads, 10u);
        }
        int bad = 0, nonzero = 0;
        for (int64_t s = 0; s < 2 * l.region_data_sectors() / l.stripe_data_sectors(); ++s)
            bad += b.bad_rows(s, nonzero, {lost}, &w.expect);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, 80);  // rows holding written data were compared
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), 150u);
}

TEST_P(controller_parity_logging_pq, a_lost_member_is_rebuilt_from_p_and_writes_keep_every_check) {
    expect_a_disk_loss_keeps_the_checks(GetParam(), false);
}

TEST_P(controller_parity_logging_pq, a_lost_log_disk_s_sublogs_are_read_from_another_copy) {
    expect_a_disk_loss_keeps_the_checks(GetParam(), true);
}

// C disks lost one after another (members of region 0, so its rows lose up to C members: data,
// checks or both): the first loss applies the logs, every later one is served from the row's
// surviving data and checks (a lost column rebuilt by inverting the live checks' equations in
// GF(2^8)); after each loss every written sector reads back, and at the end every live check of
// every row matches the data (the lost disks' taken from what the host wrote). One more lost disk
// would be refused.
TEST_P(controller_parity_logging_pq, c_disks_lost_one_after_another_keep_the_data_and_the_live_checks) {
    const int C = GetParam();
    pq_bench b(C);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        // Region 0 written whole: every rebuilt sector depends on every column of its row.
        const int64_t S = l.stripe_data_sectors();
        for (int64_t s = 0; s < l.region_data_sectors() / S; ++s) w.write(uint64_t(s * S), uint32_t(S));
        w.churn(0, 50);
        w.churn(1, 7);
        std::set<int> lost;
        for (int i = 0; i < C; ++i) {
            lost.insert(l.member_disk(0, i));
            b.ctl->fail_member(l.member_disk(0, i));
            w.check_all();
            w.churn(0, 20 + 7 * i);  // direct updates of the live checks, lost columns rebuilt
            w.write(uint64_t((3 + i) * l.stripe_data_sectors()), uint32_t(l.stripe_data_sectors()));
            w.churn(1, 5);
            w.check_all();
        }
        EXPECT_EQ(b.ctl->failed_disks().size(), size_t(C));
        const auto &st = b.firmware().statistics();
        EXPECT_EQ(st.parity_rebuilds, 0u);
        EXPECT_GT(st.degraded_writes, 60u);
        EXPECT_GT(st.rebuilt_reads, 100u);
        int bad = 0, nonzero = 0;
        for (int64_t s = 0; s < 2 * l.region_data_sectors() / l.stripe_data_sectors(); ++s)
            bad += b.bad_rows(s, nonzero, lost, &w.expect);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, int(l.region_data_sectors()));
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), uint64_t(2 * C * l.region_data_sectors()));
}

// Unreadable data sectors (MEDIUM ERROR) with records of their rows still in the log: a read's
// piece and a small write's preread are rebuilt from the row's other data and P once the log is
// applied, and rewritten; the host gets the acknowledged data and every check stays exact.
TEST_P(controller_parity_logging_pq, medium_errors_are_repaired_from_p_after_the_log_is_applied) {
    pq_bench b(GetParam());
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 15);  // 45 records in the log, none reintegrated: P on disk is stale
        for (uint64_t lbn : {37u, 74u}) {  // both written by the churn
            ASSERT_TRUE(w.expect.count(lbn));
            const auto e = l.data_location(int64_t(lbn));
            b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, 1);
        }
        w.check(37, 1);  // a read repaired
        w.write(74, 2);  // a small write whose preread meets the error
        w.check(74, 2);
        const auto &st = b.firmware().statistics();
        EXPECT_EQ(st.media_repairs, 2u);
        EXPECT_GE(st.reintegrations, 1u);  // the log applied before the first repair
        ASSERT_TRUE(b.firmware().reintegrate_all());
        int bad = 0, nonzero = 0;
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) bad += b.bad_rows(s, nonzero);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, 30);
        w.check_all();
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// Power lost during small writes and reads over region 0 (16 clients): recovery reintegrates
// every log from the drives' log copy and NVRAM, rebuilds the checks from the data of the stripes
// whose writes were in flight (write-intent records) and of a region caught reintegrating; then
// every acknowledged sector reads back and every check of every row equals what the data give.
// (The resync runs, resynced_stripes > 0, but this load leaves no stripe torn: with
// resync_stripe_checks made a no-op the test still passes. What it shows is the rest of recovery.)
TEST_P(controller_parity_logging_pq, a_power_loss_during_small_writes_leaves_the_checks_consistent) {
    controller::controller_config c = pq_config(GetParam());
    c.firmware.tags_per_disk = 1;  // commands queue in the controller, more of them in flight at the loss
    pq_bench b(c);
    const auto &l = b.layout();
    const uint64_t hot = uint64_t(l.region_data_sectors());
    bool stop = false;
    uint64_t done = 0;
    for (int k = 0; k < 16; ++k)
        b.host.spawn([&, k] {
            uint64_t x = uint64_t(k) * 7919 + 17;
            for (uint64_t n = 0; !stop; ++n) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                const bool write = (x >> 63) != 0;
                const uint32_t sectors = 1 + uint32_t((x >> 40) % 3);
                const uint64_t lbn = (x >> 20) % (hot - sectors);
                std::vector<uint64_t> t =
                    write ? component_test::tokens(uint64_t(k) << 32 | n, sectors) : std::vector<uint64_t>(sectors);
                b.host.send(!write, lbn, sectors, t.data());
                ++done;
            }
        });
    size_t recovered = 0;
    int bad = 0, nonzero = 0;
    b.host.spawn([&] {
        sc_core::wait(sc_core::sc_time(1500, sc_core::SC_MS));  // several log cycles of region 0
        b.ctl->power_fail();
        stop = true;
        sc_core::wait(sc_core::sc_time(200, sc_core::SC_MS));  // every drive command in flight is done
        recovered = b.ctl->power_restore_and_recover();
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_MS));  // the clients' last requests return
        EXPECT_TRUE(b.firmware().reintegrate_all());
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) bad += b.bad_rows(s, nonzero);
        for (uint64_t lbn = 0; lbn < hot; ++lbn) {
            uint64_t t = 0;
            EXPECT_EQ(b.host.send(true, lbn, 1, &t), tlm::TLM_OK_RESPONSE);
        }
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_GT(done, 300u);
    EXPECT_GT(recovered, 0u);
    EXPECT_GT(b.firmware().statistics().resynced_stripes, 0u) << "no write was in flight: the test shows nothing";
    EXPECT_GT(b.firmware().statistics().reintegrations, 0u);
    EXPECT_EQ(bad, 0);
    EXPECT_GT(nonzero, 150);
    EXPECT_GT(b.ctl->integrity().reads_checked(), hot / 2);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    for (const auto &m : b.ctl->integrity().first_mismatches())
        ADD_FAILURE() << "lbn " << m.lbn << " expected " << std::hex << m.expected << " got " << m.got;
}

// The controller's state lost (a replacement without the NVRAM): buffers and logs dropped, the
// checks of every region with records rebuilt from the data; every row then matches its data.
TEST_P(controller_parity_logging_pq, lost_controller_state_rebuilds_the_checks_from_the_data) {
    pq_bench b(GetParam());
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 15);  // 45 records in the log, none reintegrated: the checks on disk are stale
        int stale = 0, nonzero = 0;
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) stale += b.bad_rows(s, nonzero);
        EXPECT_GT(stale, 0) << "the checks were current before the loss: the test shows nothing";
        ASSERT_TRUE(b.firmware().lose_controller_state());
        int bad = 0;
        nonzero = 0;
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) bad += b.bad_rows(s, nonzero);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, 30);
        EXPECT_EQ(b.firmware().statistics().parity_rebuilds, 1u);
        w.check_all();
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// A MEDIUM ERROR on a check run or a sublog met by a reintegration (1, 2 and 3 checks). Before,
// the reintegration failed, failed the writers waiting on it (a within-the-promise fault failing
// host writes), and truncated the log anyway: the records never reached the checks, so a disk
// lost later was rebuilt from stale checks (explorer 15:28: 1,632 wrong reads). Now the records
// read go to the runs read, the rest is repaired from the data once the writes in flight are done.
class parity_logging_unreadable_checks : public ::testing::TestWithParam<std::tuple<int, bool>> {};

INSTANTIATE_TEST_SUITE_P(checks, parity_logging_unreadable_checks,
                         ::testing::Combine(::testing::Values(1, 2, 3), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<int, bool>> &i) {
                             return std::to_string(std::get<0>(i.param)) + "_checks_" +
                                    (std::get<1>(i.param) ? "sublog" : "check_run");
                         });

TEST_P(parity_logging_unreadable_checks, a_reintegration_that_cannot_read_its_checks_or_log_loses_no_record) {
    const auto [C, on_sublog] = GetParam();
    pq_bench b(C);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 15);  // records in the log and on the sublogs, none reintegrated
        const auto &st = b.firmware().statistics();
        ASSERT_EQ(st.reintegrations, 0u);
        // Every check run of region 0 (or the first sublog) unreadable in its first sectors.
        if (on_sublog) {
            const auto e = l.sublog_extent(0, 0);
            b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, 4);
        } else {
            for (int m = 0; m < l.members(); ++m) {
                const auto e = l.parity_extent(0, m);
                b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, 2);
            }
        }
        w.churn(0, 40);  // reintegrations meet the errors: every write must still succeed
        EXPECT_GE(st.reintegrations, 1u);
        w.check_all();  // a request after them: the stale checks repaired from the data first
        ASSERT_TRUE(b.firmware().reintegrate_all());
        int bad = 0, nonzero = 0;
        for (int64_t s = 0; s < l.region_data_sectors() / l.stripe_data_sectors(); ++s) bad += b.bad_rows(s, nonzero);
        EXPECT_EQ(bad, 0);
        EXPECT_GT(nonzero, 30);
        // A data member lost: its rows rebuilt from the checks, which must hold every record.
        b.ctl->set_failed_disk(l.member_disk(0, C));
        w.read_all();
        EXPECT_GT(st.rebuilt_reads, 5u);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

// P+Q+R: a reintegration that cannot read one member's check run, then two data members lost
// before the next request (so before the repair from the data). The unread run is one check of
// three big rows (P of one, Q of another, R of a third); the other two checks of each took the
// records. Two data members missing plus that check is three gone members of a three-check row:
// every row must still be served. Before, the run's rows were staled whole and, with a data
// member missing, recorded lost (explorer 51:210, 91:538, 93:83: 1,344 sectors lost within the
// promise).
TEST(parity_logging_unread_check_run, is_one_missing_check_of_its_rows_not_whole_stale_rows) {
    const int C = 3;
    pq_bench b(C);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        for (int64_t lbn = 0; lbn + 3 <= l.region_data_sectors(); lbn += 3) w.write(uint64_t(lbn), 3);
        const auto &st = b.firmware().statistics();
        ASSERT_TRUE(b.firmware().reintegrate_all());
        w.churn(0, 15);  // records of every big row of region 0 in the log
        // Member 0's run (P of big row M-1, Q of row 0, R of row 1) unreadable in two sectors.
        const auto run = l.parity_extent(0, 0);
        b.drives[size_t(run.disk)]->inject_media_error(run.drive_lbn, 2);
        ASSERT_TRUE(b.firmware().reintegrate_all());  // the records go to the other members' runs
        // Members 2 and 3 lost: data of big rows 0, 1 and M-1 (with the unread run's check, three
        // gone members each); no row misses more than three.
        b.ctl->fail_member(l.member_disk(0, 2));
        b.ctl->fail_member(l.member_disk(0, 3));
        w.check_all();
        EXPECT_GT(st.rebuilt_reads, 5u);
        EXPECT_TRUE(st.lost_ranges.empty()) << st.lost_ranges.size() << " ranges lost within the promise";
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_EQ(b.ctl->outstanding(), 0);
}
