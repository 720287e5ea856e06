// Parity logging rebuilds a replaced disk (parity_logging_rebuild.cpp), each test at 1, 2 and 3
// checks: the whole array written (logged: large and small writes, reintegrations), a disk lost,
// degraded writes, a fresh drive in its slot rebuilt under foreground load to the end; then every
// check (P, Q, R) of every row equals what the data on the drives give, small writes are logged
// again, and every sector reads back with each other disk lost in turn (the rebuilt drive's data
// and checks are what those reads need). A member of region 0 and a log disk of region 0 (a
// member of the others); with more checks, the rebuild while the other lost members are still
// lost; a power loss during the rebuild resumes from its NVRAM checkpoint; host reads of the rows
// a rebuild step is making, sent while the step holds them.
// Real Cheetah 9LP drives, 4096 blocks each, 16-sector "tracks", 4 regions: a whole rebuild is
// 4 x M steps of one big row.
#include <algorithm>
#include <map>
#include <set>
#include <string>
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

// L = 2 sublogs on C copies, M = C + 3 members (3 data columns).
int disks_for(int checks) { return 3 * checks + 3; }

controller::controller_config rebuild_config(int checks) { return component_test::small_parity_logging_config(checks); }

constexpr uint64_t member_blocks = 4096;

struct bench : component_test::plog_bench {
    explicit bench(int checks, double share = 0.3) : plog_bench(disks_for(checks), config(checks, share), member_blocks) {}
    static controller::controller_config config(int checks, double share) {
        controller::controller_config c = rebuild_config(checks);
        c.firmware.rebuild.share = share;
        return c;
    }
};
using writer = component_test::host_writer<bench>;

// Every written sector read back a logical stripe at a time (the scoreboard and the writer check).
void check_stripes(bench &b, writer &w) {
    const uint64_t S = uint64_t(b.layout().stripe_data_sectors());
    for (uint64_t lbn = 0; lbn < b.ctl->capacity_sectors(); lbn += S) w.check(lbn, uint32_t(S));
}

// Rows of the whole array whose checks differ from their data (the `lost` disks' data from the
// host's writes, their checks not compared); nonzero: rows' data sectors holding data.
int bad_rows(bench &b, writer &w, int &nonzero, const std::set<int> &lost = {}) {
    const auto &l = b.layout();
    int bad = 0;
    for (int64_t s = 0; s < int64_t(b.ctl->capacity_sectors()) / l.stripe_data_sectors(); ++s)
        bad += b.bad_rows(s, nonzero, lost, &w.expect);
    return bad;
}

// Replaces `disk` and waits for its rebuild (foreground load meanwhile when `load`).
void rebuild(bench &b, int disk, component_test::foreground<bench> *load) {
    b.drives[size_t(disk)]->replace_media();
    ASSERT_TRUE(b.ctl->replace_member(disk));
    EXPECT_EQ(b.ctl->members().state(disk), member_state::rebuilding);
    if (load) load->start();
    wait_for_state(b, disk, member_state::optimal, 600000);
    if (load) {
        load->finish();
        EXPECT_EQ(load->failed, 0u);
        EXPECT_GT(load->requests, 50u) << "no foreground I/O during the rebuild: the test shows little";
    }
}

// After every lost disk is rebuilt: the checks of every row raw, logging again, every sector read
// back with each other disk lost in turn.
void check_after_rebuild(bench &b, writer &w, int rebuilt) {
    const auto &st = b.firmware().statistics();
    w.check(0, 1);  // the first request takes the rebuilt member back: logging from here on
    const uint64_t small = st.small_writes, degraded = st.degraded_writes;
    w.churn(1, 10);
    EXPECT_EQ(st.small_writes, small + 10) << "the array went back to logging";
    EXPECT_EQ(st.degraded_writes, degraded);
    ASSERT_TRUE(b.firmware().reintegrate_all());
    int nonzero = 0;
    EXPECT_EQ(bad_rows(b, w, nonzero), 0);
    EXPECT_GT(nonzero, int(b.ctl->capacity_sectors() / 2));
    int checked = 0;
    for (int other = 0; other < int(b.drives.size()); ++other) {
        if (other == rebuilt) continue;
        b.ctl->set_failed_disk(other);
        check_stripes(b, w);  // the other disk's data come from the rebuilt drive's rows too
        ++checked;
    }
    b.ctl->set_failed_disk(-1);
    EXPECT_EQ(checked, int(b.drives.size()) - 1);
}

