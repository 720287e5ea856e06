// One SystemC bench per TEST (each runs in its own process): a drive, a stimulus thread, and
// assertions on what came back. Completion of the stimulus is asserted, so a hang or an early
// sc_stop fails the test.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "../unit/disk_fixtures.h"
#include "disks/disk_drive.h"
#include "rtl_models/buses/private_scsi_link.h"

using namespace raidtlm;
using sc_core::sc_time;
using sc_core::SC_MS;

namespace {

// Issues commands from SC_THREADs through one initiator socket.
struct host : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<host> socket{"socket"};
    explicit host(sc_core::sc_module_name n) : sc_module(n) {}

    // A blocking command; returns the timing the drive reported.
    protocol::access_timing command(bool write, uint64_t lbn, uint32_t blocks, std::vector<uint64_t> *tokens = nullptr,
                                    int id = 0) {
        tlm::tlm_generic_payload p;
        protocol::scsi_command cmd;
        cmd.lbn = lbn;
        cmd.blocks = blocks;
        cmd.target_id = id;
        p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        if (tokens) {
            tokens->resize(blocks);
            p.set_data_ptr(reinterpret_cast<unsigned char *>(tokens->data()));
            p.set_data_length(blocks * protocol::token_bytes);
        }
        p.set_extension(&cmd);
        sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(p, delay);
        p.clear_extension(&cmd);
        EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
        return cmd.timing;
    }
};

