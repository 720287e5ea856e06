// A controller with real drives behind it and a host tester in front: the bench of the controller
// component tests.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "component_support.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "disks/disk_drive.h"

namespace component_test {

struct controller_bench {
    std::vector<std::unique_ptr<raidtlm::disks::disk_drive>> drives;
    std::unique_ptr<raidtlm::controller::controller_top> ctl;
    host_tester host{"tester"};

    // `member_blocks` > 0: the array uses only the first that many blocks of each drive (a
    // small array, e.g. for a whole rebuild in a test).
    controller_bench(int n, const raidtlm::controller::controller_config &config,
                     const raidtlm::disks::disk_spec &spec = cheetah(), uint64_t member_blocks = 0) {
        std::vector<raidtlm::controller::disk_info> infos;
        for (int i = 0; i < n; ++i) {
            raidtlm::disks::drive_options o;
            o.spindle_phase = 0.13 * i;
            drives.push_back(std::make_unique<raidtlm::disks::disk_drive>(sc_core::sc_gen_unique_name("disk"), spec, o));
            const uint64_t blocks = uint64_t(drives.back()->capacity_blocks());
            infos.push_back({member_blocks > 0 ? std::min(member_blocks, blocks) : blocks,
                             spec.interface.max_queue_length, &spec});
        }
        ctl = std::make_unique<raidtlm::controller::controller_top>("controller", config, infos);
        for (int i = 0; i < n; ++i) {
            ctl->disk[size_t(i)].bind(drives[size_t(i)]->target);
            drives[size_t(i)]->bus.bind(ctl->disk_bus[size_t(i)]);
        }
        host.socket.bind(ctl->host);
    }
};

// Data tokens for a write of n sectors: distinct per seed and sector.
// RAID 1 on two channels with 16-sector units; `tags_per_disk` > 0 sets the drive tags (1: a
// command waits in the firmware behind another, which the mirror tests use to hold one back).
inline raidtlm::controller::controller_config raid1_config(int tags_per_disk = 0) {
    raidtlm::controller::controller_config c;
    c.channels = 2;
    c.firmware.array = raidtlm::controller::array_kind::raid1;
    c.firmware.stripe_unit_sectors = 16;
    if (tags_per_disk > 0) c.firmware.tags_per_disk = tags_per_disk;
    return c;
}

inline std::vector<uint64_t> tokens(uint64_t seed, uint32_t n) {
    std::vector<uint64_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = (seed << 32) | (i + 1);
    return t;
}

// `clients` host threads writing 1-24 sectors at random starts in [0, sectors) until `stop` is
// set: the load a power loss cuts into torn stripes (what they wrote is never checked).
template <class Bench>
void spawn_random_writers(Bench &b, int clients, uint64_t sectors, const bool &stop) {
    for (int k = 0; k < clients; ++k)
        b.host.spawn([&b, &stop, k, sectors] {
            uint64_t x = 977 + uint64_t(k) * 7919;
            while (!stop) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                const uint32_t len = uint32_t(1 + (x >> 8) % 24);
                const uint64_t lbn = (x >> 20) % (sectors - len + 1);
                std::vector<uint64_t> t = tokens(1000 + (x >> 40), len);
                b.host.send(false, lbn, len, t.data());
            }
        });
}

// Host writes through the bench, remembering what the host should read back (later writes win).
template <class Bench>
struct host_writer {
    Bench &b;
    std::map<uint64_t, uint64_t> expect{};
    uint64_t seed = 1;
    void write(uint64_t lbn, uint32_t n) {
        std::vector<uint64_t> t = tokens(seed++, n);
        ASSERT_EQ(b.host.send(false, lbn, n, t.data()), tlm::TLM_OK_RESPONSE) << "write " << lbn << "+" << n;
        for (uint32_t i = 0; i < n; ++i) expect[lbn + i] = t[i];
    }
    // Reads [lbn, lbn + n) and compares (sectors never written read as 0).
    void check(uint64_t lbn, uint32_t n) {
        std::vector<uint64_t> r(n);
        ASSERT_EQ(b.host.send(true, lbn, n, r.data()), tlm::TLM_OK_RESPONSE);
        for (uint32_t i = 0; i < n; ++i) {
            const auto it = expect.find(lbn + i);
            EXPECT_EQ(r[i], it == expect.end() ? 0u : it->second) << "lbn " << lbn + i;
        }
    }
    void check_all() {
        for (const auto &[lbn, tok] : expect) check(lbn, 1);
    }
    // Reads every sector written back, one at a time, without asserting: the reads refused and
    // those returning other data than the last write (for benches where some reads must fail).
    struct read_back_counts {
        uint64_t reads = 0, failed = 0, wrong = 0;
    };
    read_back_counts read_back_each() {
        read_back_counts c;
        for (const auto &[lbn, tok] : expect) {
            uint64_t t = 0;
            ++c.reads;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE)
                ++c.failed;
            else if (t != tok)
                ++c.wrong;
        }
        return c;
    }
    // Reads everything back, leaving the verdict to the controller's scoreboard.
    void read_all() {
        for (const auto &[lbn, tok] : expect) {
            uint64_t r = 0;
            ASSERT_EQ(b.host.send(true, lbn, 1, &r), tlm::TLM_OK_RESPONSE);
        }
    }
    // Parity logging: `writes` 3-sector writes spread over region `region` (and its stripes), to
    // fill its log (Bench::layout() is a parity_logging_layout).
    void churn(int region, int writes) {
        const auto &l = b.layout();
        const int64_t base = int64_t(region) * l.region_data_sectors();
        for (int k = 0; k < writes; ++k) write(uint64_t(base + (k * 37) % (l.region_data_sectors() - 3)), 3);
    }
};

// Runs `body` on the bench's host thread and the simulation to its end; the body must have
// finished (an ASSERT inside stops it early and fails here).
template <class Fn>
void run_to_end(controller_bench &b, Fn body) {
    bool done = false;
    b.host.spawn([&] {
        body();
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

// run_to_end, and the scoreboard saw no integrity error.
template <class Fn>
void run_clean(controller_bench &b, Fn body) {
    run_to_end(b, body);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

// What a drive holds, read without time (TLM debug transport).
inline std::vector<uint64_t> on_disk(controller_bench &b, int disk, uint64_t lbn, uint32_t n) {
    std::vector<uint64_t> t(n);
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(lbn * raidtlm::protocol::sector_bytes);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(t.data()));
    gp.set_data_length(n * raidtlm::protocol::token_bytes);
    gp.set_streaming_width(n * raidtlm::protocol::token_bytes);
    EXPECT_EQ(b.drives[size_t(disk)]->target.get_base_interface().transport_dbg(gp), n * raidtlm::protocol::token_bytes);
    return t;
}

}  // namespace component_test