// Writes everything, loses `lost` (and `also` after it), degraded writes, rebuilds `lost` under
// load (then `also`, one after the other), and checks.
void lose_and_rebuild(int checks, bool log_disk, int also_count) {
    bench b(checks);
    const auto &l = b.layout();
    writer w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    component_test::foreground<bench> load{b, w, capacity};
    const int lost = log_disk ? l.log_disk(0, 0) : l.member_disk(0, 0);
    std::set<int> also;
    for (int i = 1; i <= also_count; ++i) also.insert(l.member_disk(0, i));
    component_test::run_clean(b, [&] {
        const uint64_t S = uint64_t(l.stripe_data_sectors());
        for (uint64_t lbn = 0; lbn < capacity; lbn += S) w.write(lbn, uint32_t(S));
        w.churn(0, 40);
        w.churn(2, 40);
        EXPECT_GT(b.firmware().statistics().reintegrations, 0u);
        b.ctl->fail_member(lost);
        for (uint64_t lbn = 0; lbn < capacity; lbn += 5 * S) w.write(lbn + 1, 3);  // degraded writes
        for (int d : also) {
            b.ctl->fail_member(d);
            for (uint64_t lbn = 2 * S; lbn < capacity; lbn += 7 * S) w.write(lbn + 2, 5);
        }
        rebuild(b, lost, &load);
        if (!also.empty()) {
            // Rebuilt while the others are still lost: its rows made from the surviving members.
            check_stripes(b, w);
            int nonzero = 0;
            EXPECT_EQ(bad_rows(b, w, nonzero, also), 0);
            for (int d : also) rebuild(b, d, nullptr);
        }
        check_after_rebuild(b, w, lost);
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    ASSERT_TRUE(fw.contains("rebuild")) << fw.dump();
    EXPECT_EQ(fw["rebuild"]["finished"], 1 + also_count);
    EXPECT_EQ(fw["rebuild"]["units_lost"], 0);
    // Every unit of the member's regions: 4 regions x M big rows, less those where it logs.
    const int M = l.members(), member_regions = [&] {
        int n = 0;
        for (int r = 0; r < l.regions(); ++r) n += l.member_of(r, lost) >= 0;
        return n;
    }();
    EXPECT_GE(fw["rebuild"]["units_rebuilt"].get<int>(), member_regions * M);
    EXPECT_GT(b.ctl->integrity().reads_checked(), capacity);
}

class parity_logging_rebuild : public ::testing::TestWithParam<int> {};

}  // namespace

INSTANTIATE_TEST_SUITE_P(checks, parity_logging_rebuild, ::testing::Values(1, 2, 3),
                         [](const ::testing::TestParamInfo<int> &i) { return std::to_string(i.param) + "_checks"; });

TEST_P(parity_logging_rebuild, a_replaced_member_is_rebuilt_under_load_and_every_other_disk_can_then_be_lost) {
    lose_and_rebuild(GetParam(), false, 0);
}

TEST_P(parity_logging_rebuild, a_replaced_log_disk_is_rebuilt_under_load_and_every_other_disk_can_then_be_lost) {
    lose_and_rebuild(GetParam(), true, 0);
}

// C members of region 0 lost; the first replaced and rebuilt while the other C - 1 are still
// lost (each of its rows solved from the surviving members), then those one after the other.
TEST_P(parity_logging_rebuild, a_member_is_rebuilt_while_the_other_lost_members_are_still_lost) {
    if (GetParam() == 1) GTEST_SKIP() << "one check: one lost disk at a time";
    lose_and_rebuild(GetParam(), false, GetParam() - 1);
}

// The power fails at 30% of a rebuild (a step in flight, its rows not yet passed; the host quiet,
// since a host write torn in a row the rebuild has not reached is a degraded array's write hole)
// and comes back: the rebuild goes on from its NVRAM checkpoint, not from the start, and the
// rebuilt drive is right.
TEST_P(parity_logging_rebuild, a_power_loss_during_the_rebuild_resumes_from_its_checkpoint) {
    bench b(GetParam(), 0.2);
    const auto &l = b.layout();
    writer w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    component_test::foreground<bench> load{b, w, capacity};
    const int lost = l.member_disk(1, 0);
    double at_loss = 0;
    bool lose_power = false, checked = false;
    // The power is lost and restored from a thread alive since time 0 that sent nothing before
    // (a thread that did belongs to the old power epoch; a thread spawned later could reuse the
    // address of one that did, which the platform's epochs would take for it), then the rebuild
    // runs to its end under load and everything is checked.
    b.host.spawn([&] {
        while (!lose_power) pause_ms(1);
        b.ctl->power_fail();
        pause_ms(200);
        b.ctl->power_restore_and_recover();
        load.stop = false;
        load.requests = 0;
        load.start();  // foreground again until the end of the rebuild
        wait_for_state(b, lost, member_state::optimal, 600000);
        load.finish();
        EXPECT_EQ(load.failed, 0u);
        check_after_rebuild(b, w, lost);
        checked = true;
    });
    component_test::run_clean(b, [&] {
        const uint64_t S = uint64_t(l.stripe_data_sectors());
        for (uint64_t lbn = 0; lbn < capacity; lbn += S) w.write(lbn, uint32_t(S));
        w.churn(1, 40);
        b.ctl->fail_member(lost);
        for (uint64_t lbn = 0; lbn < capacity; lbn += 5 * S) w.write(lbn + 1, 3);
        b.drives[size_t(lost)]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(lost));
        load.start();
        while (b.ctl->members().progress(lost) < 0.3) pause_ms(1);
        load.finish();
        at_loss = b.ctl->members().progress(lost);
        lose_power = true;
        while (!checked) pause_ms(10);
    });
    EXPECT_TRUE(checked);
    ASSERT_GT(at_loss, 0.0);
    ASSERT_LT(at_loss, 0.9);
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    EXPECT_EQ(fw["rebuild"]["restarts_after_power_loss"], 1) << fw["rebuild"].dump();
    EXPECT_EQ(fw["rebuild"]["resumed_from_checkpoint"], 1);
    EXPECT_GT(fw["rebuild"]["units_not_redone"].get<int>(), 0);
    EXPECT_EQ(fw["rebuild"]["finished"], 1);
    EXPECT_EQ(fw["rebuild"]["units_lost"], 0);
}

