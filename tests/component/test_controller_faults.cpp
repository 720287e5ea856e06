// Faults under load with the scoreboard on (issue 13): hot-region, high-concurrency workloads of
// reads and writes carrying tokens, a fault in the middle, and every host request must succeed and
// read back what was acknowledged wherever the layout promises to survive the fault.
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/families/floating/floating_raid6_firmware.h"
#include "controller/layouts/parity_logging_layout.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::controller_bench;
using component_test::tokens;

namespace {

void pause_ms(double ms) { sc_core::wait(sc_core::sc_time(ms, sc_core::SC_MS)); }

// `clients` host threads, each sending one request at a time: reads or writes (half each) of
// `sectors` sectors at a random aligned start inside the first `hot_sectors` of the array, every
// write with fresh tokens, every read checked by the controller's scoreboard. Stops the
// simulation after `total` requests; `at_request(n)` runs in the client thread that issues
// request n (a fault injected there).
struct hot_region_load {
    controller_bench &b;
    int clients = 8;
    uint64_t hot_sectors = 512;
    uint32_t sectors = 8;
    bool aligned = true;  // false: starts at any sector (writes overlap partly, cross units)
    uint64_t total = 3000;
    std::function<void(uint64_t)> at_request = [](uint64_t) {};
    uint64_t issued = 0, done = 0, failed_reads = 0, failed_writes = 0, reads = 0;

    void start() {
        for (int k = 0; k < clients; ++k)
            b.host.spawn([this, k] {
                uint64_t x = uint64_t(k) * 7919 + 17;
                for (;;) {
                    if (issued >= total) return;
                    const uint64_t n = issued++;
                    at_request(n);
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    const bool write = (x >> 63) != 0;
                    const uint64_t lbn = aligned ? ((x >> 20) % (hot_sectors / sectors)) * sectors
                                                 : (x >> 20) % (hot_sectors - sectors + 1);
                    std::vector<uint64_t> t = write ? tokens(n + 1, sectors) : std::vector<uint64_t>(sectors);
                    const bool ok = b.host.send(!write, lbn, sectors, t.data()) == tlm::TLM_OK_RESPONSE;
                    if (!ok) ++(write ? failed_writes : failed_reads);
                    reads += write ? 0 : 1;
                    if (++done == total) sc_core::sc_stop();
                }
            });
    }
};

// The parity logging and floating papers' drive.
const disks::disk_spec &ibm0661() {
    static const disks::disk_spec ibm =
        disks::load_diskspec(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/disks/ibm0661.diskspecs");
    return ibm;
}

// Parity logging on one channel, 4-sector stripe unit, 4 MiB of NVRAM for the log buffers.
controller::controller_config plog_on_one_channel() {
    controller::controller_config c;
    c.channels = 1;
    c.firmware.stripe_unit_sectors = 4;
    c.firmware.array = controller::array_kind::parity_logging;
    c.nvram.capacity_bytes = 4 << 20;
    return c;
}

controller::controller_config mirrored(controller::array_kind kind) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = 16;
    c.firmware.array = kind;
    c.firmware.tags_per_disk = 1;
    return c;
}

void expect_mirror_survives_a_lost_disk(int disks, controller::array_kind kind, int lost) {
    controller_bench b(disks, mirrored(kind));
    hot_region_load load{b};
    uint64_t pending_at_loss = 0;
    load.at_request = [&](uint64_t n) {
        if (n != 600) return;
        pending_at_loss = b.ctl->firmware_as<controller::replicated_firmware>()->delayed_writes()->entries();
        b.ctl->set_failed_disk(lost);
    };
    load.start();
    sc_core::sc_start();
    const auto *fw = b.ctl->firmware_as<controller::replicated_firmware>();
    EXPECT_EQ(load.done, load.total);
    EXPECT_GT(pending_at_loss, 0u) << "no delayed write was pending at the loss: the test shows nothing";
    EXPECT_EQ(load.failed_reads, 0u);
    EXPECT_EQ(load.failed_writes, 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), load.reads * 8 / 2);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_TRUE(fw->statistics().lost_ranges.empty());
}

}  // namespace

