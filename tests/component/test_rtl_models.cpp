// Component benches for the controller's hardware blocks (rtl_models), each block on its own with
// SC_THREADs as its users. One bench per TEST (each runs in its own process).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "component_support.h"
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/memory/buffer_dram.h"
#include "rtl_models/cpu/controller_cpu.h"
#include "rtl_models/xor/gf256.h"
#include "rtl_models/buses/host_link.h"
#include "rtl_models/buses/scsi_bus.h"
#include "rtl_models/buses/scsi_channel.h"
#include "rtl_models/xor/xor_engine.h"

using namespace raidtlm;
using namespace raidtlm::rtl_models;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

// A target on a bus that uses it through the protocol of tlm/scsi_bus_phase.h (it takes no
// commands: its target socket answers OK at once).
struct target_user : component_test::bus_target_stub {
    std::vector<double> got_us;  // when it owned the bus, per round
    target_user(sc_core::sc_module_name n, int scsi_id) : bus_target_stub(n, scsi_id) {}
    void request(protocol::scsi_bus_request r) { EXPECT_EQ(bus_target_stub::request(r), tlm::TLM_OK_RESPONSE); }
};

// What the platform's services are to a block: one initiator socket.
struct firmware_side : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<firmware_side> socket{"socket"};
    explicit firmware_side(sc_core::sc_module_name n) : sc_module(n) {}
};

// The initiator's side of a bus: a controller channel that sends commands.
struct channel_stub : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<channel_stub> socket{"socket"};
    explicit channel_stub(sc_core::sc_module_name n, scsi_bus &bus) : sc_module(n) { socket.bind(bus.from_initiator); }
};

std::vector<int> ids_of(const std::vector<std::unique_ptr<target_user>> &users) {
    std::vector<int> ids;
    for (const auto &u : users) ids.push_back(u->id);
    return ids;
}

// At `at_us` the target asks for the bus, holds it `hold_us`, lets go; `rounds` times.
void use_bus(target_user &u, double at_us, double hold_us, int rounds = 1) {
    sc_core::sc_spawn([&u, at_us, hold_us, rounds] {
        sc_core::wait(sc_time(at_us, SC_US));
        for (int r = 0; r < rounds; ++r) {
            u.request(protocol::scsi_bus_request::reselect);
            u.got_us.push_back(now_us());
            sc_core::wait(sc_time(hold_us, SC_US));
            u.request(protocol::scsi_bus_request::disconnect);
        }
    });
}

scsi_bus_config ultra160() { return scsi_bus_config::with_preset(scsi_preset::ultra160); }

}  // namespace

TEST(scsi_bus, arbitration_order_follows_scsi_id_priority) {
    std::vector<std::unique_ptr<target_user>> owned;
    for (int id : {0, 3, 1, 9, 5}) owned.push_back(std::make_unique<target_user>(sc_core::sc_gen_unique_name("t"), id));
    scsi_bus bus("bus", ultra160(), 7, ids_of(owned));
    for (auto &u : owned) u->plug_into(bus);
    channel_stub channel("channel", bus);
    ASSERT_TRUE(bus.contended());
    auto users = [&owned](size_t i) -> target_user & { return *owned[i]; };
    use_bus(users(0), 0, 20);  // holds the bus while the others arrive
    for (size_t i = 1; i < owned.size(); ++i) use_bus(users(i), 1 + 0.5 * double(i), 2);
    sc_core::sc_start();
    // 5 > 3 > 1 > 9 (on a wide bus IDs 8..15 rank below 0..7), whatever the order they asked in.
    const auto &p = ultra160().phases;
    const double first = users(0).got_us[0] + 20 + p.status_us + p.bus_free_us + ultra160().reselect_us();
    ASSERT_EQ(users(4).got_us.size(), 1u);
    EXPECT_NEAR(users(4).got_us[0], first, 1e-6);
    EXPECT_LT(users(4).got_us[0], users(1).got_us[0]);
    EXPECT_LT(users(1).got_us[0], users(2).got_us[0]);
    EXPECT_LT(users(2).got_us[0], users(3).got_us[0]);
    // Each next owner follows the previous one's release tail and its own reselection.
    EXPECT_NEAR(users(1).got_us[0] - users(4).got_us[0], 2 + p.status_us + p.bus_free_us + ultra160().reselect_us(),
                1e-6);
    EXPECT_EQ(bus.statistics().reselections, 5u);
    // Its wait runs from its request (at 2.5 us) to the round it won.
    EXPECT_NEAR(bus.statistics().wait_by_id[9].max_s * 1e6, users(3).got_us[0] - ultra160().reselect_us() - 2.5, 1e-6);
}