// A bus that one other party holds for a while, bound to the drive's bus socket and speaking the
// protocol of tlm/scsi_bus_phase.h: the drive must wait to reselect.
struct busy_bus : sc_core::sc_module {
    tlm_utils::simple_target_socket<busy_bus> from_target{"from_target"};
    sc_time busy_until;
    int negotiations = 0, acquires = 0, releases = 0;
    explicit busy_bus(sc_core::sc_module_name n) : sc_module(n) {
        from_target.register_b_transport(this, &busy_bus::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &t, sc_time &) {
        auto *phase = t.get_extension<protocol::scsi_bus_phase>();
        ASSERT_NE(phase, nullptr);
        switch (phase->request) {
        case protocol::scsi_bus_request::negotiate:
            ++negotiations;
            phase->contended = true;
            break;
        case protocol::scsi_bus_request::reselect:
            ++acquires;
            if (sc_core::sc_time_stamp() < busy_until) sc_core::wait(busy_until - sc_core::sc_time_stamp());
            break;
        case protocol::scsi_bus_request::disconnect: ++releases; break;
        case protocol::scsi_bus_request::data: break;
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct bench {
    host h{"host"};
    disks::disk_drive drive;
    explicit bench(const disks::disk_spec &s, double phase = 0.0) : drive("drive", s, {phase, 0}) {
        h.socket.bind(drive.target);
    }
};

}  // namespace

TEST(disk_drive, write_then_read_returns_the_written_tokens) {
    bench b(test::cheetah9lp());
    bool done = false;
    sc_core::sc_spawn([&] {
        std::vector<uint64_t> w{11, 22, 33, 44, 55, 66, 77, 88}, r;
        b.h.command(true, 4096, 8, &w);
        b.h.command(false, 4096, 8, &r);
        EXPECT_EQ(r, w);
        std::vector<uint64_t> fresh;
        b.h.command(false, 1'000'000, 2, &fresh);
        EXPECT_EQ(fresh, (std::vector<uint64_t>{0, 0}));  // never written
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

TEST(disk_drive, reports_a_timing_breakdown_that_adds_up) {
    bench b(test::cheetah9lp());
    bool done = false;
    sc_core::sc_spawn([&] {
        const sc_time t0 = sc_core::sc_time_stamp();
        auto tm = b.h.command(false, 7'000'000, 8);
        const sc_time elapsed = sc_core::sc_time_stamp() - t0;
        EXPECT_EQ(tm.cache, protocol::cache_outcome::miss);
        EXPECT_GT(tm.seek, sc_core::SC_ZERO_TIME);
        EXPECT_GT(tm.seek_distance_cyl, 0u);
        EXPECT_NEAR((tm.queue + tm.service()).to_seconds(), elapsed.to_seconds(), 1e-9);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.drive.statistics().requests, 1u);
    EXPECT_EQ(b.drive.statistics().seeks, 1u);
}

TEST(disk_drive, queues_concurrent_commands_and_serves_them_one_at_a_time) {
    disks::disk_spec s = test::cheetah9lp();
    s.interface.max_queue_length = 4;
    bench b(s);
    int done = 0;
    std::vector<sc_time> finish(4);
    for (int i = 0; i < 4; ++i)
        sc_core::sc_spawn([&, i] {
            auto tm = b.h.command(false, 1'000'000 + 3'000'000ull * i, 8);
            finish[i] = sc_core::sc_time_stamp();
            if (i > 0) {
                EXPECT_GT(tm.queue, sc_core::SC_ZERO_TIME);  // waited in the drive's queue
            }
            ++done;
        });
    sc_core::sc_start();
    EXPECT_EQ(done, 4);
    for (int i = 1; i < 4; ++i) EXPECT_GT(finish[i], finish[i - 1]);  // FCFS
}

TEST(disk_drive, holds_commands_beyond_max_queue_length_at_the_initiator) {
    bench b(test::cheetah9lp());  // Max queue length = 1
    int done = 0;
    for (int i = 0; i < 3; ++i)
        sc_core::sc_spawn([&, i] {
            auto tm = b.h.command(false, 2'000'000 + 4'000'000ull * i, 8);
            // Never queued inside the drive: at most the wait for the previous command's
            // read-ahead to reach a sector boundary (a sector is about 0.03 ms).
            EXPECT_LT(tm.queue, sc_time(0.03, SC_MS));
            ++done;
        });
    sc_core::sc_start();
    EXPECT_EQ(done, 3);
    EXPECT_EQ(b.drive.statistics().requests, 3u);
}

TEST(disk_drive, sstf_queue_serves_the_nearest_lbn_first) {
    disks::disk_spec s = test::cheetah9lp();
    s.interface.max_queue_length = 8;
    s.interface.scheduling = disks::drive_scheduling::sstf_lbn;
    bench b(s);
    std::vector<int> order;
    // The first command occupies the drive while the others queue up.
    sc_core::sc_spawn([&] { b.h.command(false, 100, 8); order.push_back(0); });
    const uint64_t lbns[] = {15'000'000, 200, 8'000'000};
    for (int i = 0; i < 3; ++i)
        sc_core::sc_spawn([&, i] {
            sc_core::wait(sc_time(0.1, SC_MS));
            b.h.command(false, lbns[i], 8);
            order.push_back(i + 1);
        });
    sc_core::sc_start();
    EXPECT_EQ(order, (std::vector<int>{0, 2, 3, 1}));
}

TEST(disk_drive, waits_for_a_busy_bus_to_reselect) {
    host h{"host"};
    disks::disk_drive drive("drive", test::cheetah9lp(), {0.0, 3});
    busy_bus link("bus");
    h.socket.bind(drive.target);
    drive.bus.bind(link.from_target);
    link.busy_until = sc_time(40, SC_MS);  // held by someone else for 40 ms
    bool done = false;
    sc_core::sc_spawn([&] {
        auto tm = h.command(false, 3'000'000, 8, nullptr, 3);
        EXPECT_EQ(link.negotiations, 1);
        EXPECT_GT(link.acquires, 0);
        EXPECT_GE(link.releases, link.acquires);  // every reselection ends in a disconnect or bus free
        EXPECT_GT(tm.bus_wait, sc_core::SC_ZERO_TIME);
        EXPECT_GE(sc_core::sc_time_stamp(), sc_time(40, SC_MS));
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

TEST(disk_drive, a_private_link_sets_the_transfer_rate_and_an_unbound_socket_costs_nothing) {
    host h1{"h1"}, h2{"h2"};
    disks::disk_drive alone("alone", test::cheetah9lp(), {});
    disks::disk_drive slow("slow", test::cheetah9lp(), {});
    rtl_models::private_scsi_link link("link", sc_time(1, SC_MS));  // 1 ms per sector
    h1.socket.bind(alone.target);
    h2.socket.bind(slow.target);
    slow.bus.bind(link.from_target);
    int done = 0;
    protocol::access_timing fast_tm, slow_tm;
    sc_core::sc_spawn([&] {
        fast_tm = h1.command(false, 1'000'000, 8);
        ++done;
    });
    sc_core::sc_spawn([&] {
        slow_tm = h2.command(false, 1'000'000, 8);
        ++done;
    });
    sc_core::sc_start();
    ASSERT_EQ(done, 2);
    // The same read on the same drive: only the link's rate differs, and 8 sectors at 1 ms each
    // cannot take less than 8 ms once the media data are in.
    EXPECT_LT(fast_tm.service(), sc_time(8, SC_MS));
    EXPECT_GE(slow_tm.service(), sc_time(8, SC_MS));
    EXPECT_EQ(slow_tm.bus_wait, sc_core::SC_ZERO_TIME);  // a private link never makes it wait
}

TEST(disk_drive, rejects_a_command_beyond_the_capacity) {
    bench b(test::cheetah9lp());
    bool done = false;
    sc_core::sc_spawn([&] {
        tlm::tlm_generic_payload p;
        protocol::scsi_command cmd;
        cmd.lbn = uint64_t(b.drive.capacity_blocks()) - 2;
        cmd.blocks = 8;
        p.set_command(tlm::TLM_READ_COMMAND);
        p.set_extension(&cmd);
        sc_time d = sc_core::SC_ZERO_TIME;
        b.h.socket->b_transport(p, d);
        p.clear_extension(&cmd);
        EXPECT_EQ(p.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

TEST(disk_drive, waveform_signals_follow_the_mechanism) {
    bench b(test::cheetah9lp());
    sc_core::sc_trace_file *tf = sc_core::sc_create_vcd_trace_file("test_disk_drive_waves");
    b.drive.trace(tf, "drive");
    bool done = false;
    sc_core::sc_spawn([&] {
        b.h.command(false, 9'000'000, 64);
        done = true;
    });
    sc_core::sc_start();
    sc_core::sc_close_vcd_trace_file(tf);
    EXPECT_TRUE(done);
    std::ifstream vcd("test_disk_drive_waves.vcd");
    std::string text((std::istreambuf_iterator<char>(vcd)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("mech_state"), std::string::npos);
    EXPECT_NE(text.find("cylinder"), std::string::npos);
}

TEST(disk_drive, read_rotate_write_returns_old_data_and_costs_a_revolution) {
    // The RAID 5 small-write primitive: one command reads the sectors, lets them come round and
    // writes the new data; it takes a revolution (plus the sectors) longer than a plain read.
    disks::disk_spec s = test::cheetah9lp();
    s.cache.fast_write_level = 0;
    bench b(s);
    bool done = false;
    sc_core::sc_spawn([&] {
        std::vector<uint64_t> first{1, 2, 3, 4}, second{5, 6, 7, 8}, old, back;
        b.h.command(true, 777'000, 4, &first);
        sc_core::wait(sc_time(50, SC_MS));
        const auto plain = b.h.command(false, 777'000, 4, &back);
        sc_core::wait(sc_time(50, SC_MS));

        tlm::tlm_generic_payload p;
        protocol::scsi_command cmd;
        cmd.lbn = 777'000;
        cmd.blocks = 4;
        cmd.read_rotate_write = true;
        cmd.old_tokens = &old;
        p.set_command(tlm::TLM_WRITE_COMMAND);
        p.set_data_ptr(reinterpret_cast<unsigned char *>(second.data()));
        p.set_data_length(4 * protocol::token_bytes);
        p.set_extension(&cmd);
        sc_time d = sc_core::SC_ZERO_TIME;
        b.h.socket->b_transport(p, d);
        p.clear_extension(&cmd);
        EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(old, first);
        EXPECT_TRUE(cmd.timing.media_accessed);
        EXPECT_FALSE(cmd.timing.write_back);
        // The write starts one revolution after the read started: the command's media work spans
        // at least a revolution beyond the rotational latency.
        const double period_ms = 60000.0 / s.mech.rpm;
        EXPECT_GE((cmd.timing.transfer).to_seconds() * 1e3, period_ms);
        (void)plain;
        b.h.command(false, 777'000, 4, &back);
        EXPECT_EQ(back, second);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}