// Mirrors with delayed writes: after a disk loss the newest data of a range may be on the lost
// disk and in the held buffer only (the survivor's copy waits for a propagation): the request
// forces the propagation and is served, never failed.
TEST(faults, raid1_with_delayed_writes_serves_every_request_after_a_disk_loss) {
    expect_mirror_survives_a_lost_disk(2, controller::array_kind::raid1, 1);
}

TEST(faults, raid10_with_delayed_writes_serves_every_request_after_a_disk_loss) {
    expect_mirror_survives_a_lost_disk(4, controller::array_kind::raid10, 0);
}

// RAID 1 with delayed writes under a hot region of partly overlapping writes, a disk lost and
// replaced: a write is split where its current copies differ (and, during a rebuild, at unit
// boundaries) and scheduled run by run. An overlapping write scheduled between two runs of
// another waited for the first run's acknowledgement ticket while the other's second run waited
// for it: every client stopped (here after 175 requests, before any fault; in the soak "the
// simulation ended after 38,236 of 40,000 requests" during a rebuild). Overlapping host writes
// are now served in the order they began.
TEST(faults, raid1_rebuild_under_overlapping_writes_neither_deadlocks_nor_returns_stale_data) {
    controller_bench b(2, mirrored(controller::array_kind::raid1));
    hot_region_load load{b};
    load.aligned = false;
    load.hot_sectors = 64;
    load.total = 6000;
    load.at_request = [&](uint64_t n) {
        if (n == 600) b.ctl->fail_member(0);
        if (n == 700) {
            b.drives[0]->replace_media();
            b.ctl->replace_member(0);
        }
    };
    load.start();
    sc_core::sc_start();
    EXPECT_EQ(load.done, load.total) << "the clients stopped: a deadlock";
    EXPECT_EQ(b.ctl->members().state(0), controller::member_state::rebuilding) << "the run must end mid-rebuild";
    EXPECT_EQ(load.failed_reads + load.failed_writes, 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), 5000u);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

namespace {

// A parity array for write-hole tests: two channels, 8-sector units, one tag per disk (a
// stripe's data write may go out while its parity write still queues).
controller::controller_config small_write_array(controller::array_kind kind) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = 8;
    c.firmware.array = kind;
    c.firmware.tags_per_disk = 1;
    return c;
}

// 16 clients of 1-sector writes (and reads) over the first `hot_sectors`, until a power loss
// ends them.
void small_writes_until_the_power_fails(hot_region_load &load, uint64_t hot_sectors) {
    load.sectors = 1;
    load.clients = 16;
    load.hot_sectors = hot_sectors;
    load.total = 1u << 30;
    load.start();
}

// Parity rows of the first `rows` drive LBNs whose XOR over every disk is not zero.
int inconsistent_rows(controller_bench &b, int disks, uint32_t rows) {
    std::vector<uint64_t> x(rows, 0);
    for (int d = 0; d < disks; ++d) {
        const std::vector<uint64_t> t = on_disk(b, d, 0, rows);
        for (uint32_t i = 0; i < rows; ++i) x[i] ^= t[i];
    }
    int bad = 0;
    for (uint64_t v : x) bad += v != 0;
    return bad;
}

}  // namespace