// Two busy high-priority drives and one low-priority drive that wants the bus once.
struct greedy_bench {
    target_user hi6{"hi6", 6}, hi5{"hi5", 5}, low{"low", 0};
    scsi_bus bus;
    channel_stub channel;
    explicit greedy_bench(bool fairness)
        : bus("bus", [fairness] {
              scsi_bus_config c = ultra160();
              c.fairness = fairness;
              return c;
          }(),
              7, {6, 5, 0}),
          channel("channel", bus) {
        for (target_user *u : {&hi6, &hi5, &low}) u->plug_into(bus);
        use_bus(hi6, 0, 10, 100);  // back to back for about 2 ms
        use_bus(hi5, 0, 10, 100);
        use_bus(low, 5, 10, 1);
    }
};

TEST(scsi_bus, without_fairness_a_low_id_waits_for_the_greedy_ones) {
    greedy_bench b(false);
    sc_core::sc_start();
    ASSERT_EQ(b.low.got_us.size(), 1u);
    std::cout << "ID 0 got the bus at " << b.low.got_us[0] << " us (without fairness)\n";
    // It gets the bus only after both high-priority drives have finished all their rounds.
    EXPECT_GT(b.low.got_us[0], b.hi6.got_us.back());
    EXPECT_GT(b.low.got_us[0], b.hi5.got_us.back());
    EXPECT_GT(b.low.got_us[0], 2000);
}

TEST(scsi_bus, fairness_prevents_starvation) {
    greedy_bench b(true);
    sc_core::sc_start();
    ASSERT_EQ(b.low.got_us.size(), 1u);
    std::cout << "ID 0 got the bus at " << b.low.got_us[0] << " us (with fairness)\n";
    // With SCSI-3 fairness it waits for the turn under way and at most one turn of each other
    // device: a turn is a reselection, 10 us of data and the release tail.
    const scsi_bus_config c = ultra160();
    const double turn = c.reselect_us() + 10 + c.release_tail_us();
    EXPECT_LE(b.low.got_us[0], 5 + 3 * turn);
    EXPECT_EQ(b.hi6.got_us.size(), 100u);
    // The two greedy drives take turns instead of 6 always winning.
    std::vector<std::pair<double, int>> turns;
    for (double t : b.hi6.got_us) turns.emplace_back(t, 6);
    for (double t : b.hi5.got_us) turns.emplace_back(t, 5);
    std::sort(turns.begin(), turns.end());
    int repeats = 0;
    for (size_t i = 1; i < turns.size(); ++i) repeats += turns[i].second == turns[i - 1].second;
    EXPECT_EQ(repeats, 0);
}

// A target that takes a command, works on it for work_us holding the bus, and answers OK; it
// notes when the command reached it.
struct working_target : sc_core::sc_module {
    int id;
    double work_us;
    double received_us = -1;
    tlm_utils::simple_target_socket<working_target> target{"target"};
    tlm_utils::simple_initiator_socket<working_target> bus_port{"bus_port"};

