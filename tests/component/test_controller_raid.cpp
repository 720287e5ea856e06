// Component benches for the controller's layout-driven firmware: RAID 5 writes (full-stripe,
// reconstruct-write, read-modify-write) with parity from the XOR engine, degraded reads, the
// scoreboard catching a corrupted parity token, and mirrored layouts. Real Cheetah 9LP drives.
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/layouts/parity_layout.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::cheetah;
using component_test::host_tester;

namespace {

struct raid_bench : component_test::controller_bench {
    raid_bench(int n, const controller::controller_config &config) : controller_bench(n, config) {}
    const controller::parity_layout &parity() const {
        return dynamic_cast<const controller::parity_layout &>(*ctl->array_layout());
    }
    // XOR over every disk of each row of stripe `s` (0 when the parity is right), read raw.
    std::vector<uint64_t> row_xor(int64_t s) {
        const auto &l = parity();
        const uint32_t unit = uint32_t(l.unit_sectors());
        std::vector<uint64_t> x(unit, 0), t(unit);
        for (int d = 0; d < l.disks(); ++d) {
            EXPECT_TRUE(ctl->raw_disk_io(true, d, uint64_t(s) * unit, unit, t.data()));
            for (uint32_t r = 0; r < unit; ++r) x[r] ^= t[r];
        }
        return x;
    }
};

controller::controller_config raid(controller::array_kind kind, uint64_t unit = 16) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = unit;
    c.firmware.array = kind;
    return c;
}

using component_test::tokens;
using writer = component_test::host_writer<raid_bench>;

}  // namespace

TEST(controller_raid5, writes_of_every_path_read_back_and_keep_parity) {
    raid_bench b(4, raid(controller::array_kind::raid5));  // 3 data units of 16 sectors per stripe
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(5, 3);      // stripe 0, one unit: read-modify-write
        w.write(16, 40);    // stripe 0 units 1-2: reconstruct-write; stripe 1 unit 0 part: read-modify-write
        w.write(96, 48);    // stripe 2 whole: full-stripe
        w.write(200, 150);  // stripes 4-7: partial, full, full, partial
        w.write(6, 20);     // over earlier data: read-modify-write and reconstruct from written tokens
        w.check(0, 400);
        for (int64_t s = 0; s < 8; ++s) {
            const std::vector<uint64_t> x = b.row_xor(s);
            for (size_t r = 0; r < x.size(); ++r) EXPECT_EQ(x[r], 0u) << "stripe " << s << " row " << r;
        }
    });
    EXPECT_EQ(b.ctl->integrity().reads_checked(), 400u);
    EXPECT_GT(b.ctl->xor_unit().statistics().commands, 5u);  // one per stripe written
    const auto &sw = b.ctl->firmware_as<controller::raid_firmware>()->statistics().stripe_writes;
    EXPECT_EQ(sw[size_t(controller::write_path::full_stripe)], 3u);        // stripes 2, 5, 6
    EXPECT_EQ(sw[size_t(controller::write_path::reconstruct_write)], 3u);  // 0 (16+40), 4 (200..), 0 (6+20)
    EXPECT_EQ(sw[size_t(controller::write_path::read_modify_write)], 3u);  // 0 (5+3), 1, 7
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

