// Component benches of the platform's hops as TLM-2.0 sockets (issue 28): a test initiator bound
// to each block's socket where the platform binds its own - the CPU's tasks, the DRAM's buffer
// space, a SCSI channel's command socket and its DMA through its DRAM socket, the host link's
// command socket - and a controller whose host commands cross the host link.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "controller_bench.h"
#include "rtl_models/buses/host_link.h"
#include "rtl_models/buses/scsi_channel.h"
#include "rtl_models/cpu/controller_cpu.h"
#include "rtl_models/memory/buffer_dram.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"

using namespace raidtlm;
using namespace raidtlm::rtl_models;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

// One initiator socket, as the platform has one per hop.
struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> socket{"socket"};
    explicit initiator(sc_core::sc_module_name n) : sc_module(n) {}
};

// Sends a routine to the CPU's socket; returns the annotated delay (the routine is booked, not
// waited for).
sc_time send_routine(initiator &i, std::vector<cpu_step> steps, int affinity, tlm::tlm_response_status *status = nullptr) {
    tlm::tlm_generic_payload gp;
    auto *r = new cpu_routine;
    r->steps = steps.data();
    r->count = steps.size();
    r->affinity = affinity;
    gp.set_extension(r);
    sc_time delay = sc_core::SC_ZERO_TIME;
    i.socket->b_transport(gp, delay);
    EXPECT_TRUE(gp.is_response_ok());
    if (status) *status = gp.get_response_status();
    return delay;
}

protocol::buffer_block *space_request(initiator &i, buffer_request::action what, uint64_t bytes,
                                      protocol::buffer_block *block = nullptr) {
    tlm::tlm_generic_payload gp;
    auto *r = new buffer_request;
    r->what = what;
    r->bytes = bytes;
    r->block = block;
    gp.set_extension(r);
    sc_time delay = sc_core::SC_ZERO_TIME;
    i.socket->b_transport(gp, delay);
    EXPECT_TRUE(gp.is_response_ok());
    EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
    return r->block;
}

}  // namespace