    working_target(sc_core::sc_module_name n, int scsi_id, double work) : sc_module(n), id(scsi_id), work_us(work) {
        target.register_b_transport(this, &working_target::command);
    }
    void command(tlm::tlm_generic_payload &t, sc_time &) {
        received_us = now_us();
        sc_core::wait(sc_time(work_us, SC_US));
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    void plug_into(scsi_bus &bus) {
        bus.to_target(id).bind(target);
        bus_port.bind(bus.from_target(id));
    }
};

TEST(scsi_channel, stamps_the_delivery_and_the_status_on_its_own_clock) {
    // What firmware may read of a drive command: the initiator chip's own observations. Target 0
    // holds the bus for 20 us from time 0; the channel's command to target 1 is issued at 1 us,
    // waits for the bus, arbitrates and selects; the target works 50 us on it.
    target_user busy("busy", 0);
    working_target worker("worker", 1, 50);
    scsi_bus bus("bus", ultra160(), 7, {0, 1});
    busy.plug_into(bus);
    worker.plug_into(bus);
    dram_config dc;
    dc.capacity_bytes = 1 << 20;
    buffer_dram dram("dram", dc, {{"channel", 1}});
    scsi_channel channel("channel");
    firmware_side firmware("firmware");
    firmware.socket.bind(channel.command);
    channel.bus.bind(bus.from_initiator);
    bus.data_phases.bind(channel.data_phases);
    channel.dram.bind(dram.port[0]);
    use_bus(busy, 0, 20);
    double returned_us = -1;
    protocol::scsi_command cmd;
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_US));
        tlm::tlm_generic_payload gp;
        cmd.target_id = 1;
        gp.set_extension(&cmd);
        sc_time delay = sc_core::SC_ZERO_TIME;
        firmware.socket->b_transport(gp, delay);
        returned_us = now_us();
        EXPECT_TRUE(gp.is_response_ok());
        gp.clear_extension(&cmd);
    });
    sc_core::sc_start();
    const double delivered_us = cmd.delivered_at.to_seconds() * 1e6;
    const double status_us = cmd.status_at.to_seconds() * 1e6;
    // Delivered when the target got the command: after the busy target let go of the bus.
    EXPECT_NEAR(delivered_us, worker.received_us, 1e-9);
    EXPECT_GT(delivered_us, 20.0);
    // The status: after the target's work and the status phase; nothing of the DMA to drain.
    EXPECT_NEAR(status_us, worker.received_us + 50 + ultra160().phases.status_us, 1e-6);
    EXPECT_NEAR(returned_us, status_us, 1e-9);
}