TEST(controller_raid5, a_full_stripe_write_reads_nothing) {
    raid_bench b(4, raid(controller::array_kind::raid5));
    bool done = false;
    b.host.spawn([&] {
        std::vector<uint64_t> t = tokens(7, 48);
        ASSERT_EQ(b.host.send(false, 48, 48, t.data()), tlm::TLM_OK_RESPONSE);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->statistics().physical_commands, 4u);  // 3 data writes and the parity write
    uint64_t reads = 0;
    for (const auto &d : b.drives) reads += d->statistics().reads;
    EXPECT_EQ(reads, 0u);
}

TEST(controller_raid5, concurrent_small_writes_to_one_stripe_keep_parity) {
    raid_bench b(4, raid(controller::array_kind::raid5));
    int finished = 0;
    std::vector<std::vector<uint64_t>> data;
    for (int k = 0; k < 6; ++k) data.push_back(tokens(k + 1, 4));
    for (int k = 0; k < 6; ++k)
        b.host.spawn([&, k] {
            // Disjoint 4-sector pieces of stripe 0, over all three data units, at once.
            ASSERT_EQ(b.host.send(false, uint64_t(k) * 8, 4, data[size_t(k)].data()), tlm::TLM_OK_RESPONSE);
            ++finished;
        });
    bool done = false;
    b.host.spawn([&] {
        while (finished < 6) sc_core::wait(sc_core::sc_time(1, sc_core::SC_MS));
        const std::vector<uint64_t> x = b.row_xor(0);
        for (size_t r = 0; r < x.size(); ++r) EXPECT_EQ(x[r], 0u) << "row " << r;
        std::vector<uint64_t> r(48);
        ASSERT_EQ(b.host.send(true, 0, 48, r.data()), tlm::TLM_OK_RESPONSE);
        for (int k = 0; k < 6; ++k)
            for (int i = 0; i < 4; ++i) EXPECT_EQ(r[size_t(k * 8 + i)], data[size_t(k)][size_t(i)]);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

TEST(controller_raid5, a_degraded_read_rebuilds_the_lost_disk_s_data) {
    raid_bench b(4, raid(controller::array_kind::raid5));
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 200);
        w.write(30, 7);
        const uint64_t xor_before = b.ctl->xor_unit().statistics().commands;
        b.ctl->set_failed_disk(1);
        w.check(0, 200);
        EXPECT_GT(b.ctl->xor_unit().statistics().commands, xor_before);  // rebuilt through the XOR engine
    });
}

TEST(controller_raid5, a_corrupted_parity_token_is_caught_by_a_degraded_read) {
    raid_bench b(4, raid(controller::array_kind::raid5));
    bool done = false;
    b.host.spawn([&] {
        writer w{b, {}};
        w.write(0, 48);
        const auto &l = b.parity();
        const int64_t lbn = 20;  // stripe 0, data unit 1
        const int data_disk = l.data_disk(0, 1), parity_disk = l.parity_disk(0);
        uint64_t wrong = 0x0123456789abcdefull;
        ASSERT_TRUE(b.ctl->raw_disk_io(false, parity_disk, uint64_t(l.drive_lbn_of(lbn)), 1, &wrong));
        w.check(lbn, 1);  // the data disk still answers: right
        EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
        b.ctl->set_failed_disk(data_disk);
        std::vector<uint64_t> r(2);
        ASSERT_EQ(b.host.send(true, uint64_t(lbn), 2, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_NE(r[0], w.expect[uint64_t(lbn)]);     // rebuilt from the bad parity
        EXPECT_EQ(r[1], w.expect[uint64_t(lbn) + 1]);  // the next row's parity is intact
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 1u);
    ASSERT_EQ(b.ctl->integrity().first_mismatches().size(), 1u);
    EXPECT_EQ(b.ctl->integrity().first_mismatches()[0].lbn, 20);
}

TEST(controller_mirrors, raid10_writes_every_copy_and_reads_survive_a_lost_disk) {
    controller::controller_config c = raid(controller::array_kind::raid10);
    raid_bench b(4, c);  // 2 columns of 2-way mirrors
    bool done = false;
    b.host.spawn([&] {
        writer w{b, {}};
        w.write(0, 100);
        w.write(40, 9);
        // Both copies of unit 0 (disks 0 and 1) hold the data.
        std::vector<uint64_t> t0(16), t1(16);
        ASSERT_TRUE(b.ctl->raw_disk_io(true, 0, 0, 16, t0.data()));
        ASSERT_TRUE(b.ctl->raw_disk_io(true, 1, 0, 16, t1.data()));
        EXPECT_EQ(t0, t1);
        EXPECT_EQ(t0[3], w.expect[3]);
        w.check(0, 100);
        b.ctl->set_failed_disk(0);
        w.check(0, 100);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_EQ(b.ctl->integrity().reads_checked(), 200u);
    EXPECT_EQ(b.ctl->capacity_sectors(), uint64_t(b.ctl->array_layout()->capacity_sectors()));
}

TEST(controller_mirrors, raid1_reads_go_to_an_idle_copy) {
    raid_bench b(2, raid(controller::array_kind::raid1));
    int finished = 0;
    std::vector<uint64_t> r0(8), r1(8);
    // Two reads at once: the second finds the first copy busy and goes to the other.
    b.host.spawn([&] { b.host.send(true, 1000, 8, r0.data()); ++finished; });
    b.host.spawn([&] { b.host.send(true, 500000, 8, r1.data()); ++finished; });
    sc_core::sc_start();
    EXPECT_EQ(finished, 2);
    EXPECT_EQ(b.drives[0]->statistics().reads, 1u);
    EXPECT_EQ(b.drives[1]->statistics().reads, 1u);
}

namespace {

// One disk, one tag: a read at mid-disk holds the drive while three more queue in the firmware
// (arriving low C, near-below A, far-above B); returns the order they complete in.
std::string service_order(controller::scheduling_policy policy, uint64_t *schedule_cycles = nullptr,
                          uint64_t *schedule_tasks = nullptr) {
    controller::controller_config c;
    c.firmware.tags_per_disk = 1;
    c.firmware.scheduler = policy;
    std::vector<std::unique_ptr<disks::disk_drive>> drives;
    drives.push_back(std::make_unique<disks::disk_drive>("disk", cheetah(), disks::drive_options{}));
    controller::controller_top ctl("controller", c,
                                   {{uint64_t(drives[0]->capacity_blocks()), 1, &cheetah()}});
    ctl.disk[0].bind(drives[0]->target);
    drives[0]->bus.bind(ctl.disk_bus[0]);
    host_tester host("tester");
    host.socket.bind(ctl.host);
    const uint64_t mid = 9000000;
    std::string order;
    host.spawn([&] { host.send(true, mid, 8); });
    const std::vector<std::pair<char, uint64_t>> queued{{'C', 100}, {'A', mid - 200000}, {'B', mid + 4000000}};
    for (size_t k = 0; k < queued.size(); ++k)
        host.spawn([&, k] {
            sc_core::wait(sc_core::sc_time(0.05 + 0.01 * double(k), sc_core::SC_MS));
            host.send(true, queued[k].second, 8);
            order += queued[k].first;
        });
    sc_core::sc_start();
    const auto &st = ctl.cpu().statistics();
    if (schedule_cycles) *schedule_cycles = st.cycles[size_t(rtl_models::cpu_task::schedule)];
    if (schedule_tasks) *schedule_tasks = st.tasks[size_t(rtl_models::cpu_task::schedule)];
    return order;
}

}  // namespace

TEST(controller_scheduler, fcfs_serves_in_arrival_order) {
    EXPECT_EQ(service_order(controller::scheduling_policy::fcfs), "CAB");
}

TEST(controller_scheduler, sstf_serves_the_nearest_cylinder_first_and_charges_the_decision) {
    uint64_t cycles = 0, tasks = 0;
    EXPECT_EQ(service_order(controller::scheduling_policy::sstf, &cycles, &tasks), "ABC");
    const rtl_models::cpu_cost_table k;
    EXPECT_EQ(tasks, 4u);
    // Decisions over 3, 2 and 1 queued entries, and the first command's 1.
    EXPECT_EQ(cycles, 4 * k.schedule_base_cycles + (1 + 3 + 2 + 1) * k.schedule_per_entry_cycles);
}

TEST(controller_scheduler, look_sweeps_up_then_back) {
    EXPECT_EQ(service_order(controller::scheduling_policy::look), "BAC");
}

TEST(controller_scheduler, c_look_sweeps_up_then_restarts_at_the_lowest) {
    EXPECT_EQ(service_order(controller::scheduling_policy::c_look), "BCA");
}

TEST(controller_raid5, raid4_and_other_rotations_keep_parity_too) {
    // Two arrays in one bench: RAID 4 (dedicated parity) and RAID 5 right-asymmetric.
    controller::controller_config c4 = raid(controller::array_kind::raid4);
    raid_bench b4(4, c4);
    controller::controller_config c5 = raid(controller::array_kind::raid5);
    c5.firmware.parity_rotation = controller::parity_placement::right_asymmetric;
    std::vector<std::unique_ptr<disks::disk_drive>> drives;
    std::vector<controller::disk_info> infos;
    for (int i = 0; i < 5; ++i) {
        drives.push_back(std::make_unique<disks::disk_drive>(sc_core::sc_gen_unique_name("d5_"), cheetah(),
                                                              disks::drive_options{}));
        infos.push_back({uint64_t(drives.back()->capacity_blocks()), 1});
    }
    controller::controller_top ctl5("controller5", c5, infos);
    for (int i = 0; i < 5; ++i) {
        ctl5.disk[size_t(i)].bind(drives[size_t(i)]->target);
        drives[size_t(i)]->bus.bind(ctl5.disk_bus[size_t(i)]);
    }
    host_tester host5("tester5");
    host5.socket.bind(ctl5.host);
    bool done4 = false, done5 = false;
    b4.host.spawn([&] {
        writer w{b4, {}};
        w.write(3, 10);
        w.write(40, 100);
        w.check(0, 160);
        for (int64_t s = 0; s < 4; ++s)
            for (uint64_t x : b4.row_xor(s)) EXPECT_EQ(x, 0u) << "raid4 stripe " << s;
        EXPECT_EQ(b4.parity().parity_disk(0), 3);
        EXPECT_EQ(b4.parity().parity_disk(1), 3);
        done4 = true;
    });
    host5.spawn([&] {
        const auto &l = dynamic_cast<const controller::parity_layout &>(*ctl5.array_layout());
        EXPECT_EQ(l.placement(), controller::parity_placement::right_asymmetric);
        EXPECT_EQ(l.parity_disk(1), 1);
        std::vector<uint64_t> t = tokens(5, 150);
        ASSERT_EQ(host5.send(false, 10, 150, t.data()), tlm::TLM_OK_RESPONSE);
        std::vector<uint64_t> r(150);
        ASSERT_EQ(host5.send(true, 10, 150, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, t);
        for (int64_t s = 0; s < 3; ++s) {
            std::vector<uint64_t> x(16, 0), u(16);
            for (int d = 0; d < 5; ++d) {
                ASSERT_TRUE(ctl5.raw_disk_io(true, d, uint64_t(s) * 16, 16, u.data()));
                for (int k = 0; k < 16; ++k) x[size_t(k)] ^= u[size_t(k)];
            }
            for (uint64_t v : x) EXPECT_EQ(v, 0u) << "raid5 ra stripe " << s;
        }
        done5 = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done4);
    EXPECT_TRUE(done5);
    EXPECT_EQ(b4.ctl->integrity().integrity_errors(), 0u);
    EXPECT_EQ(ctl5.integrity().integrity_errors(), 0u);
    EXPECT_EQ(ctl5.integrity().reads_checked(), 150u);
}

TEST(controller_raid5, writes_with_a_lost_disk_keep_the_array_readable) {
    raid_bench b(4, raid(controller::array_kind::raid5));
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 300);
        const int lost = 1;
        b.ctl->set_failed_disk(lost);
        // Stripe 0 (parity on disk 3): partial over the lost unit 1; stripe 1 (parity on disk 2);
        // stripe 2 (parity on the lost disk 1); a full stripe; a write that misses the lost unit.
        w.write(18, 5);
        w.write(50, 30);
        w.write(100, 20);
        w.write(144, 48);
        w.write(192 + 1, 3);
        w.check(0, 300);
        // What the survivors hold, with the lost disk's rows taken as the host's data, XORs to 0
        // on every row of every stripe whose parity survives.
        const auto &l = b.parity();
        for (int64_t s = 0; s < 6; ++s) {
            if (l.parity_disk(s) == lost) continue;
            std::vector<uint64_t> x(16, 0), u(16);
            for (int d = 0; d < 4; ++d) {
                if (d == lost) continue;
                ASSERT_TRUE(b.ctl->raw_disk_io(true, d, uint64_t(s) * 16, 16, u.data()));
                for (int r = 0; r < 16; ++r) x[size_t(r)] ^= u[size_t(r)];
            }
            const int j = l.data_unit_on_disk(s, lost);
            for (int r = 0; r < 16; ++r) {
                const uint64_t lbn = uint64_t(l.logical_lbn(s, j, r));
                x[size_t(r)] ^= w.expect.count(lbn) ? w.expect[lbn] : 0;
                EXPECT_EQ(x[size_t(r)], 0u) << "stripe " << s << " row " << r;
            }
        }
    });
    EXPECT_EQ(b.ctl->firmware_as<controller::raid_firmware>()->statistics().degraded_stripe_writes, 5u);  // one per stripe written
}

TEST(controller_raid5, read_modify_write_as_read_rotate_write_keeps_tokens_and_parity) {
    controller::controller_config c = raid(controller::array_kind::raid5);
    c.firmware.parity_writes.read_rotate_write = true;
    c.firmware.parity_writes.reconstruct_write_fraction = 0.9;  // two units of three: still read-modify-write
    raid_bench b(4, c);
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(5, 3);      // stripe 0, one unit: read-rotate-write on a data disk and the parity disk
        w.write(16, 40);    // stripe 0 units 1-2 and stripe 1 unit 0: read-rotate-writes
        w.write(200, 150);  // partial, full, full, partial
        w.write(6, 4);      // over earlier data
        w.write(10, 10);    // two units of stripe 0: read-rotate-writes on two data disks and the parity
        w.write(50, 2);
        w.check(0, 400);
        for (int64_t s = 0; s < 8; ++s) {
            const std::vector<uint64_t> x = b.row_xor(s);
            for (size_t r = 0; r < x.size(); ++r) EXPECT_EQ(x[r], 0u) << "stripe " << s << " row " << r;
        }
    });
    const auto &st = b.ctl->firmware_as<controller::raid_firmware>()->statistics();
    const uint64_t read_rotate_writes = controller::kit_of(*b.ctl).queues.statistics().read_rotate_writes;
    EXPECT_GE(st.stripe_writes[size_t(controller::write_path::read_modify_write)], 4u);
    // One per data disk written and one for the parity: stripe 0 of (16, 40) and (10, 10) write
    // two data units each, every other read-modify-write one.
    EXPECT_EQ(read_rotate_writes, 2 * st.stripe_writes[size_t(controller::write_path::read_modify_write)] + 2);
}

TEST(controller_raid5, a_read_rotate_write_small_write_takes_about_one_revolution_more_than_a_read) {
    controller::controller_config c = raid(controller::array_kind::raid5);
    c.firmware.parity_writes.read_rotate_write = true;
    raid_bench b(4, c);
    const double rev_ms = 60000.0 / cheetah().mech.rpm;
    double read_ms = 0, write_ms = 0;
    uint64_t commands_per_write = 0;
    const int n = 40;
    b.host.spawn([&] {
        uint64_t x = 12345;
        for (int i = 0; i < n; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const uint64_t lbn = (x >> 20) % 20000000;
            std::vector<uint64_t> t = tokens(uint64_t(i) + 1, 1);
            double t0 = sc_core::sc_time_stamp().to_seconds();
            ASSERT_EQ(b.host.send(true, lbn, 1, t.data()), tlm::TLM_OK_RESPONSE);
            read_ms += (sc_core::sc_time_stamp().to_seconds() - t0) * 1e3;
            const uint64_t before = b.ctl->statistics().physical_commands;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const uint64_t wlbn = (x >> 20) % 20000000;
            t0 = sc_core::sc_time_stamp().to_seconds();
            ASSERT_EQ(b.host.send(false, wlbn, 1, t.data()), tlm::TLM_OK_RESPONSE);
            write_ms += (sc_core::sc_time_stamp().to_seconds() - t0) * 1e3;
            commands_per_write = b.ctl->statistics().physical_commands - before;
        }
    });
    sc_core::sc_start();
    EXPECT_EQ(commands_per_write, 2u);  // one read-rotate-write on the data disk, one on the parity disk
    const double extra = (write_ms - read_ms) / n / rev_ms;
    // One revolution between reading and writing the sectors; the two disks in parallel add the
    // larger of two rotational latencies and seeks.
    EXPECT_GT(extra, 0.9) << "write " << write_ms / n << " ms, read " << read_ms / n << " ms";
    EXPECT_LT(extra, 1.6) << "write " << write_ms / n << " ms, read " << read_ms / n << " ms";
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

namespace {

// One disk, 16 closed-loop clients of random single-sector reads, started at construction; both
// policies are elaborated before one sc_start.
struct random_read_queue {
    std::unique_ptr<disks::disk_drive> drive;
    std::unique_ptr<controller::controller_top> ctl;
    std::unique_ptr<host_tester> host;
    double sum_ms = 0;
    int done = 0;
    static constexpr int clients = 16, each = 40;

    explicit random_read_queue(controller::scheduling_policy policy) {
        controller::controller_config c;
        c.firmware.scheduler = policy;
        c.firmware.tags_per_disk = 1;
        disks::drive_options o;
        o.spindle_phase = 0.37;
        drive = std::make_unique<disks::disk_drive>(sc_core::sc_gen_unique_name("disk"), cheetah(), o);
        const uint64_t blocks = uint64_t(drive->capacity_blocks());
        ctl = std::make_unique<controller::controller_top>(sc_core::sc_gen_unique_name("controller"), c,
                                                           std::vector<controller::disk_info>{
                                                               {blocks, 1, &cheetah()}});
        ctl->disk[0].bind(drive->target);
        drive->bus.bind(ctl->disk_bus[0]);
        host = std::make_unique<host_tester>(sc_core::sc_gen_unique_name("tester"));
        host->socket.bind(ctl->host);
        for (int k = 0; k < clients; ++k)
            host->spawn([this, k, blocks] {
                uint64_t x = 777 + uint64_t(k) * 1000003;
                for (int i = 0; i < each; ++i) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    const double t0 = sc_core::sc_time_stamp().to_seconds();
                    host->send(true, (x >> 16) % blocks, 1);
                    sum_ms += (sc_core::sc_time_stamp().to_seconds() - t0) * 1e3;
                    ++done;
                }
            });
    }
    double mean_ms() const { return sum_ms / done; }
};

}  // namespace

TEST(controller_scheduler, satf_with_the_head_position_predictor_beats_fcfs_on_random_reads) {
    random_read_queue fcfs(controller::scheduling_policy::fcfs);
    random_read_queue satf(controller::scheduling_policy::satf);
    sc_core::sc_start();
    ASSERT_EQ(fcfs.done, random_read_queue::clients * random_read_queue::each);
    ASSERT_EQ(satf.done, random_read_queue::clients * random_read_queue::each);
    EXPECT_LT(satf.mean_ms(), 0.8 * fcfs.mean_ms()) << "satf " << satf.mean_ms() << " ms, fcfs " << fcfs.mean_ms();
    // The predictor, fed by completions with the slack's feedback loop on, hits its sectors.
    const controller::prediction_statistics &p = satf.ctl->statistics().prediction;
    EXPECT_GE(p.count(), 600u);
    EXPECT_LT(p.miss_rate(), 0.01);
    EXPECT_LT(std::abs(p.mean_error_ms()), 0.5);
    EXPECT_GT(p.mean_access_ms(), 0.0);
    EXPECT_EQ(fcfs.ctl->statistics().prediction.count(), 0u);
}

TEST(controller_sr_array, writes_reach_every_rotational_replica_and_rsatf_reads_read_back) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = 16;
    c.firmware.array = controller::array_kind::sr_array;
    c.firmware.sr_ds = 2;
    c.firmware.sr_dr = 3;
    c.firmware.scheduler = controller::scheduling_policy::rsatf;
    std::vector<std::unique_ptr<disks::disk_drive>> drives;
    std::vector<controller::disk_info> infos;
    for (int i = 0; i < 6; ++i) {
        disks::drive_options o;
        o.spindle_phase = 0.11 * i;
        drives.push_back(std::make_unique<disks::disk_drive>(sc_core::sc_gen_unique_name("srdisk"), cheetah(), o));
        infos.push_back({uint64_t(drives.back()->capacity_blocks()), 1, &cheetah()});
    }
    controller::controller_top ctl("sr_controller", c, infos);
    for (int i = 0; i < 6; ++i) {
        ctl.disk[size_t(i)].bind(drives[size_t(i)]->target);
        drives[size_t(i)]->bus.bind(ctl.disk_bus[size_t(i)]);
    }
    host_tester host("sr_tester");
    host.socket.bind(ctl.host);
    bool done = false;
    std::map<uint64_t, uint64_t> expect;
    host.spawn([&] {
        uint64_t seed = 1;
        auto write = [&](uint64_t lbn, uint32_t n) {
            std::vector<uint64_t> t = tokens(seed++, n);
            ASSERT_EQ(host.send(false, lbn, n, t.data()), tlm::TLM_OK_RESPONSE);
            for (uint32_t i = 0; i < n; ++i) expect[lbn + i] = t[i];
        };
        write(0, 40);
        write(500, 3);
        write(1000, 200);  // crosses tracks: replicas past slot 0 are two extents
        write(20, 8);
        // Reads, several at once so rsatf has replicas of queued requests to choose among.
        int reads = 0;
        for (uint64_t lbn = 0; lbn < 1200; lbn += 37)
            host.spawn([&, lbn] {
                std::vector<uint64_t> r(8);
                EXPECT_EQ(host.send(true, lbn, 8, r.data()), tlm::TLM_OK_RESPONSE);
                for (uint32_t i = 0; i < 8; ++i) {
                    const auto it = expect.find(lbn + i);
                    EXPECT_EQ(r[i], it == expect.end() ? 0u : it->second) << "lbn " << lbn + i;
                }
                ++reads;
            });
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_SEC));
        EXPECT_EQ(reads, 33);
        // Every replica of every written sector holds the token.
        std::vector<controller::chunk> chunks;
        for (const auto &[lbn, token] : expect) {
            ctl.array_layout()->map(int64_t(lbn), 1, chunks);
            ASSERT_EQ(chunks.size(), 1u);
            EXPECT_EQ(chunks[0].replicas.size(), 3u);
            for (const controller::replica &r : chunks[0].replicas) {
                uint64_t t = 0;
                ASSERT_TRUE(ctl.raw_disk_io(true, r.disk, uint64_t(r.extents[0].drive_lbn), 1, &t));
                EXPECT_EQ(t, token) << "lbn " << lbn << " copy " << r.copy;
            }
        }
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(ctl.integrity().integrity_errors(), 0u);
    EXPECT_GT(ctl.integrity().reads_checked(), 200u);
    EXPECT_GT(ctl.statistics().prediction.count(), 0u);
}
