// Component benches for floating data and check at two and three failures (controller.layout:
// floating, floating_checks: 2 or 3; floating_raid6_firmware.h): a blind small write is three
// floated read-rotate-writes (data, P, Q), four with R, a cached one a data write in place and
// two (three); under a hot region of concurrent small writes and reads every read returns the
// acknowledged data (the scoreboard) and afterwards the checks of every stripe agree with the
// data where the units now live (read raw from the drives). IBM 0661 drives (the floating
// paper's), 4-sector units, 6 disks (7 with R): 4 data units and the checks per stripe.
#include <cstdint>
#include <iostream>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "pq_rows.h"
#include "controller/platform/controller_top.h"
#include "controller/families/floating/floating_raid6_firmware.h"
#include "controller/layouts/parity_stripe_layout.h"

using namespace raidtlm;
using component_test::controller_bench;

namespace {

constexpr uint64_t unit = 4;  // sectors: the paper's 2 KB write is one unit
constexpr int data_units = 4;

const disks::disk_spec &ibm0661() {
    static const disks::disk_spec ibm =
        disks::load_diskspec(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/disks/ibm0661.diskspecs");
    return ibm;
}

controller::controller_config floating_pq_config(bool cached, bool checks_after_data, int checks = 2) {
    controller::controller_config c;
    c.channels = 3;
    c.firmware.stripe_unit_sectors = unit;
    c.firmware.array = controller::array_kind::floating;
    c.firmware.floating_checks = checks;
    c.firmware.old_data_cached = cached;
    c.firmware.rrw_parity_after_data = checks_after_data;
    return c;
}

struct floating_pq_bench : controller_bench {
    explicit floating_pq_bench(const controller::controller_config &c)
        : controller_bench(data_units + c.firmware.floating_checks, c, ibm0661()) {}
    const controller::floating_raid6_firmware &firmware() const {
        const auto *f = ctl->firmware_as<controller::floating_raid6_firmware>();
        EXPECT_NE(f, nullptr) << "floating_checks 2 did not select floating over RAID 6";
        return *f;
    }
    const controller::parity_stripe_layout &layout() const {
        return dynamic_cast<const controller::parity_stripe_layout &>(*ctl->array_layout());
    }
    // Rows of stripe s whose P or Q disagree with its data, each unit read where it lives now.
    int bad_rows(int64_t s) {
        const auto &fw = firmware();
        return component_test::pq_bad_rows(*ctl, layout(), s, unit, [&](int d, uint64_t lbn) {
            return fw.current_lbn(d, lbn, uint32_t(unit));
        });
    }
    uint64_t drive_commands() const {
        uint64_t n = 0;
        for (const auto &d : drives) n += d->statistics().requests;
        return n;
    }
};

using writer = component_test::host_writer<floating_pq_bench>;

// One small write (2 of a unit's 4 sectors) on an idle array: the drive commands it costs.
void expect_one_small_write(bool cached, uint64_t rrws, uint64_t moves, int checks = 2) {
    floating_pq_bench b(floating_pq_config(cached, false, checks));
    uint64_t write_commands = 0;
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(5, 2);
        write_commands = b.drive_commands();  // nothing else has run yet
        w.check(0, 16);  // stripe 0's data read back
        EXPECT_EQ(b.bad_rows(0), 0);
    });
    EXPECT_EQ(write_commands, uint64_t(checks) + 1);
    EXPECT_EQ(b.firmware().kit().queues.statistics().read_rotate_writes, rrws);
    EXPECT_EQ(b.firmware().floating().moves, moves);
    EXPECT_EQ(b.firmware().statistics().stripe_writes[size_t(controller::write_path::read_modify_write)], 1u);
}

}  // namespace

TEST(controller_floating_raid6, a_blind_small_write_is_three_floated_read_rotate_writes) {
    expect_one_small_write(false, 3, 3);
}

TEST(controller_floating_raid6, a_cached_small_write_is_a_data_write_and_two_floated_check_accesses) {
    expect_one_small_write(true, 2, 2);
}

// Three checks (the paper's f = 3): R's access beside P's and Q's.
TEST(controller_floating_raid6, a_blind_small_write_with_three_checks_is_four_floated_read_rotate_writes) {
    expect_one_small_write(false, 4, 4, 3);
}

TEST(controller_floating_raid6, a_cached_small_write_with_three_checks_is_a_data_write_and_three_floated_accesses) {
    expect_one_small_write(true, 3, 3, 3);
}