// RAID 5 write hole: power lost during small read-modify-writes leaves stripes whose parity does
// not match their data (a write reached its data disk and not its parity disk, or the reverse).
// (Without the resync, 16 clients: 4 torn rows, 8 reads of acknowledged sectors wrong.)
// Recovery resynchronises every stripe an intent record names before serving again, so each disk
// lost in turn afterwards still rebuilds every acknowledged sector.
TEST(faults, raid5_power_loss_during_small_writes_resyncs_parity_before_serving) {
    controller::controller_config c = small_write_array(controller::array_kind::raid5);
    c.firmware.parity_writes.read_rotate_write = true;  // the write phase is the whole access
    const int disks = 4;
    controller_bench b(disks, c);
    hot_region_load load{b};
    small_writes_until_the_power_fails(load, 768);  // 32 stripes of 3 data units of 8 sectors
    int torn_rows = 0, torn_after = 0;
    size_t resynced = 0;
    uint64_t errors_after = 0, checked = 0;
    b.host.spawn([&] {
        pause_ms(150);
        b.ctl->power_fail();
        pause_ms(200);  // every drive command in flight is done
        torn_rows = inconsistent_rows(b, disks, 256);
        resynced = b.ctl->power_restore_and_recover();
        torn_after = inconsistent_rows(b, disks, 256);
        const uint64_t before = b.ctl->integrity().integrity_errors();
        for (int lost = 0; lost < disks; ++lost) {
            b.ctl->set_failed_disk(lost);
            for (uint64_t lbn = 0; lbn < load.hot_sectors; ++lbn) {
                uint64_t t = 0;
                EXPECT_EQ(b.host.send(true, lbn, 1, &t), tlm::TLM_OK_RESPONSE);
                ++checked;
            }
        }
        b.ctl->set_failed_disk(-1);
        errors_after = b.ctl->integrity().integrity_errors() - before;
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_GT(load.done, 30u);
    EXPECT_GT(torn_rows, 0) << "no stripe was torn by the loss: the test shows nothing";
    EXPECT_GT(resynced, 0u);
    EXPECT_EQ(torn_after, 0);
    EXPECT_EQ(checked, uint64_t(disks) * load.hot_sectors);
    EXPECT_EQ(errors_after, 0u);
    for (const auto &m : b.ctl->integrity().first_mismatches())
        ADD_FAILURE() << "lbn " << m.lbn << " expected " << std::hex << m.expected << " got " << m.got;
    EXPECT_EQ(b.ctl->firmware_as<controller::raid_firmware>()->statistics().resynced_stripes, resynced);
}

// RAID 6 with a data disk lost, power lost during small writes: a stripe an intent record names
// has its lost unit rebuilt from P and from Q; when they agree nothing is lost (before: every such
// stripe was reported lost), when they differ the unit is (a torn write left one check stale) and
// Q is made to agree with P's version of it. The hot region is read with disk 0 lost, then with
// disk 3 lost too: nothing served wrong (before: 7 units reported lost, no read failed and 4 read
// back wrong, as whatever the stale checks rebuilt), and reads fail exactly on the lost sectors.
TEST(faults, raid6_power_loss_with_a_data_disk_lost_loses_only_stripes_whose_checks_disagree) {
    const int disks = 6;
    controller_bench b(disks, small_write_array(controller::array_kind::raid6));
    b.ctl->fail_member(0);
    hot_region_load load{b};
    small_writes_until_the_power_fails(load, 1024);  // 32 stripes of 4 data units of 8 sectors
    size_t resynced = 0;
    uint64_t failed = 0, reads = 0;
    b.host.spawn([&] {
        pause_ms(150);
        b.ctl->power_fail();
        pause_ms(200);
        resynced = b.ctl->power_restore_and_recover();
        for (int pass = 0; pass < 2; ++pass) {  // disk 0 lost, then disks 0 and 3
            if (pass == 1) b.ctl->fail_member(3);
            for (uint64_t lbn = 0; lbn < load.hot_sectors; ++lbn) {
                uint64_t t = 0;
                ++reads;
                if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) ++failed;
            }
        }
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    const uint64_t agreed = fw["raid6"].value("resyncs_checks_agreed", uint64_t(0));
    const uint64_t lost_sectors = fw.value("lost_sectors", uint64_t(0));
    EXPECT_GT(load.done, 30u);
    EXPECT_GT(agreed, 0u) << "no stripe with the lost unit had consistent checks: the test shows nothing";
    EXPECT_LT(lost_sectors, resynced * 8) << "every resynced stripe lost its unit";
    EXPECT_EQ(failed, 2 * lost_sectors);  // exactly the lost sectors, in both passes
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// Floating data and parity (`checks` check units, 3 data units a stripe) on IBM 0661s (4 channels,
// 4-sector units) under a hot region load
// `shape` sets up; after the run every request is done, nothing read was wrong, and at least
// `min_reads_checked` reads were checked. Returns the floating statistics for the test's own claim.
template <class Shape>
controller::floating_statistics floating_hot_region_run(bool old_data_cached, uint64_t min_reads_checked, Shape shape,
                                                        int checks = 1) {
    controller::controller_config c;
    c.channels = 4;
    c.firmware.stripe_unit_sectors = 4;
    c.firmware.array = controller::array_kind::floating;
    c.firmware.floating_checks = checks;
    c.firmware.old_data_cached = old_data_cached;
    controller_bench b(3 + checks, c, ibm0661());
    hot_region_load load{b};
    shape(load);
    load.start();
    sc_core::sc_start();
    EXPECT_EQ(load.done, load.total);
    EXPECT_GT(b.ctl->integrity().reads_checked(), min_reads_checked);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    if (checks == 1) return b.ctl->firmware_as<controller::floating_firmware>()->floating();
    return b.ctl->firmware_as<controller::floating_raid6_firmware>()->floating();
}

// Floating data and parity under a hot region: reads of a unit that is moving (translated to its
// old slot before the move's table update) never return data older than an acknowledged write,
// and a slot that a read is still reading is never refilled by another unit's move.
TEST(faults, floating_reads_overlapping_unit_moves_return_the_acknowledged_data) {
    const auto f = floating_hot_region_run(false, 10000, [](hot_region_load &load) {
        load.hot_sectors = 192;  // 48 units: 16 stripes, every move within cylinder 0
        load.total = 6000;
    });
    EXPECT_GT(f.moves, 1000u);
}

// The same with controller.old_data cached: a data unit is rewritten in place by a quick plain
// write, so a read of it that began before the write could return the old unit after the
// acknowledgement. Before the read fence covered units rewritten in place: 2 integrity errors
// here (2-sector requests at any start over 48 units), 73 in 16,432 reads in
// test_controller_floating_raid6's heavier 6-disk load run over RAID 5.
TEST(faults, floating_cached_reads_overlapping_in_place_rewrites_return_the_acknowledged_data) {
    const auto f = floating_hot_region_run(true, 5000, [](hot_region_load &load) {
        load.hot_sectors = 192;
        load.sectors = 2;
        load.aligned = false;
        load.total = 6000;
    });
    EXPECT_GT(f.moves, 1000u);  // the parity floats
}

// A cylinder with no free slot left (every one reserved by moves in flight: 200 clients on 36
// stripes of one cylinder) rewrites a unit where it is. A data unit rewritten in place by a
// read-rotate-write whose command carried a stand-in (its new contents installed once both
// commands of the stripe were back) held the stand-in meanwhile, and a read of its other sectors
// (no overlap with the write, so not fenced) returned it: the explorer's case 31:4 (floating, 231
// outstanding, 1-sector requests, no fault: 31 wrong reads of zeros). Now such a unit is read,
// then written with its new contents (faults: tests pass before for moved units).
TEST(faults, floating_units_rewritten_in_place_never_show_a_stand_in_to_reads) {
    const auto f = floating_hot_region_run(false, 3000, [](hot_region_load &load) {
        load.clients = 200;
        load.hot_sectors = 432;  // 36 stripes in cylinder 0 (12 free slots)
        load.sectors = 1;
        load.aligned = false;
        load.total = 8000;
    });
    EXPECT_GT(f.in_place, 100u) << "no cylinder ran out of free slots: the test shows nothing";
}

// The same with two checks (P and Q floating): the unit rewritten where it is (no free slot in its
// cylinder) was also written by a read-rotate-write carrying a stand-in, and a read of its other
// sectors returned it: the explorer's case 91:509 (5 disks, 49 outstanding, 1-sector requests, no
// fault: 5 wrong reads of zeros). Fails before the fix.
TEST(faults, floating_pq_units_rewritten_in_place_never_show_a_stand_in_to_reads) {
    const auto f = floating_hot_region_run(false, 3000, [](hot_region_load &load) {
        load.clients = 200;
        load.hot_sectors = 432;  // 36 stripes in cylinder 0
        load.sectors = 1;
        load.aligned = false;
        load.total = 8000;
    }, 2);
    EXPECT_GT(f.in_place, 100u) << "no cylinder ran out of free slots: the test shows nothing";
}

// Parity logging under a hot region, no fault: a small write is acknowledged after one data
// write and an NVRAM append, so it overtakes a read of the same sectors whose other piece waits
// behind a busy disk; the read then returned the sectors' previous data after the write's
// acknowledgement (the soak's "8 integrity errors after a disk loss" happened before the loss).
// Writes now wait for the overlapping reads that began before them (host_read_fence.h).
static void expect_plog_reads_ordered(bool fence, bool expect_clean) {
    controller::controller_config c = plog_on_one_channel();
    c.firmware.parity_logging.read_fence = fence;
    controller_bench b(8, c, ibm0661());
    hot_region_load load{b};
    load.clients = 16;
    load.hot_sectors = 256;
    load.total = 8000;
    load.start();
    sc_core::sc_start();
    EXPECT_EQ(load.done, load.total);
    EXPECT_EQ(load.failed_reads + load.failed_writes, 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), 10000u);
    if (expect_clean) EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    else EXPECT_GT(b.ctl->integrity().integrity_errors(), 0u) << "the race did not show: the test shows nothing";
}

TEST(faults, parity_logging_writes_wait_for_earlier_overlapping_reads) { expect_plog_reads_ordered(true, true); }

// Parity logging, unreadable sectors (MEDIUM ERROR) on a data member under a hot region of reads
// and small writes: a read rebuilds the piece from the row after the region's log is applied, a
// write whose preread meets them repairs first; both rewrite the sectors. Before: the requests
// failed.
TEST(faults, parity_logging_repairs_unreadable_sectors_from_the_row_after_applying_the_log) {
    controller_bench b(8, plog_on_one_channel(), ibm0661());
    const auto *fw = b.ctl->firmware_as<controller::parity_logging_firmware>();
    const auto &layout = *dynamic_cast<const controller::parity_logging_layout *>(fw->array_layout());
    hot_region_load load{b};
    load.clients = 16;
    load.hot_sectors = 256;
    load.total = 6000;
    load.at_request = [&](uint64_t n) {
        if (n == 1000 || n == 3000)  // sectors of the hot region, on their data member
            for (int64_t lbn : {int64_t(8), int64_t(100), int64_t(201)}) {
                const controller::region_extent e = layout.data_location(lbn);
                b.drives[size_t(e.disk)]->inject_media_error(uint64_t(e.drive_lbn), 3);
            }
    };
    load.start();
    sc_core::sc_start();
    EXPECT_EQ(load.done, load.total);
    EXPECT_EQ(load.failed_reads + load.failed_writes, 0u);
    EXPECT_GT(fw->statistics().media_repairs, 0u) << "no unreadable sector was met: the test shows nothing";
    EXPECT_GT(b.ctl->integrity().reads_checked(), 10000u);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// Parity logging, a member lost while requests are past the firmware's failure check: their
// commands to the lost disk fail (a read-rotate-write preread, a data write, a log append).
// They are served again in degraded mode once the loss is handled, never failed (the soak's
// one failed write in 2x10^5 requests).
TEST(faults, parity_logging_requests_caught_by_a_disk_loss_are_served_again) {
    controller_bench b(8, plog_on_one_channel(), ibm0661());
    hot_region_load load{b};
    load.clients = 16;
    load.hot_sectors = 2048;
    load.total = 4000;
    load.at_request = [&](uint64_t n) {
        if (n == 2000) b.ctl->set_failed_disk(5);
    };
    load.start();
    sc_core::sc_start();
    const auto *fw = b.ctl->firmware_as<controller::parity_logging_firmware>();
    EXPECT_EQ(load.done, load.total);
    EXPECT_GT(fw->statistics().served_again_after_loss, 0u) << "no request met the loss: the test shows nothing";
    EXPECT_EQ(load.failed_reads + load.failed_writes, 0u);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}
TEST(faults, parity_logging_without_the_read_fence_returns_stale_reads) { expect_plog_reads_ordered(false, false); }

// The power epochs know a thread by its process object. Threads that served requests before a
// power loss and ended are freed, and a thread started after the loss may be allocated where one
// of them was: it restores the power (the firmware's recovery checks the power on it) and must
// not be taken for the old thread, which would stop it for good.
TEST(faults, a_thread_started_after_a_power_loss_restores_it_wherever_it_is_allocated) {
    controller_bench b(8, plog_on_one_channel(), ibm0661());  // its recovery checks the power
    bool restored = false;
    size_t served_after = 0;
    component_test::run_clean(b, [&] {
        for (uint64_t k = 0; k < 8; ++k) {
            bool done = false;
            b.host.spawn([&b, &done, k] {
                std::vector<uint64_t> t = tokens(k + 1, 8);
                b.host.send(false, k * 8, 8, t.data());
                done = true;
            });
            while (!done) pause_ms(1);
        }
        pause_ms(1);  // the ended threads are freed
        b.ctl->power_fail();
        pause_ms(10);
        b.host.spawn([&] {
            b.ctl->power_restore_and_recover();
            for (uint64_t k = 0; k < 8; ++k) {
                std::vector<uint64_t> t(8);
                served_after += b.host.send(true, k * 8, 8, t.data()) == tlm::TLM_OK_RESPONSE;
            }
            restored = true;
        });
        for (int i = 0; i < 2000 && !restored; ++i) pause_ms(1);
    });
    EXPECT_TRUE(restored) << "the restoring thread was stopped as a thread of before the loss";
    EXPECT_EQ(served_after, 8u);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// Two outages that overlap (a power loss while the controller is already off, its restore before
// the first one's) are one outage: the power comes back, and the firmware recovers, once, when the
// last cause is restored. Before: the inner restore started the firmware while the outer outage
// held, and the outer one's restore ran a second recovery on the running controller, resetting
// the queues and buffers of live work (EXPERIMENTS 19.23: heap corruption on SR-Array, a RAID 6
// member judged not current from a superblock being written).
TEST(faults, overlapping_outages_restore_the_power_once_when_the_last_ends) {
    controller::controller_config c = small_write_array(controller::array_kind::raid5);
    const int disks = 4;
    controller_bench b(disks, c);
    hot_region_load load{b};
    small_writes_until_the_power_fails(load, 768);
    bool on_after_inner = true, on_after_outer = false;
    size_t second_restore = 1;
    uint64_t errors_after = 0, checked = 0, failed = 0;
    b.host.spawn([&] {
        pause_ms(150);
        b.ctl->power_fail();
        pause_ms(50);
        b.ctl->power_fail();  // while off: a second cause of the same outage
        pause_ms(20);
        second_restore = b.ctl->power_restore_and_recover();  // the inner cause ends; still off
        on_after_inner = b.ctl->powered();
        pause_ms(200);
        b.ctl->power_restore_and_recover();
        on_after_outer = b.ctl->powered();
        const uint64_t before = b.ctl->integrity().integrity_errors();
        for (uint64_t lbn = 0; lbn < load.hot_sectors; ++lbn) {
            uint64_t t = 0;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) ++failed;
            ++checked;
        }
        errors_after = b.ctl->integrity().integrity_errors() - before;
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_FALSE(on_after_inner) << "the power came back while an outage still held";
    EXPECT_EQ(second_restore, 0u);
    EXPECT_TRUE(on_after_outer);
    EXPECT_EQ(b.ctl->outages_in_force(), 0);
    EXPECT_EQ(checked, load.hot_sectors);
    EXPECT_EQ(failed, 0u);
    EXPECT_EQ(errors_after, 0u);
}
