// A drive of someone else's making on a controller channel: a stand-in TLM target written here
// against the documented socket protocol only (tlm/scsi_command.h for commands,
// tlm/scsi_bus_phase.h for what it does on the bus) shares a SCSI bus with a real disk_drive
// behind controller_top. One bench per TEST (each runs in its own process).
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "component_support.h"
#include "controller/platform/controller_top.h"
#include "disks/disk_drive.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"

using namespace raidtlm;
using component_test::cheetah;
using component_test::host_tester;
using sc_core::sc_time;

namespace {

// Serves one command at a time in a fixed access time, then moves the data at its own rate (or
// the bus's, if slower), and keeps the tokens it was given. On a contended bus it disconnects
// while it works, reselects for the data and lets the bus go with status, as a SCSI target does.
struct stand_in_drive : sc_core::sc_module {
    static constexpr double access_ms = 2.0;
    static constexpr double own_sector_us = 40.0;

    tlm_utils::simple_target_socket<stand_in_drive> target{"target"};
    tlm_utils::simple_initiator_socket<stand_in_drive> bus{"bus"};
    protocol::scsi_bus_phase terms;  // what negotiate answered
    std::map<uint64_t, uint64_t> stored;
    int commands = 0;
    uint64_t sectors_moved = 0;
    double last_data_end_s = 0;

    explicit stand_in_drive(sc_core::sc_module_name n) : sc_module(n) {
        target.register_b_transport(this, &stand_in_drive::b_transport);
    }

    void start_of_simulation() override { request(terms, protocol::scsi_bus_request::negotiate, nullptr); }

    void request(protocol::scsi_bus_phase &phase, protocol::scsi_bus_request r, const tlm::tlm_generic_payload *cmd) {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_IGNORE_COMMAND);
        phase.request = r;
        phase.command = cmd;
        t.set_extension(&phase);
        sc_time d = sc_core::SC_ZERO_TIME;
        bus->b_transport(t, d);
        t.clear_extension(&phase);
        EXPECT_TRUE(t.is_response_ok());
    }
    void on_bus(protocol::scsi_bus_request r, const tlm::tlm_generic_payload &cmd) {
        protocol::scsi_bus_phase phase;
        request(phase, r, &cmd);
    }

    void b_transport(tlm::tlm_generic_payload &gp, sc_time &delay) {
        if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        auto *cmd = gp.get_extension<protocol::scsi_command>();
        if (!cmd || cmd->blocks == 0) {
            gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
        // Selected, holding the bus: let it go before waiting for anything.
        if (terms.contended) on_bus(protocol::scsi_bus_request::disconnect, gp);
        m_one_at_a_time.lock();
        ++commands;
        sc_core::wait(sc_time(access_ms, sc_core::SC_MS));
        if (terms.contended) on_bus(protocol::scsi_bus_request::reselect, gp);
        const sc_time sector = std::max(sc_time(own_sector_us, sc_core::SC_US), terms.sector_time);
        const sc_time start = sc_core::sc_time_stamp(), end = start + sector * double(cmd->blocks);
        if (terms.observes_data) {
            protocol::scsi_bus_phase phase;
            phase.start = start;
            phase.end = end;
            phase.sectors = cmd->blocks;
            request(phase, protocol::scsi_bus_request::data, &gp);
        }
        sc_core::wait(end - start);
        last_data_end_s = end.to_seconds();
        sectors_moved += cmd->blocks;
        auto *tokens = reinterpret_cast<uint64_t *>(gp.get_data_ptr());
        if (gp.get_data_length() == cmd->blocks * protocol::token_bytes)
            for (uint32_t i = 0; i < cmd->blocks; ++i) {
                if (gp.is_write())
                    stored[cmd->lbn + i] = tokens[i];
                else
                    tokens[i] = stored.count(cmd->lbn + i) ? stored[cmd->lbn + i] : 0;
            }
        if (terms.contended) on_bus(protocol::scsi_bus_request::disconnect, gp);  // status, bus free
        m_one_at_a_time.unlock();
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }

private:
    sc_core::sc_mutex m_one_at_a_time;
};

// Drive 0 a real disk_drive, drive 1 the stand-in, both on the controller's one channel.
struct mixed_bench {
    std::unique_ptr<disks::disk_drive> real;
    stand_in_drive other{"other"};
    std::unique_ptr<controller::controller_top> ctl;
    host_tester host{"host"};