namespace {

// `clients` host threads over the first `hot_sectors` of the array, one request at a time each:
// half writes of 1-4 sectors inside one unit (fresh tokens), half 8-sector reads (two units,
// crossing stripes), every read checked by the controller's scoreboard; then P and Q of every
// stripe of the region checked from the drives' raw contents.
void hot_region(bool cached, bool checks_after_data, int checks = 2) {
    floating_pq_bench b(floating_pq_config(cached, checks_after_data, checks));
    constexpr uint64_t hot_sectors = 256;  // 16 stripes of 4 data units: 16 units per disk, cylinder 0
    constexpr uint64_t total = 4000;
    constexpr int clients = 8;
    uint64_t issued = 0, done = 0, failed = 0, writes = 0;
    run_clean(b, [&] {
        sc_core::sc_event all_done;
        for (int k = 0; k < clients; ++k)
            sc_core::sc_spawn([&, k] {
                uint64_t x = uint64_t(k) * 7919 + 17;
                while (issued < total) {
                    const uint64_t n = issued++;
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    const bool write = (x >> 63) != 0;
                    bool ok;
                    if (write) {
                        const uint32_t len = uint32_t(1 + (x >> 8) % unit);
                        const uint64_t lbn = (x >> 20) % (hot_sectors / unit) * unit + (x >> 40) % (unit - len + 1);
                        std::vector<uint64_t> t = component_test::tokens(n + 1, len);
                        ok = b.host.send(false, lbn, len, t.data()) == tlm::TLM_OK_RESPONSE;
                        ++writes;
                    } else {
                        std::vector<uint64_t> t(8);
                        ok = b.host.send(true, (x >> 20) % (hot_sectors / unit - 1) * unit, 8, t.data()) ==
                             tlm::TLM_OK_RESPONSE;
                    }
                    failed += ok ? 0 : 1;
                    if (++done == total) all_done.notify();
                }
            });
        sc_core::wait(all_done);
        for (int64_t s = 0; s < int64_t(hot_sectors / (unit * data_units)); ++s)
            EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    const auto &fw = b.firmware();
    EXPECT_EQ(done, total);
    EXPECT_EQ(failed, 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), (total - writes) * 8 / 2);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    for (const auto &mm : b.ctl->integrity().first_mismatches())
        std::cerr << "lbn " << mm.lbn << " expected " << (mm.expected >> 32) << ":" << (mm.expected & 0xffffffff)
                  << " got " << (mm.got >> 32) << ":" << (mm.got & 0xffffffff) << "\n";
    // Every small write moved its checks (and, blind, its data unit): the test exercised moves.
    const uint64_t rmw = fw.statistics().stripe_writes[size_t(controller::write_path::read_modify_write)];
    EXPECT_EQ(rmw, writes);
    const uint64_t accesses = uint64_t(cached ? checks : checks + 1);  // floated per small write
    EXPECT_EQ(fw.floating().moves + fw.floating().in_place, rmw * accesses);
    EXPECT_GT(fw.floating().moves, rmw * accesses * 9 / 10);
    EXPECT_GT(b.ctl->xor_unit().statistics().gf_commands, 0u);  // Q' (and R') on the engine's GF mode
}

}  // namespace

TEST(controller_floating_raid6, hot_region_blind_writes_and_reads_keep_data_p_and_q) { hot_region(false, true); }
TEST(controller_floating_raid6, hot_region_cached_writes_and_reads_keep_data_p_and_q) { hot_region(true, false); }
TEST(controller_floating_raid6, hot_region_blind_writes_and_reads_keep_data_p_q_and_r) { hot_region(false, true, 3); }
TEST(controller_floating_raid6, hot_region_cached_writes_and_reads_keep_data_p_q_and_r) { hot_region(true, false, 3); }

// The degraded paths are raid6_firmware's on the translated LBNs: after small writes moved the
// units about, with one and then two members lost every unit still reads back (rebuilt from P,
// or from P and Q, where it now lives), and writes with two members lost keep it readable.
namespace {

// After small writes moved the units about, the disks `lost` lost one after the other: every
// unit still reads back after each (rebuilt where it now lives), writes with all of them lost
// keep the array readable, and degraded writes move nothing.
void lost_disks_after_moves(int checks, const std::vector<int> &lost) {
    floating_pq_bench b(floating_pq_config(false, false, checks));
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 128);                                                 // 8 stripes, full-stripe
        for (uint64_t k = 0; k < 40; ++k) w.write(k * 7 % 120, 3);       // moves (some cross units)
        const uint64_t moves = b.firmware().floating().moves;
        EXPECT_GT(moves, 60u);
        for (int d : lost) {
            b.ctl->fail_member(d);
            w.check(0, 128);
        }
        for (uint64_t k = 0; k < 20; ++k) w.write(k * 5 % 120, 2);       // degraded writes
        w.write(16, 16);                                                 // a whole stripe
        w.check(0, 128);
        EXPECT_EQ(b.firmware().floating().moves, moves);  // degraded writes do not move units
    });
    const auto &r6 = b.firmware().raid6_stats();
    EXPECT_GT(lost.size() == 3 ? r6.three_lost_rebuilt_reads : r6.two_lost_rebuilt_reads, 0u);
    EXPECT_GT(lost.size() == 3 ? r6.three_lost_stripe_writes : r6.two_lost_stripe_writes, 0u);
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["lost_sectors"], 0);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

}  // namespace

// The degraded paths are raid6_firmware's on the translated LBNs: with one and then two members
// lost every unit still reads back (rebuilt from P, or from P and Q, where it now lives).
TEST(controller_floating_raid6, two_lost_disks_after_moves_read_and_write_where_the_units_live) {
    lost_disks_after_moves(2, {1, 4});
}

TEST(controller_floating_raid6, three_lost_disks_with_three_checks_read_and_write_where_the_units_live) {
    lost_disks_after_moves(3, {1, 4, 6});
}
