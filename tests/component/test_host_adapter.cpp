// Component benches for the testbench's SystemC modules with the real drive model. One bench per
// TEST: each runs in its own process (SystemC elaborates once per process). The drive's timing is
// not asserted here, only structure, counts, data and errors.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "disks/disk_drive.h"
#include "disks/diskspec_loader.h"
#include "testbench/bench/host_adapter.h"
#include "testbench/bench/run_bench.h"
#include "testbench/bench/run_measurement.h"
#include "testbench/workloads/trace_replayer.h"
#include "component_support.h"

using namespace raidtlm;
using namespace raidtlm::testbench;
using component_test::cheetah;
using component_test::host_tester;

namespace {

// Drives behind a host adapter, and a tester on its host socket.
struct adapter_bench {
    std::vector<std::unique_ptr<disks::disk_drive>> drives;
    std::unique_ptr<host_adapter> adapter;
    std::unique_ptr<host_tester> host;

    adapter_bench(int n, host_layout layout, uint64_t unit) {
        std::vector<uint64_t> caps;
        for (int i = 0; i < n; ++i) {
            disks::drive_options o;
            o.spindle_phase = 0.1 * i;
            o.scsi_id = i;
            drives.push_back(
                std::make_unique<disks::disk_drive>(sc_core::sc_gen_unique_name("disk"), cheetah(), o));
            caps.push_back(static_cast<uint64_t>(drives.back()->capacity_blocks()));
        }
        adapter = std::make_unique<host_adapter>("host_adapter", host_adapter_config{layout, unit}, caps);
        for (int i = 0; i < n; ++i) adapter->disk[i].bind(drives[i]->target);
        host = std::make_unique<host_tester>("tester");
        host->socket.bind(adapter->host);
    }
    uint64_t drive_requests() const {
        uint64_t n = 0;
        for (const auto &d : drives) n += d->statistics().requests;
        return n;
    }
};

}  // namespace

TEST(host_adapter, one_request_to_one_disk) {
    adapter_bench b(1, host_layout::jbod, 64);
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    b.host->spawn([&] { status = b.host->send(true, 1000, 8); });
    sc_core::sc_start();
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.drives[0]->statistics().requests, 1u);
    EXPECT_EQ(b.adapter->requests(), 1u);
    EXPECT_EQ(b.adapter->disk_commands(), 1u);
    EXPECT_EQ(b.adapter->outstanding(), 0);
    EXPECT_GT(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

TEST(host_adapter, striped_request_is_split_over_the_disks) {
    adapter_bench b(4, host_layout::stripe, 64);
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    b.host->spawn([&] { status = b.host->send(true, 32, 192); });  // 4 pieces: 32 + 64 + 64 + 32
    sc_core::sc_start();
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.adapter->disk_commands(), 4u);
    for (const auto &d : b.drives) EXPECT_EQ(d->statistics().requests, 1u);
    EXPECT_EQ(b.adapter->outstanding(), 0);
}

TEST(host_adapter, jbod_request_across_a_disk_boundary) {
    adapter_bench b(2, host_layout::jbod, 64);
    const uint64_t first = static_cast<uint64_t>(b.drives[0]->capacity_blocks());
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    b.host->spawn([&] { status = b.host->send(false, first - 4, 8); });
    sc_core::sc_start();
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.drives[0]->statistics().requests, 1u);
    EXPECT_EQ(b.drives[1]->statistics().requests, 1u);
}