    mixed_bench() {
        real = std::make_unique<disks::disk_drive>("real", cheetah(), disks::drive_options{});
        controller::controller_config c;
        c.channels = 1;
        c.firmware.stripe_unit_sectors = 8;
        const uint64_t capacity = uint64_t(real->capacity_blocks());
        ctl = std::make_unique<controller::controller_top>(
            "controller", c,
            std::vector<controller::disk_info>{{capacity, cheetah().interface.max_queue_length}, {capacity, 1}});
        ctl->disk[0].bind(real->target);
        real->bus.bind(ctl->disk_bus[0]);
        ctl->disk[1].bind(other.target);
        other.bus.bind(ctl->disk_bus[1]);
        host.socket.bind(ctl->host);
    }
};

std::vector<uint64_t> tokens(uint64_t seed, uint32_t n) {
    std::vector<uint64_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = (seed << 32) | (i + 1);
    return t;
}

}  // namespace

TEST(third_party_drive, shares_a_bus_with_a_real_drive_behind_the_controller) {
    mixed_bench b;
    bool done = false;
    b.host.spawn([&] {
        // 64 sectors over stripe units of 8: four units on each drive.
        const std::vector<uint64_t> w = tokens(7, 64);
        std::vector<uint64_t> copy = w;
        ASSERT_EQ(b.host.send(false, 0, 64, copy.data()), tlm::TLM_OK_RESPONSE);
        std::vector<uint64_t> r(64);
        ASSERT_EQ(b.host.send(true, 0, 64, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, w);
        // A read of the stand-in's unit alone lasts at least its access and its data phase.
        const double before_s = sc_core::sc_time_stamp().to_seconds();
        std::vector<uint64_t> one(8);
        ASSERT_EQ(b.host.send(true, 8, 8, one.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(one, std::vector<uint64_t>(w.begin() + 8, w.begin() + 16));
        const double sector_s = std::max(stand_in_drive::own_sector_us * 1e-6,
                                         b.ctl->bus(0).sector_transfer_time().to_seconds());
        EXPECT_GE(sc_core::sc_time_stamp().to_seconds() - before_s,
                  stand_in_drive::access_ms * 1e-3 + 8 * sector_s - 1e-12);
        EXPECT_GE(sc_core::sc_time_stamp().to_seconds(), b.other.last_data_end_s);
        done = true;
    });
    sc_core::sc_start();
    ASSERT_TRUE(done);
    // The stand-in held half the data, negotiated with the real bus and was seen on it.
    EXPECT_EQ(b.other.stored.size(), 32u);
    EXPECT_TRUE(b.other.terms.contended);  // two targets on the bus
    EXPECT_TRUE(b.other.terms.observes_data);
    EXPECT_EQ(b.other.terms.sector_time, b.ctl->bus(0).sector_transfer_time());
    const auto &bus = b.ctl->bus(0).statistics();
    EXPECT_GE(bus.reselections, uint64_t(b.other.commands));
    EXPECT_GE(bus.data_bytes, double(b.other.sectors_moved) * protocol::sector_bytes);
    EXPECT_GT(bus.data_bytes, double(b.other.sectors_moved) * protocol::sector_bytes);  // the real drive's too
    // The channel's DMA followed the stand-in's data phases into and out of the buffer memory.
    const int ch0 = b.ctl->dram().port_index("ch0");
    ASSERT_GE(ch0, 0);
    EXPECT_GE(b.ctl->dram().statistics().ports[size_t(ch0)].bytes, double(2 * 64) * protocol::sector_bytes);
}

TEST(third_party_drive, commands_to_both_drives_share_one_bus) {
    mixed_bench b;
    int done = 0;
    double other_done_s = 0;
    // Reads on both drives at once: every command completes, and the bus counted every selection.
    for (int k = 0; k < 6; ++k)
        b.host.spawn([&, k] {
            std::vector<uint64_t> r(8);
            EXPECT_EQ(b.host.send(true, uint64_t(k) * 8, 8, r.data()), tlm::TLM_OK_RESPONSE);
            if (k % 2) other_done_s = std::max(other_done_s, sc_core::sc_time_stamp().to_seconds());
            ++done;
        });
    sc_core::sc_start();
    EXPECT_EQ(done, 6);
    EXPECT_EQ(b.other.commands, 3);
    EXPECT_EQ(b.ctl->bus(0).statistics().selections, 6u);
    // The stand-in serves one at a time: three accesses back to back at least.
    EXPECT_GE(other_done_s, 3 * stand_in_drive::access_ms * 1e-3);
    // Six selections asked for at once: the initiator won them one round after another.
    EXPECT_GT(b.ctl->bus(0).statistics().wait_by_id[size_t(b.ctl->bus(0).initiator_id())].max_s, 0.0);
}
