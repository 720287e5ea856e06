// Requests in flight across a disk loss (issue 27): clients keep reads and writes of a hot region
// outstanding while a member is lost at a chosen instant (and perhaps replaced, and the
// replacement lost again during its rebuild), then the whole hot region is read back. The
// controller's scoreboard checks every read against the acknowledged writes; every request must
// succeed wherever the layout still has redundancy. Shared by test_controller_inflight_loss.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "controller_bench.h"

namespace component_test {

// When and what is lost: member `disk` when client request `at_request` is issued, `phase_ms`
// later (the instant against the commands in flight); a fresh drive in its slot
// `replace_after_ms` after the loss (< 0: never); that replacement lost again
// `lose_again_after_ms` after it arrived (< 0: never), during its own rebuild.
struct loss_instant {
    int disk = 0;
    uint64_t at_request = 400;
    double phase_ms = 0;
    double replace_after_ms = -1;
    double lose_again_after_ms = -1;
};

struct inflight_outcome {
    uint64_t requests = 0, failed_reads = 0, failed_writes = 0;
    uint64_t in_flight_at_loss = 0;  // host requests outstanding when the member was lost
    uint64_t integrity_errors = 0, reads_checked = 0;
    uint64_t failed_read_back = 0;  // reads of the final pass over the hot region that failed
    bool lost = false;
};

// `clients` closed-loop clients of `sectors`-sector requests (half writes, fresh tokens each) at
// random starts within the first `hot_sectors` of the array (aligned to `sectors` or not), until
// `total` requests are done; then one pass reading the hot region back.
struct inflight_load {
    controller_bench &b;
    int clients = 16;
    uint32_t sectors = 8;
    uint64_t hot_sectors = 1024;
    bool aligned = false;
    uint64_t total = 1500;
    uint64_t seed = 1;

    inflight_outcome run(const loss_instant &loss) {
        inflight_outcome out;
        uint64_t issued = 0, done = 0, outstanding = 0;
        auto lose = [&] {
            out.in_flight_at_loss = outstanding;
            out.lost = true;
            b.ctl->fail_member(loss.disk);
        };
        auto schedule = [&] {
            b.host.spawn([&] {
                if (loss.phase_ms > 0) sc_core::wait(sc_core::sc_time(loss.phase_ms, sc_core::SC_MS));
                lose();
                if (loss.replace_after_ms < 0) return;
                sc_core::wait(sc_core::sc_time(loss.replace_after_ms, sc_core::SC_MS));
                b.drives[size_t(loss.disk)]->replace_media();
                b.ctl->replace_member(loss.disk);
                if (loss.lose_again_after_ms < 0) return;
                sc_core::wait(sc_core::sc_time(loss.lose_again_after_ms, sc_core::SC_MS));
                b.ctl->fail_member(loss.disk);
            });
        };
        auto read_back = [&] {
            for (uint64_t lbn = 0; lbn + sectors <= hot_sectors; lbn += sectors) {
                std::vector<uint64_t> t(sectors);
                if (b.host.send(true, lbn, sectors, t.data()) != tlm::TLM_OK_RESPONSE) ++out.failed_read_back;
            }
            sc_core::sc_stop();
        };
        for (int k = 0; k < clients; ++k)
            b.host.spawn([&, k] {
                uint64_t x = seed * 1000003 + uint64_t(k) * 7919 + 17;
                while (issued < total) {
                    const uint64_t n = issued++;
                    if (n == loss.at_request) schedule();
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    const bool write = (x >> 63) != 0;
                    const uint64_t span = aligned ? hot_sectors / sectors : hot_sectors - sectors + 1;
                    const uint64_t lbn = aligned ? ((x >> 20) % span) * sectors : (x >> 20) % span;
                    std::vector<uint64_t> t = write ? tokens(seed * 100000 + n + 1, sectors) : std::vector<uint64_t>(sectors);
                    ++outstanding;
                    const bool ok = b.host.send(!write, lbn, sectors, t.data()) == tlm::TLM_OK_RESPONSE;
                    --outstanding;
                    if (!ok) ++(write ? out.failed_writes : out.failed_reads);
                    if (++done == total) read_back();
                }
            });
        sc_core::sc_start();
        out.requests = done;
        out.integrity_errors = b.ctl->integrity().integrity_errors();
        out.reads_checked = b.ctl->integrity().reads_checked();
        for (const auto &m : b.ctl->integrity().first_mismatches())
            std::cout << "  wrong read: lbn " << m.lbn << " expected " << std::hex << m.expected << " got " << m.got
                      << std::dec << "\n";
        return out;
    }
};

// What every case expects: every request served, nothing read wrong, and the loss came while
// requests were out (else the case shows nothing).
inline void expect_served_across_the_loss(const inflight_outcome &o, uint64_t total) {
    EXPECT_TRUE(o.lost) << "the loss never happened";
    EXPECT_GT(o.in_flight_at_loss, 0u) << "no request was in flight at the loss: the case shows nothing";
    EXPECT_EQ(o.requests, total);
    EXPECT_EQ(o.failed_reads, 0u);
    EXPECT_EQ(o.failed_writes, 0u);
    EXPECT_EQ(o.failed_read_back, 0u);
    EXPECT_EQ(o.integrity_errors, 0u);
    EXPECT_GT(o.reads_checked, total / 4);
}

}  // namespace component_test