TEST(platform_sockets, cpu_tasks_socket_answers_the_priced_time) {
    cpu_config c;
    c.mhz = 100;  // 10 ns a cycle
    controller_cpu cpu("cpu", c);
    initiator fw("fw");
    fw.socket.bind(cpu.tasks);
    std::vector<double> delays_us;
    sc_core::sc_spawn([&] {
        // 1000 cycles: 10 us; the second routine queues behind the first on the one core.
        delays_us.push_back(send_routine(fw, {{cpu_task::host_command, 600}, {cpu_task::dma_setup, 400}}, 0).to_seconds() * 1e6);
        delays_us.push_back(send_routine(fw, {{cpu_task::table_update, 1000}}, 0).to_seconds() * 1e6);
        // No cycles: no time.
        delays_us.push_back(send_routine(fw, {{cpu_task::table_update, 0}}, 0).to_seconds() * 1e6);
        EXPECT_EQ(now_us(), 0.0);  // booked, not waited for: the initiator waits out the delay
        // A payload without a routine is refused.
        tlm::tlm_generic_payload bare;
        sc_time d = sc_core::SC_ZERO_TIME;
        fw.socket->b_transport(bare, d);
        EXPECT_EQ(bare.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
        // An annotated delay is charged before the routine is booked: the core is free at 20 us,
        // the routine sent "at" 25 us runs 25..35 us.
        sc_time ahead(25, SC_US);
        std::vector<cpu_step> steps{{cpu_task::schedule, 1000}};
        tlm::tlm_generic_payload gp;
        auto *r = new cpu_routine;
        r->steps = steps.data();
        r->count = 1;
        gp.set_extension(r);
        fw.socket->b_transport(gp, ahead);
        EXPECT_NEAR(now_us(), 25.0, 1e-9);
        EXPECT_NEAR(ahead.to_seconds() * 1e6, 10.0, 1e-9);
    });
    sc_core::sc_start();
    ASSERT_EQ(delays_us.size(), 3u);
    EXPECT_NEAR(delays_us[0], 10.0, 1e-9);
    EXPECT_NEAR(delays_us[1], 20.0, 1e-9);
    EXPECT_EQ(delays_us[2], 0.0);
    EXPECT_EQ(cpu.statistics().cycles[size_t(cpu_task::host_command)], 600u);
    EXPECT_EQ(cpu.statistics().tasks[size_t(cpu_task::table_update)], 2u);
}

TEST(platform_sockets, dram_space_socket_allocates_and_frees) {
    dram_config c;
    c.capacity_bytes = 1 << 20;
    buffer_dram dram("dram", c, {{"cpu", 1}});
    initiator fw("fw");  // two threads share the one socket, as the platform's do
    initiator &a = fw, &b = fw;
    fw.socket.bind(dram.space);
    initiator cpu_port("cpu_port");  // the DRAM's DMA port, unused here
    cpu_port.socket.bind(dram.port[0]);
    double got_ms = -1;
    sc_core::sc_spawn([&] {
        protocol::buffer_block *block = space_request(a, buffer_request::action::allocate, 768 << 10);
        ASSERT_NE(block, nullptr);
        EXPECT_EQ(block->bytes, uint64_t(768 << 10));
        sc_core::wait(sc_time(5, sc_core::SC_MS));
        space_request(a, buffer_request::action::free, 0, block);
    });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, sc_core::SC_MS));
        // Does not fit beside the first: the transaction blocks until the free at 5 ms.
        protocol::buffer_block *block = space_request(b, buffer_request::action::allocate, 512 << 10);
        got_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
        ASSERT_NE(block, nullptr);
        space_request(b, buffer_request::action::free, 0, block);
    });
    sc_core::sc_start();
    EXPECT_NEAR(got_ms, 5.0, 1e-9);
    EXPECT_EQ(dram.statistics().allocations, 2u);
    EXPECT_NEAR(dram.statistics().alloc_wait.max_s * 1e3, 4.0, 1e-9);
    EXPECT_DOUBLE_EQ(dram.statistics().occupancy_bytes.peak(), double(768 << 10));
    EXPECT_DOUBLE_EQ(dram.statistics().occupancy_bytes.level(), 0.0);
}