// A host read of the member's piece in the big row a rebuild step is making: sent while the step
// holds the row's stripe locks, it finds the piece absent, waits for the lock, and by then the
// step has written it. Each of the C lost members' rows solved with the others still lost
// (C - 1 of them); the readers follow the rebuild's cursor, so every step meets reads waiting on
// its locks. Every read is served, with the host's data.
TEST_P(parity_logging_rebuild, a_read_waiting_for_a_rebuild_step_of_its_row_is_served) {
    const int C = GetParam();
    bench b(C);
    const auto &l = b.layout();
    writer w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    const int lost = l.member_disk(0, 0), M = l.members();
    const int64_t u = l.unit_sectors(), pt = l.parity_unit_sectors();
    // The logical units whose data rebuild unit `unit` (region * M + slot) makes on `lost`.
    std::map<uint64_t, std::vector<uint64_t>> pieces_of_unit;
    for (int64_t lbn = 0; lbn < int64_t(capacity); lbn += u) {
        const auto e = l.data_location(lbn);
        if (e.disk != lost) continue;
        const int region = l.region_of(lbn);
        pieces_of_unit[uint64_t(region) * uint64_t(M) + uint64_t((e.drive_lbn - l.region_start(region, lost)) / pt)]
            .push_back(uint64_t(lbn));
    }
    uint64_t reads = 0, failed = 0, wrong = 0;
    int running = 0;
    auto reader = [&](bool backwards) {
        ++running;
        b.host.spawn([&, backwards] {
            while (b.ctl->members().state(lost) == member_state::rebuilding) {
                const auto *cursor = b.firmware().rebuild().cursor(lost);
                const auto it = cursor ? pieces_of_unit.find(cursor->next()) : pieces_of_unit.end();
                if (it == pieces_of_unit.end()) {  // a check unit of the member, or the end
                    pause_ms(1);
                    continue;
                }
                std::vector<uint64_t> lbns = it->second;
                if (backwards) std::reverse(lbns.begin(), lbns.end());
                for (uint64_t lbn : lbns) {
                    std::vector<uint64_t> t(size_t(u), 0);
                    ++reads;
                    if (b.host.send(true, lbn, uint32_t(u), t.data()) != tlm::TLM_OK_RESPONSE) {
                        ++failed;
                        continue;
                    }
                    for (int64_t i = 0; i < u; ++i) {
                        const auto e = w.expect.find(lbn + uint64_t(i));
                        wrong += t[size_t(i)] != (e == w.expect.end() ? 0u : e->second);
                    }
                }
            }
            --running;
        });
    };
    component_test::run_clean(b, [&] {
        const uint64_t S = uint64_t(l.stripe_data_sectors());
        for (uint64_t lbn = 0; lbn < capacity; lbn += S) w.write(lbn, uint32_t(S));
        b.ctl->fail_member(lost);
        for (int i = 1; i < C; ++i) b.ctl->fail_member(l.member_disk(0, i));
        w.check(0, 1);  // the losses handled
        b.drives[size_t(lost)]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(lost));
        reader(false);
        reader(true);
        wait_for_state(b, lost, member_state::optimal, 600000);
        while (running > 0) pause_ms(1);
    });
    EXPECT_EQ(failed, 0u) << "of " << reads << " reads of the rows being rebuilt";
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(reads, uint64_t(4 * M)) << "the readers met few steps: the test shows little";
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    EXPECT_EQ(fw["rebuild"]["finished"], 1);
    EXPECT_EQ(fw["rebuild"]["units_lost"], 0);
}