TEST(host_adapter, out_of_range_and_malformed_requests_are_refused) {
    adapter_bench b(2, host_layout::stripe, 64);
    std::vector<tlm::tlm_response_status> got;
    b.host->spawn([&] {
        const uint64_t cap = b.adapter->capacity_sectors();
        got.push_back(b.host->send(true, cap - 4, 8));
        got.push_back(b.host->send(true, cap, 1));
        got.push_back(b.host->send(true, 0, 0));
        uint64_t tokens[4] = {};
        // Data length for 4 sectors on an 8-sector command.
        tlm::tlm_generic_payload gp;
        auto *cmd = new protocol::scsi_command;
        cmd->lbn = 0;
        cmd->blocks = 8;
        gp.set_extension(cmd);
        gp.set_data_ptr(reinterpret_cast<unsigned char *>(tokens));
        gp.set_data_length(sizeof tokens);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        b.host->socket->b_transport(gp, d);
        got.push_back(gp.get_response_status());
        // No scsi_command at all.
        tlm::tlm_generic_payload bare;
        b.host->socket->b_transport(bare, d);
        got.push_back(bare.get_response_status());
    });
    sc_core::sc_start();
    ASSERT_EQ(got.size(), 5u);
    EXPECT_EQ(got[0], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(got[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(got[2], tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(got[3], tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(got[4], tlm::TLM_GENERIC_ERROR_RESPONSE);
    EXPECT_EQ(b.adapter->disk_commands(), 0u);
    EXPECT_EQ(b.drive_requests(), 0u);
}

TEST(host_adapter, data_tokens_survive_striping) {
    adapter_bench b(3, host_layout::stripe, 16);
    const uint32_t n = 100;  // 7 pieces over 3 disks
    std::vector<uint64_t> written(n), read_back(n, 0);
    for (uint32_t i = 0; i < n; ++i) written[i] = 0x1000 + i * 7919;
    tlm::tlm_response_status w = tlm::TLM_INCOMPLETE_RESPONSE, r = w;
    b.host->spawn([&] {
        w = b.host->send(false, 40, n, written.data());
        r = b.host->send(true, 40, n, read_back.data());
    });
    sc_core::sc_start();
    EXPECT_EQ(w, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(read_back, written);
    EXPECT_GT(b.adapter->disk_commands(), 6u);
}

TEST(host_adapter, many_concurrent_callers_all_complete) {
    adapter_bench b(2, host_layout::stripe, 8);
    int ok = 0;
    for (int i = 0; i < 16; ++i)
        b.host->spawn([&, i] {
            for (int k = 0; k < 5; ++k)
                ok += b.host->send(k % 2 == 0, static_cast<uint64_t>(i) * 10000 + k * 24, 24) == tlm::TLM_OK_RESPONSE;
        });
    sc_core::sc_start();
    EXPECT_EQ(ok, 80);
    EXPECT_EQ(b.adapter->requests(), 80u);
    EXPECT_EQ(b.drive_requests(), b.adapter->disk_commands());
    EXPECT_LE(b.adapter->peak_outstanding(), 16);
    EXPECT_GT(b.adapter->peak_outstanding(), 1);
    EXPECT_LE(b.host->payloads_allocated(), 16u);  // recycled, not one per request
}

namespace {
scenario small_scenario() {
    scenario s;
    s.file = "<test>";
    s.disks.count = 3;
    s.workload.requests = 300;
    s.workload.warmup_requests = 20;
    s.workload.outstanding = 6;
    return s;
}
}  // namespace

TEST(run_bench, closed_loop_completes_the_configured_requests) {
    const scenario s = small_scenario();
    run_measurement m(s.workload.warmup_requests, s.workload.requests, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    sc_core::sc_start();
    EXPECT_TRUE(m.done());
    EXPECT_EQ(m.measured(), 300u);
    EXPECT_EQ(m.errors(), 0u);
    EXPECT_GE(m.completed_total(), 320u);
    EXPECT_LE(bench.workload().peak_in_flight(), 6);
    EXPECT_EQ(bench.host()->peak_outstanding(), 6);
    uint64_t drive_requests = 0, warm = 0;
    for (int i = 0; i < bench.disk_count(); ++i) {
        drive_requests += bench.disk(i).statistics().requests;
        warm += bench.warmup_snapshot()[i].requests;
    }
    // Requests still inside the adapter when the run stopped were issued but not completed.
    EXPECT_EQ(drive_requests + static_cast<uint64_t>(bench.host()->outstanding()), bench.host()->disk_commands());
    EXPECT_EQ(warm, 20u);  // snapshot taken when the 20th request completed
    EXPECT_GT(m.window_ms(), 0.0);
}

TEST(run_bench, closed_loop_on_one_drive_serves_every_client) {
    // Eight clients with no think time on one drive that holds one command (Cheetah 9LP: Max
    // queue length 1). Held commands go in in order, so a client that re-issues at once cannot
    // starve the others: every client completes requests and Little's law holds, N = X * R.
    scenario s = small_scenario();
    s.disks.count = 1;
    s.host.layout = host_layout::jbod;
    s.workload.outstanding = 8;
    s.workload.requests = 800;
    s.workload.warmup_requests = 40;
    run_measurement m(s.workload.warmup_requests, s.workload.requests, 0.5, 2000);
    run_bench bench("bench", s, cheetah(), m);
    sc_core::sc_start();
    ASSERT_TRUE(m.done());
    EXPECT_NEAR(m.all().mean_ms() * m.iops() / 1000.0, 8.0, 0.4);
    EXPECT_EQ(bench.workload().peak_in_flight(), 8);
}

TEST(run_bench, open_loop_reuses_its_workers) {
    scenario s = small_scenario();
    s.workload.arrival = arrival_process::open;
    s.workload.mean_interarrival_ms = 15;
    run_measurement m(s.workload.warmup_requests, s.workload.requests, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    sc_core::sc_start();
    EXPECT_TRUE(m.done());
    EXPECT_EQ(m.measured(), 300u);
    EXPECT_FALSE(bench.workload().overloaded());
    EXPECT_EQ(bench.workload().workers(), bench.workload().peak_in_flight());
    EXPECT_LT(bench.workload().workers(), 60);
}

TEST(run_bench, open_loop_overload_stops_the_run) {
    scenario s = small_scenario();
    s.workload.arrival = arrival_process::open;
    s.workload.mean_interarrival_ms = 0.05;
    run_measurement m(s.workload.warmup_requests, s.workload.requests, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    bench.workload().set_max_in_flight(50);
    sc_core::sc_start();
    EXPECT_TRUE(bench.workload().overloaded());
    EXPECT_FALSE(m.done());
    EXPECT_EQ(bench.workload().in_flight(), 50);
}

TEST(run_bench, trace_replay_ends_after_its_last_request_completes) {
    // Sparse arrivals: every request finds the drive idle, so the last one is still on its way to
    // a worker when the trace runs dry. It must be waited for.
    const auto path = std::filesystem::temp_directory_path() / ("raidtlm_sparse_" + std::to_string(getpid()) + ".trace");
    std::ofstream(path) << "0 0 1000 8 1\n100 0 900000 8 0\n200 0 5000000 8 1\n";
    scenario s = small_scenario();
    s.workload.arrival = arrival_process::trace;
    s.workload.requests = 0;
    s.workload.warmup_requests = 0;
    s.trace.file = path.string();
    run_measurement m(0, 0, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    sc_core::sc_start();
    std::filesystem::remove(path);
    EXPECT_TRUE(m.done());
    EXPECT_EQ(m.stopped_by(), stop_reason::source_end);
    EXPECT_EQ(m.measured(), 3u);
    EXPECT_GT(m.window_end_ms(), 200.0);
}

TEST(run_bench, synchronized_spindles_share_one_phase) {
    scenario s = small_scenario();
    s.disks.spindle_sync = true;
    run_measurement m(0, 1, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    EXPECT_EQ(bench.spindle_phase(0), bench.spindle_phase(1));
    EXPECT_EQ(bench.spindle_phase(1), bench.spindle_phase(2));
}

TEST(run_bench, free_spindles_get_their_own_phases) {
    const scenario s = small_scenario();
    run_measurement m(0, 1, 0.5, 200);
    run_bench bench("bench", s, cheetah(), m);
    EXPECT_NE(bench.spindle_phase(0), bench.spindle_phase(1));
    EXPECT_NE(bench.spindle_phase(1), bench.spindle_phase(2));
    for (int i = 0; i < 3; ++i) {
        EXPECT_GE(bench.spindle_phase(i), 0.0);
        EXPECT_LT(bench.spindle_phase(i), 1.0);
    }
}

TEST(trace_replayer, replays_one_at_a_time_in_order) {
    disks::drive_options o;
    disks::disk_drive drive("disk", cheetah(), o);
    std::vector<validate_record> recs;
    for (int i = 0; i < 5; ++i) {
        validate_record r;
        r.read = i % 2 == 0;
        r.lbn = 1000 + 5000 * i;
        r.blocks = 8;
        r.next_interarrival_ms = 10;
        r.line = i + 1;
        recs.push_back(r);
    }
    trace_replayer replay("replay", recs);
    replay.socket.bind(drive.target);
    sc_core::sc_start();
    EXPECT_EQ(replay.completed(), 5u);
    EXPECT_EQ(replay.errors(), 0u);
    double sum = 0;
    for (double t : replay.response_ms()) {
        EXPECT_TRUE(std::isfinite(t));
        EXPECT_GE(t, 0.0);
        sum += t;
    }
    EXPECT_EQ(drive.statistics().requests, 5u);
    // Strictly one at a time: the run lasts the responses plus the four gaps.
    EXPECT_NEAR(sc_core::sc_time_stamp().to_seconds() * 1e3, sum + 40.0, 1e-6);
}