namespace {
// A bus of the test's making: a command gets one data phase of 8 sectors from 1 to 5 us after it
// arrived, reported to the channel on its data_phases socket at once (ahead of time, as an
// uncontended drive plans it), and status after 1 us.
struct planned_data_bus : sc_core::sc_module {
    tlm_utils::simple_target_socket<planned_data_bus> from_initiator{"from_initiator"};
    tlm_utils::simple_initiator_socket<planned_data_bus> data_phases{"data_phases"};
    explicit planned_data_bus(sc_core::sc_module_name n) : sc_module(n) {
        from_initiator.register_b_transport(this, &planned_data_bus::command);
    }
    void command(tlm::tlm_generic_payload &t, sc_time &) {
        tlm::tlm_generic_payload data;
        protocol::scsi_bus_phase phase;
        phase.request = protocol::scsi_bus_request::data;
        phase.command = &t;
        phase.sectors = 8;
        phase.start = sc_core::sc_time_stamp() + sc_time(1, SC_US);
        phase.end = sc_core::sc_time_stamp() + sc_time(5, SC_US);
        data.set_extension(&phase);
        sc_time none = sc_core::SC_ZERO_TIME;
        data_phases->b_transport(data, none);
        EXPECT_TRUE(data.is_response_ok());
        data.clear_extension(&phase);
        sc_core::wait(sc_time(1, SC_US));
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};
}  // namespace

TEST(platform_sockets, channel_command_socket_and_its_dma_through_the_dram_socket) {
    dram_config c;  // 1600 MB/s: the phase's 4096 bytes in 4 us (1024 MB/s) are the bus's pace
    buffer_dram dram("dram", c, {{"ch0", 1}});
    scsi_channel channel("channel");  // no reference to the DRAM: only its socket
    planned_data_bus bus("bus");
    initiator fw("fw");
    fw.socket.bind(channel.command);
    channel.bus.bind(bus.from_initiator);
    bus.data_phases.bind(channel.data_phases);
    channel.dram.bind(dram.port[0]);
    double returned_us = -1;
    protocol::scsi_command cmd;
    sc_core::sc_spawn([&] {
        tlm::tlm_generic_payload gp;
        cmd.target_id = 1;
        gp.set_command(tlm::TLM_READ_COMMAND);
        gp.set_extension(&cmd);
        sc_time delay = sc_core::SC_ZERO_TIME;
        fw.socket->b_transport(gp, delay);
        EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
        returned_us = now_us();
        EXPECT_TRUE(gp.is_response_ok());
        gp.clear_extension(&cmd);
    });
    sc_core::sc_start();
    EXPECT_NEAR(cmd.status_at.to_seconds() * 1e6, 1.0, 1e-9);  // status: before the DMA drained
    EXPECT_NEAR(returned_us, 5.0, 1e-6);                       // the DMA ran 1..5 us on the DRAM port
    EXPECT_EQ(dram.statistics().ports[0].transfers, 1u);
    EXPECT_NEAR(dram.statistics().ports[0].bytes, 4096.0, 1e-6);
    EXPECT_NEAR(dram.statistics().ports[0].busy_s * 1e6, 4.0, 1e-6);
}

namespace {
// The controller's side of the host link: notes what arrives.
struct command_sink : sc_core::sc_module {
    tlm_utils::simple_target_socket<command_sink> socket{"socket"};
    std::vector<const tlm::tlm_generic_payload *> got;
    std::vector<double> delays_us;
    explicit command_sink(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_b_transport(this, &command_sink::transport);
    }
    void transport(tlm::tlm_generic_payload &t, sc_time &delay) {
        got.push_back(&t);
        delays_us.push_back(delay.to_seconds() * 1e6);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};
}  // namespace

TEST(platform_sockets, host_link_passes_host_commands_to_the_controller) {
    host_link link("link", host_link_config{});
    initiator host("host");
    command_sink controller("controller");
    host.socket.bind(link.command);
    link.to_controller.bind(controller.socket);
    initiator fw("fw");                // the link's DMA sockets, unused here
    command_sink dram_side("dram_side");
    fw.socket.bind(link.dma);
    link.dram.bind(dram_side.socket);
    tlm::tlm_generic_payload gp;
    sc_core::sc_spawn([&] {
        sc_time delay(3, SC_US);
        host.socket->b_transport(gp, delay);
        EXPECT_TRUE(gp.is_response_ok());
    });
    sc_core::sc_start();
    ASSERT_EQ(controller.got.size(), 1u);
    EXPECT_EQ(controller.got[0], &gp);  // the host's own payload, its delay passed on
    EXPECT_NEAR(controller.delays_us[0], 3.0, 1e-9);
    EXPECT_EQ(link.statistics().commands, 1u);
}

TEST(platform_sockets, controller_host_commands_cross_its_host_link) {
    component_test::controller_bench b(2, component_test::raid1_config());
    std::vector<uint64_t> written = component_test::tokens(7, 16), read_back(16, 0);
    b.host.spawn([&] {
        EXPECT_EQ(b.host.send(false, 64, 16, written.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(b.host.send(true, 64, 16, read_back.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(b.host.send(true, b.ctl->capacity_sectors(), 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    });
    sc_core::sc_start();
    EXPECT_EQ(read_back, written);
    EXPECT_EQ(b.ctl->link().statistics().commands, 3u);
    EXPECT_EQ(b.ctl->statistics().requests, 2u);
    // Every hop ran on its socket: the CPU's routines, the buffers allocated and freed.
    EXPECT_GT(b.ctl->cpu().statistics().tasks[size_t(cpu_task::completion_interrupt)], 0u);
    EXPECT_EQ(b.ctl->dram().statistics().allocations, 2u);
    EXPECT_DOUBLE_EQ(b.ctl->dram().statistics().occupancy_bytes.level(), 0.0);
}