// A rebuild source that cannot be read (MEDIUM ERROR on a surviving member's check run of region
// 0) at 2 and 3 checks: one lost member and one unreadable source is within the checks, so the
// step solves the row without that source. Before, the step failed and the whole unit on the new
// drive was recorded lost (explorer 111:3: 1,344 sectors lost within the promise).
class parity_logging_rebuild_unreadable_source : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(checks, parity_logging_rebuild_unreadable_source, ::testing::Values(2, 3),
                         [](const ::testing::TestParamInfo<int> &i) { return std::to_string(i.param) + "_checks"; });

TEST_P(parity_logging_rebuild_unreadable_source, is_left_out_and_the_row_solved_from_the_others) {
    const int C = GetParam();
    bench b(C);
    const auto &l = b.layout();
    writer w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    const int lost = l.member_disk(0, 0);
    component_test::run_clean(b, [&] {
        const uint64_t S = uint64_t(l.stripe_data_sectors());
        for (uint64_t lbn = 0; lbn < capacity; lbn += S) w.write(lbn, uint32_t(S));
        ASSERT_TRUE(b.firmware().reintegrate_all());
        b.ctl->fail_member(lost);
        w.check(0, 1);  // the loss handled
        // Every other member's check runs of region 0 unreadable in their first sectors.
        for (int m = 1; m < l.members(); ++m) {
            const auto e = l.parity_extent(0, m);
            b.drives[size_t(e.disk)]->inject_media_error(e.drive_lbn, 2);
        }
        rebuild(b, lost, nullptr);
        check_stripes(b, w);
        EXPECT_TRUE(b.firmware().statistics().lost_ranges.empty());
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    ASSERT_TRUE(fw.contains("rebuild")) << fw.dump();
    EXPECT_EQ(fw["rebuild"]["units_lost"], 0);
}
