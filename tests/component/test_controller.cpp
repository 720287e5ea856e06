// Component benches for the controller: controller_top with real drives on its SCSI channels, and a
// host tester on its host socket. One bench per TEST (each runs in its own process).
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::cheetah;
using component_test::controller_bench;
using component_test::host_tester;

namespace {

controller::controller_config two_channels() {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = 16;
    return c;
}

std::vector<uint64_t> tokens(uint64_t seed, uint32_t n) {
    std::vector<uint64_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = (seed << 32) | i;
    return t;
}

}  // namespace

TEST(controller, write_then_read_returns_the_written_tokens) {
    controller_bench b(4, two_channels());
    bool done = false;
    b.host.spawn([&] {
        // Writes that span stripe units, disks and both channels, some overlapping.
        const std::vector<std::pair<uint64_t, uint32_t>> writes{{0, 8}, {10, 40}, {100, 64}, {30, 5}, {5000, 130}};
        std::vector<std::vector<uint64_t>> data;
        for (size_t k = 0; k < writes.size(); ++k) {
            data.push_back(tokens(k + 1, writes[k].second));
            ASSERT_EQ(b.host.send(false, writes[k].first, writes[k].second, data.back().data()), tlm::TLM_OK_RESPONSE);
        }
        // What the host should read back: later writes win.
        std::map<uint64_t, uint64_t> expect;
        for (size_t k = 0; k < writes.size(); ++k)
            for (uint32_t i = 0; i < writes[k].second; ++i) expect[writes[k].first + i] = data[k][i];
        std::vector<uint64_t> r(200);
        ASSERT_EQ(b.host.send(true, 0, 200, r.data()), tlm::TLM_OK_RESPONSE);
        for (uint64_t l = 0; l < 200; ++l) EXPECT_EQ(r[l], expect.count(l) ? expect[l] : 0u) << "lbn " << l;
        std::vector<uint64_t> r2(130);
        ASSERT_EQ(b.host.send(true, 5000, 130, r2.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r2, data[4]);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    // Every block took part: CPU tasks, buffers, host DMA both ways, both channels, NVRAM records.
    const auto &cpu = b.ctl->cpu().statistics();
    EXPECT_EQ(cpu.tasks[size_t(rtl_models::cpu_task::host_command)], 7u);
    EXPECT_GT(b.ctl->statistics().physical_commands, 7u);
    EXPECT_EQ(b.ctl->dram().statistics().allocations, 7u);
    EXPECT_GT(b.ctl->link().statistics().bytes[0], 0);
    EXPECT_GT(b.ctl->link().statistics().bytes[1], 0);
    EXPECT_GT(b.ctl->bus(0).statistics().data_bytes, 0);
    EXPECT_GT(b.ctl->bus(1).statistics().data_bytes, 0);
    EXPECT_EQ(b.ctl->nvram().statistics().writes, 10u);  // a record and its clearing per write
    EXPECT_TRUE(b.ctl->intent_log().empty());           // every write completed
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

TEST(controller, bad_requests_get_error_responses) {
    controller_bench b(2, two_channels());
    bool done = false;
    b.host.spawn([&] {
        EXPECT_EQ(b.host.send(true, b.ctl->capacity_sectors() - 4, 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(b.host.send(true, 0, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

TEST(controller, a_power_loss_keeps_nvram_and_loses_the_buffer) {
    controller_bench b(2, two_channels());
    int completed = 0;
    std::vector<uint64_t> w1 = tokens(1, 8), w2 = tokens(2, 8), w3 = tokens(3, 8);
    protocol::buffer_block *seen = nullptr;
    b.host.spawn([&] {
        ASSERT_EQ(b.host.send(false, 64, 8, w1.data()), tlm::TLM_OK_RESPONSE);  // done before the loss
        ++completed;
        // Two writes in flight when the power goes.
        sc_core::sc_spawn([&] { b.host.send(false, 1000, 8, w2.data()); ++completed; });
        sc_core::sc_spawn([&] { b.host.send(false, 2000, 8, w3.data()); ++completed; });
        sc_core::wait(sc_core::sc_time(0.5, sc_core::SC_MS));  // logged, still at the drives
        ASSERT_EQ(b.ctl->outstanding(), 2);
        seen = b.ctl->dram().allocate(4096, 8);  // a buffer with contents
        seen->tokens.assign(8, 42);
        b.ctl->power_fail();
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_MS));
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_EQ(completed, 1);  // the two in flight never complete
    const std::vector<controller::intent_record> log = b.ctl->intent_log();
    ASSERT_EQ(log.size(), 2u);
    std::set<uint64_t> lbns{log[0].lbn, log[1].lbn};
    EXPECT_EQ(lbns, (std::set<uint64_t>{1000, 2000}));
    EXPECT_EQ(log[0].sectors, 8u);
    EXPECT_FALSE(b.ctl->powered());
    for (uint64_t t : seen->tokens) EXPECT_EQ(t, rtl_models::buffer_dram::poison_token);
}

TEST(controller, a_drive_with_a_command_queue_disconnects_and_reselects_on_a_shared_bus) {
    disks::disk_spec spec = cheetah();
    spec.interface.max_queue_length = 4;
    controller::controller_config c;
    c.firmware.stripe_unit_sectors = 8;
    controller_bench b(2, c, spec);  // two drives on one bus, four tags each
    int done = 0;
    for (int i = 0; i < 8; ++i)
        b.host.spawn([&, i] {
            std::vector<uint64_t> r(8);
            EXPECT_EQ(b.host.send(true, uint64_t(i) * 1'000'008, 8, r.data()), tlm::TLM_OK_RESPONSE);
            ++done;
        });
    sc_core::sc_start();
    EXPECT_EQ(done, 8);
    EXPECT_EQ(controller::kit_of(*b.ctl).queues.state(0).tags, 4);
    const auto &bus = b.ctl->bus(0).statistics();
    EXPECT_EQ(bus.selections, 8u);
    // Every read reconnects for its data; a queued one also disconnects when it arrives, and its
    // reselection is its only way back: at least one reselection per read.
    EXPECT_GE(bus.reselections, 8u);
    EXPECT_EQ(controller::kit_of(*b.ctl).queues.statistics().tag_wait.max_s, 0.0);  // the firmware never had to queue
    EXPECT_GT(b.drives[0]->statistics().queue_ms_sum, 0.0);  // the drive did
}

TEST(controller, xor_of_buffers_through_the_controller_builds_checkable_parity) {
    controller_bench b(2, two_channels());
    bool done = false;
    b.host.spawn([&] {
        auto &dram = b.ctl->dram();
        std::vector<protocol::buffer_block *> data;
        for (int d = 0; d < 3; ++d) {
            data.push_back(dram.allocate(64 * 512, 64));
            data.back()->tokens = tokens(uint64_t(d + 7), 64);
        }
        protocol::buffer_block *parity = dram.allocate(64 * 512, 64);
        const double t0 = sc_core::sc_time_stamp().to_seconds();
        controller::firmware_platform &fw = b.ctl->services();
        fw.cpu_run_priced(rtl_models::cpu_task::xor_setup, 0);
        fw.xor_blocks({{data[0], 0}, {data[1], 0}, {data[2], 0}}, {parity, 0}, 64);
        const double took = sc_core::sc_time_stamp().to_seconds() - t0;
        // The CPU's set-up, the engine's set-up, then 4 x 32 KB through a 1600 MB/s DRAM (slower
        // than the engine's 1600 MB/s of result with 4 streams).
        const auto &cfg = b.ctl->config();
        const double expect = double(cfg.cpu.costs.xor_setup_cycles) * cfg.cpu.cycle_s() +
                              double(cfg.xor_engine.setup_cycles) * cfg.xor_engine.cycle_s() +
                              4.0 * 64 * 512 / cfg.dram.bandwidth_bytes_per_s();
        EXPECT_NEAR(took, expect, 1e-9);
        // Lose block 1: parity ^ block 0 ^ block 2 gives it back.
        protocol::buffer_block *rebuilt = dram.allocate(64 * 512, 64);
        fw.cpu_run_priced(rtl_models::cpu_task::xor_setup, 0);
        fw.xor_blocks({{parity, 0}, {data[0], 0}, {data[2], 0}}, {rebuilt, 0}, 64);
        EXPECT_EQ(rebuilt->tokens, data[1]->tokens);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->cpu().statistics().tasks[size_t(rtl_models::cpu_task::xor_setup)], 2u);
    EXPECT_EQ(b.ctl->xor_unit().statistics().commands, 2u);
}

TEST(controller, firmware_nvram_service_reads_back_what_it_wrote_with_time_charged) {
    controller_bench b(2, two_channels());
    bool done = false;
    b.host.spawn([&] {
        controller::firmware_platform &fw = b.ctl->services();
        const int64_t at = fw.nvram_allocate(16);
        ASSERT_GE(at, 0);
        const uint64_t written[2] = {0x1234, 0x5678};
        fw.nvram_write(uint64_t(at), written, sizeof written);
        uint64_t read[2] = {0, 0};
        const double t0 = sc_core::sc_time_stamp().to_seconds();
        fw.nvram_read(uint64_t(at), read, sizeof read);
        EXPECT_GT(sc_core::sc_time_stamp().to_seconds(), t0);  // the NVRAM's access time
        EXPECT_EQ(read[0], written[0]);
        EXPECT_EQ(read[1], written[1]);
        fw.nvram_release(at);
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
    EXPECT_EQ(b.ctl->nvram().statistics().reads, 1u);
}