TEST(scsi_bus, one_drive_and_no_phase_costs_costs_nothing) {
    scsi_bus_config c = scsi_bus_config::with_preset(scsi_preset::custom);
    c.mtransfers_per_s = 0;
    c.phases = {0, 0, 0, 0, 0, 0, 0};
    target_user only("only", 0), a("a", 0), b("b", 1);
    scsi_bus bus("bus", c, 7, {0});
    only.plug_into(bus);
    EXPECT_FALSE(bus.contended());
    EXPECT_EQ(bus.sector_transfer_time(), sc_core::SC_ZERO_TIME);
    // A second drive makes a bus contended even without phase costs: drives hold it to move data.
    scsi_bus bus2("bus2", c, 7, {0, 1});
    a.plug_into(bus2);
    b.plug_into(bus2);
    EXPECT_TRUE(bus2.contended());
    // The initiator's side: a command through the bus costs no time either.
    channel_stub channel("channel", bus), channel2("channel2", bus2);
    bool done = false;
    sc_core::sc_spawn([&] {
        only.request(protocol::scsi_bus_request::negotiate);
        EXPECT_FALSE(only.phase.contended);
        a.request(protocol::scsi_bus_request::negotiate);
        EXPECT_TRUE(a.phase.contended);
        tlm::tlm_generic_payload gp;
        protocol::scsi_command cmd;
        cmd.target_id = 0;
        gp.set_extension(&cmd);
        sc_time d = sc_core::SC_ZERO_TIME;
        channel.socket->b_transport(gp, d);
        EXPECT_TRUE(gp.is_response_ok());
        cmd.target_id = 3;  // nobody there: selection times out
        channel.socket->b_transport(gp, d);
        EXPECT_EQ(gp.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        gp.clear_extension(&cmd);
        EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
        EXPECT_EQ(bus.statistics().selections, 1u);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

// ---- XOR engine over the buffer DRAM --------------------------------------------------------------

namespace {

struct xor_bench : sc_core::sc_module {
    buffer_dram dram;
    xor_engine engine;
    tlm_utils::simple_initiator_socket<xor_bench> to_xor{"to_xor"};
    tlm_utils::simple_initiator_socket<xor_bench> dummy{"dummy"};
    xor_bench(sc_core::sc_module_name n, const dram_config &d, const xor_config &x)
        : sc_module(n), dram("dram", d, {{"xor", 0}, {"other", 0}}), engine("xor", x) {
        engine.dram.bind(dram.port[0]);
        dummy.bind(dram.port[1]);
        to_xor.bind(engine.command);
    }
    void run(const std::vector<protocol::buffer_block *> &in, protocol::buffer_block *out, uint64_t sectors) {
        tlm::tlm_generic_payload gp;
        protocol::xor_command x;
        for (auto *b : in) x.inputs.push_back({b, 0});
        x.output = {out, 0};
        x.sectors = sectors;
        gp.set_extension(&x);
        sc_time d = sc_core::SC_ZERO_TIME;
        to_xor->b_transport(gp, d);
        gp.clear_extension(&x);
        EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    }
};

// Runs `commands` XORs of `inputs` blocks of `sectors` sectors from two submitters; returns the
// result bytes per second and checks every parity token.
double xor_throughput(xor_bench &b, int commands, int inputs, uint64_t sectors) {
    double end_s = 0;
    int done = 0;
    for (int submitter = 0; submitter < 2; ++submitter)
        sc_core::sc_spawn([&, submitter] {
            for (int c = submitter; c < commands; c += 2) {
                std::vector<protocol::buffer_block *> in;
                for (int i = 0; i < inputs; ++i) {
                    in.push_back(b.dram.allocate(sectors * 512, sectors));
                    for (uint64_t s = 0; s < sectors; ++s) in.back()->tokens[s] = (uint64_t(c) << 40) ^ (uint64_t(i) << 20) ^ s;
                }
                protocol::buffer_block *out = b.dram.allocate(sectors * 512, sectors);
                b.run(in, out, sectors);
                for (uint64_t s = 0; s < sectors; s += 97) {
                    uint64_t want = 0;
                    for (int i = 0; i < inputs; ++i) want ^= (uint64_t(c) << 40) ^ (uint64_t(i) << 20) ^ s;
                    ASSERT_EQ(out->tokens[s], want);
                }
                for (auto *p : in) b.dram.free(p);
                b.dram.free(out);
                ++done;
                end_s = std::max(end_s, sc_core::sc_time_stamp().to_seconds());
            }
        });
    sc_core::sc_start();
    EXPECT_EQ(done, commands);
    return double(commands) * double(sectors) * 512 / end_s;
}

}  // namespace

TEST(xor_engine, throughput_is_bytes_per_cycle_times_clock_on_large_blocks) {
    dram_config d;
    d.width_bits = 512;  // 12.8 GB/s: more than 4 inputs + 1 output at the engine's 1.6 GB/s
    xor_config x;        // 8 bytes/cycle at 200 MHz, 100 setup cycles
    xor_bench b("bench", d, x);
    const double rate = xor_throughput(b, 16, 4, 2048);  // 1 MiB blocks
    std::cout << "XOR throughput " << rate / 1e6 << " MB/s of " << x.bytes_per_s() / 1e6 << " MB/s\n";
    EXPECT_NEAR(rate / x.bytes_per_s(), 1.0, 0.02) << rate;
    EXPECT_LE(rate, x.bytes_per_s());
    EXPECT_EQ(b.engine.statistics().commands, 16u);
    EXPECT_GT(b.engine.utilisation(), 0.98);
}

TEST(xor_engine, a_narrow_dram_limits_it) {
    dram_config d;  // 1.6 GB/s, shared by 3 inputs and the output
    xor_config x;
    xor_bench b("bench", d, x);
    const double rate = xor_throughput(b, 8, 3, 2048);
    std::cout << "XOR throughput " << rate / 1e6 << " MB/s, DRAM-bound at " << d.bandwidth_bytes_per_s() / 4e6
              << " MB/s\n";
    EXPECT_NEAR(rate / (d.bandwidth_bytes_per_s() / 4), 1.0, 0.02) << rate;
    EXPECT_GT(b.dram.utilisation(), 0.97);
}

// The GF multiply-accumulate mode runs at its own bytes/cycle on the same engine, its tokens are
// the field's sum of products, and it is counted apart from the XOR commands.
TEST(xor_engine, gf_mode_has_its_own_throughput_and_exact_tokens) {
    dram_config d;
    d.width_bits = 512;
    xor_config x;
    x.gf_bytes_per_cycle = 2;  // a quarter of the XOR rate: the time must follow it
    xor_bench b("bench", d, x);
    const uint64_t sectors = 2048;
    const std::vector<uint8_t> coefficients = {1, 2, 4, 0x8e};
    double end_s = 0;
    sc_core::sc_spawn([&] {
        std::vector<protocol::buffer_block *> in;
        for (size_t i = 0; i < coefficients.size(); ++i) {
            in.push_back(b.dram.allocate(sectors * 512, sectors));
            for (uint64_t s = 0; s < sectors; ++s) in.back()->tokens[s] = (uint64_t(i + 1) << 48) ^ (s * 0x9e3779b97f4a7c15ULL);
        }
        protocol::buffer_block *out = b.dram.allocate(sectors * 512, sectors);
        tlm::tlm_generic_payload gp;
        protocol::xor_command c;
        for (auto *p : in) c.inputs.push_back({p, 0});
        c.output = {out, 0};
        c.sectors = sectors;
        c.coefficients = coefficients;
        gp.set_extension(&c);
        sc_time delay = sc_core::SC_ZERO_TIME;
        b.to_xor->b_transport(gp, delay);
        gp.clear_extension(&c);
        EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
        end_s = sc_core::sc_time_stamp().to_seconds();
        for (uint64_t s = 0; s < sectors; s += 31) {
            uint64_t want = 0;
            for (size_t i = 0; i < in.size(); ++i) want ^= gf256::scale_token(coefficients[i], in[i]->tokens[s]);
            ASSERT_EQ(out->tokens[s], want);
            ASSERT_NE(out->tokens[s], in[0]->tokens[s] ^ in[1]->tokens[s] ^ in[2]->tokens[s] ^ in[3]->tokens[s]);
        }
    });
    sc_core::sc_start();
    const double expected_s = double(x.cycles(sectors * 512, true)) * x.cycle_s();
    EXPECT_NEAR(end_s / expected_s, 1.0, 0.02) << end_s;
    EXPECT_GT(end_s, 3.5 * double(x.cycles(sectors * 512, false)) * x.cycle_s());  // not at the XOR rate
    EXPECT_EQ(b.engine.statistics().commands, 1u);
    EXPECT_EQ(b.engine.statistics().gf_commands, 1u);
    EXPECT_DOUBLE_EQ(b.engine.statistics().gf_result_bytes, double(sectors * 512));
}

// ---- buffer DRAM ----------------------------------------------------------------------------------

namespace {
struct dram_bench : sc_core::sc_module {
    buffer_dram dram;
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<dram_bench>>> sockets;
    dram_bench(sc_core::sc_module_name n, dram_arbitration a)
        : sc_module(n),
          dram("dram",
               [a] {
                   dram_config c;
                   c.arbitration = a;
                   c.capacity_bytes = 1 << 20;
                   return c;
               }(),
               {{"high", 2}, {"low", 1}}) {
        for (int p = 0; p < 2; ++p) {
            sockets.push_back(std::make_unique<tlm_utils::simple_initiator_socket<dram_bench>>(
                sc_core::sc_gen_unique_name("s")));
            sockets.back()->bind(dram.port[size_t(p)]);
        }
    }
    // Two 1.6 MB transfers (1 ms alone at 1600 MB/s) on both ports at time 0; their end times.
    std::vector<double> race() {
        std::vector<double> end(2);
        for (int p = 0; p < 2; ++p)
            sc_core::sc_spawn([this, p, &end] {
                dram.transfer(p, 1'600'000, 0);
                end[size_t(p)] = sc_core::sc_time_stamp().to_seconds() * 1e3;
            });
        sc_core::sc_start();
        return end;
    }
};
}  // namespace

TEST(buffer_dram, round_robin_shares_the_bandwidth) {
    dram_bench b("bench", dram_arbitration::round_robin);
    const std::vector<double> end = b.race();
    EXPECT_NEAR(end[0], 2.0, 1e-6);  // both at half rate
    EXPECT_NEAR(end[1], 2.0, 1e-6);
    EXPECT_NEAR(b.dram.utilisation(), 1.0, 1e-6);
}

TEST(buffer_dram, fixed_priority_serves_the_high_port_first) {
    dram_bench b("bench", dram_arbitration::fixed_priority);
    const std::vector<double> end = b.race();
    EXPECT_NEAR(end[0], 1.0, 1e-6);  // as if alone
    EXPECT_NEAR(end[1], 2.0, 1e-6);  // after it
    EXPECT_NEAR(b.dram.statistics().ports[1].wait.max_s * 1e3, 1.0, 1e-6);
}

TEST(buffer_dram, allocation_waits_while_the_buffer_is_full) {
    dram_bench b("bench", dram_arbitration::round_robin);  // 1 MiB of buffer space
    double got_ms = -1;
    sc_core::sc_spawn([&] {
        protocol::buffer_block *a = b.dram.allocate(768 << 10, 0);
        sc_core::wait(sc_time(5, sc_core::SC_MS));
        b.dram.free(a);
    });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, sc_core::SC_MS));
        protocol::buffer_block *c = b.dram.allocate(512 << 10, 0);
        got_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
        b.dram.free(c);
    });
    sc_core::sc_start();
    EXPECT_NEAR(got_ms, 5.0, 1e-9);
    EXPECT_NEAR(b.dram.statistics().alloc_wait.max_s * 1e3, 4.0, 1e-9);
    EXPECT_DOUBLE_EQ(b.dram.statistics().occupancy_bytes.peak(), double(768 << 10));
}

