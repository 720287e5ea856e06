// What the rebuild component tests share (test_controller_rebuild.cpp,
// test_controller_parity_logging_rebuild.cpp): foreground load during a rebuild and waiting for a
// member's state.
#pragma once

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "controller_bench.h"

namespace component_test {

inline void pause_ms(double ms) { sc_core::wait(sc_core::sc_time(ms, sc_core::SC_MS)); }

// Foreground load during the rebuild: `clients` threads writing and reading random pieces of
// `sectors` (8 unless set) of the array, the writes remembered in `w` (the host_writer's
// expectation).
template <class Bench = controller_bench>
struct foreground {
    Bench &b;
    host_writer<Bench> &w;
    uint64_t capacity;
    int clients = 4;
    uint32_t sectors = 8;
    bool stop = false;
    int running = 0;
    uint64_t requests = 0, failed = 0;
    void start() {
        for (int k = 0; k < clients; ++k) {
            ++running;
            b.host.spawn([this, k] {
                uint64_t x = 1234567 + uint64_t(k) * 7919;
                while (!stop) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    // Each client its own pieces: the expectation follows the order of its writes.
                    const uint64_t piece = ((x >> 20) % (capacity / sectors / uint64_t(clients))) * uint64_t(clients) + uint64_t(k);
                    const uint64_t lbn = piece * sectors;
                    ++requests;
                    if ((x >> 63) != 0) {
                        std::vector<uint64_t> t = tokens(w.seed++, sectors);
                        // Remembered before it is sent: a later read of the range checks it.
                        if (b.host.send(false, lbn, sectors, t.data()) != tlm::TLM_OK_RESPONSE) ++failed;
                        for (uint32_t i = 0; i < sectors; ++i) w.expect[lbn + i] = t[i];
                    } else {
                        std::vector<uint64_t> t(sectors);
                        if (b.host.send(true, lbn, sectors, t.data()) != tlm::TLM_OK_RESPONSE) ++failed;
                    }
                }
                --running;
            });
        }
    }
    void finish() {
        stop = true;
        while (running > 0) pause_ms(1);
    }
};

// The reads of a check pass: [0, sectors) in pieces of `piece` sectors, once for each entry of
// `failed_disks` (the member the firmware is told is failed then; -1 for none), every read's
// outcome counted. Wrong data among them shows in the integrity checker.
struct read_pass {
    uint64_t reads = 0, failed_reads = 0;
    std::vector<uint64_t> failed_lbns;
};

inline read_pass read_with_members_failed(controller_bench &b, const std::vector<int> &failed_disks,
                                          uint64_t sectors, uint32_t piece) {
    read_pass pass;
    for (const int failed : failed_disks) {
        b.ctl->set_failed_disk(failed);
        for (uint64_t lbn = 0; lbn < sectors; lbn += piece) {
            std::vector<uint64_t> r(piece);
            ++pass.reads;
            if (b.host.send(true, lbn, piece, r.data()) != tlm::TLM_OK_RESPONSE) {
                ++pass.failed_reads;
                pass.failed_lbns.push_back(lbn);
            }
        }
    }
    b.ctl->set_failed_disk(-1);
    return pass;
}

inline void wait_for_state(controller_bench &b, int disk, raidtlm::controller::member_state s, double limit_ms) {
    const double until = sc_core::sc_time_stamp().to_seconds() * 1e3 + limit_ms;
    while (b.ctl->members().state(disk) != s && sc_core::sc_time_stamp().to_seconds() * 1e3 < until) pause_ms(1);
    ASSERT_EQ(b.ctl->members().state(disk), s) << "member " << disk << " after " << limit_ms << " ms";
}

}  // namespace component_test