// Late in a long run, a picosecond is one or two ulps of the time in seconds: a transfer due to
// start one tick ahead, or one with a tick or two left, once made the DRAM wake itself at zero
// time for ever (a 2x10^5-request soak stopped at 2,048 s simulated). A livelock here is a
// kill by the alarm, i.e. a failure, not a hang.
TEST(buffer_dram, transfers_a_tick_ahead_late_in_a_long_run_complete) {
    alarm(20);
    dram_bench b("bench", dram_arbitration::round_robin);
    int completed = 0;
    sc_core::sc_spawn([&] {
        dma_tracker t;
        for (double base_s : {2048.0, 10'007.0, 1.0e6}) {
            sc_core::wait(sc_time(base_s, sc_core::SC_SEC) - sc_core::sc_time_stamp());
            for (int k = 0; k < 2000; ++k) {
                sc_core::wait(sc_time(double(7919 + k), sc_core::SC_PS));
                const sc_time tick = sc_core::sc_get_time_resolution();
                b.dram.transfer_at(k % 2, 512 + uint64_t(k % 7), sc_core::sc_time_stamp() + tick, 1.6e8, t);
                if (k % 3 == 0) b.dram.transfer(1 - k % 2, 1 + uint64_t(k % 5), 0);
                t.wait_all();
                ++completed;
            }
        }
    });
    sc_core::sc_start();
    alarm(0);
    EXPECT_EQ(completed, 6000);
}

// ---- controller CPU and host link ---------------------------------------------------------------

TEST(controller_cpu, firmware_tasks_queue_for_the_cores) {
    cpu_config one;
    one.mhz = 100;
    cpu_config two = one;
    two.cores = 2;
    controller_cpu c1("c1", one), c2("c2", two);
    std::vector<double> end1, end2;
    for (int i = 0; i < 3; ++i) {
        sc_core::sc_spawn([&] {
            c1.run({{cpu_task::host_command, 600}, {cpu_task::dma_setup, 400}});  // 10 us
            end1.push_back(now_us());
        });
        sc_core::sc_spawn([&] {
            c2.run(cpu_task::host_command, 1000);
            end2.push_back(now_us());
        });
    }
    sc_core::sc_spawn([&] {
        c1.run(cpu_task::table_update, 0);  // costs nothing: does not wait
        EXPECT_EQ(now_us(), 0.0);
    });
    sc_core::sc_start();
    std::sort(end1.begin(), end1.end());
    std::sort(end2.begin(), end2.end());
    EXPECT_EQ(end1, (std::vector<double>{10, 20, 30}));  // one core: one at a time
    EXPECT_EQ(end2, (std::vector<double>{10, 10, 20}));  // two cores
    EXPECT_NEAR(c1.statistics().wait.max_s * 1e6, 20, 1e-9);
    EXPECT_EQ(c1.statistics().cycles[size_t(cpu_task::host_command)], 1800u);
    EXPECT_NEAR(c1.busy_s(), 30e-6, 1e-15);
}

namespace {
struct link_bench : sc_core::sc_module {
    buffer_dram dram;
    host_link link;
    tlm_utils::simple_initiator_socket<link_bench> to_link{"to_link"};
    link_bench(sc_core::sc_module_name n, const host_link_config &c)
        : sc_module(n), dram("dram", dram_config{}, {{"host", 0}}), link("link", c) {
        link.dram.bind(dram.port[0]);
        to_link.bind(link.dma);
    }
    // A DMA of `bytes` (write: into the buffer); returns its end time in us.
    double dma(bool write, uint64_t bytes) {
        tlm::tlm_generic_payload gp;
        protocol::dma_command d;
        d.bytes = bytes;
        gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        gp.set_extension(&d);
        sc_time delay = sc_core::SC_ZERO_TIME;
        to_link->b_transport(gp, delay);
        gp.clear_extension(&d);
        return now_us();
    }
};
}  // namespace

TEST(host_link, pcix_serialises_directions_pcie_overlaps_them) {
    host_link_config pcix;  // 1064 MB/s, 1 us DMA latency
    host_link_config pcie;
    pcie.kind = host_link_kind::pcie;
    pcie.lanes = 4;
    pcie.generation = 1;  // 1000 MB/s each way
    link_bench x("x", pcix), e("e", pcie);
    std::vector<double> xe(2), ee(2);
    sc_core::sc_spawn([&] { xe[0] = x.dma(true, 1'064'000); });
    sc_core::sc_spawn([&] { xe[1] = x.dma(false, 1'064'000); });
    sc_core::sc_spawn([&] { ee[0] = e.dma(true, 1'000'000); });
    sc_core::sc_spawn([&] { ee[1] = e.dma(false, 1'000'000); });
    sc_core::sc_start();
    std::sort(xe.begin(), xe.end());
    // PCI-X: 1 ms each, one after the other (each with its 1 us latency).
    EXPECT_NEAR(xe[0], 1001, 1e-3);
    EXPECT_NEAR(xe[1], 2002, 1e-3);
    EXPECT_NEAR(x.link.statistics().wait.max_s * 1e6, 1001, 1e-3);
    // PCIe: both directions at once; together they want 2000 MB/s of a 1600 MB/s DRAM, whose round
    // robin gives each 800 MB/s.
    EXPECT_NEAR(ee[0], 1 + 1250, 1e-3);
    EXPECT_NEAR(ee[1], 1 + 1250, 1e-3);
}
