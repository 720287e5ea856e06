// The RAID 6 family's component bench (controller.layout: raid6; raid6_checks 2 or 3), shared by
// test_controller_raid6.cpp (P+Q, 6 disks) and test_controller_triple_check.cpp (P+Q+R, 7 disks):
// real Cheetah 9LP drives, 16-sector units, the stripes' checks verified from the drives' raw
// contents (pq_rows.h), and the helpers both write and rebuild with.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "pq_rows.h"
#include "controller/platform/controller_top.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/layouts/raid6_layout.h"

namespace component_test {

constexpr uint64_t check_array_unit = 16;

struct check_array_bench : controller_bench {
    // `blocks` > 0: the firmware told the drives hold only that many each (a short rebuild).
    check_array_bench(int disks, const raidtlm::controller::controller_config &config, uint64_t blocks = 0)
        : controller_bench(disks, config, cheetah(), blocks) {}
    const raidtlm::controller::raid6_layout &layout() const {
        return dynamic_cast<const raidtlm::controller::raid6_layout &>(*ctl->array_layout());
    }
    const raidtlm::controller::raid6_firmware &firmware() const {
        return *ctl->firmware_as<raidtlm::controller::raid6_firmware>();
    }
    // Rows of stripe s whose stored checks differ from those of its stored data, read raw;
    // `lost`: a disk whose unit is taken from `expect` (the host's data) instead.
    int bad_rows(int64_t s, int lost = -1, const std::map<uint64_t, uint64_t> *expect = nullptr) {
        return pq_bad_rows(*ctl, layout(), s, check_array_unit, [](int, uint64_t lbn) { return lbn; }, lost, expect);
    }
    // Commands the drives served: reads, or writes.
    uint64_t drive_count(bool reads) const {
        uint64_t n = 0;
        for (const auto &d : drives) n += reads ? d->statistics().reads : d->statistics().writes;
        return n;
    }
};

inline raidtlm::controller::controller_config check_array_config(int checks, bool read_rotate_write = false) {
    raidtlm::controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = check_array_unit;
    c.firmware.array = raidtlm::controller::array_kind::raid6;
    c.firmware.raid6_checks = checks;
    c.firmware.parity_writes.read_rotate_write = read_rotate_write;
    return c;
}

// Writes of every path over stripes 0..7 (64 data sectors per stripe: 4 data units).
template <class Bench>
void write_every_path(host_writer<Bench> &w) {
    w.write(5, 3);      // stripe 0, one unit: read-modify-write
    w.write(16, 40);    // stripe 0 units 1-3: reconstruct-write
    w.write(128, 64);   // stripe 2 whole: full-stripe
    w.write(200, 250);  // stripes 3-7: partial, full ..., partial
    w.write(6, 20);     // over earlier data
    w.write(70, 2);     // stripe 1: read-modify-write of unwritten rows
}

// Writes of every path over stripes 0..7, everything read back (the scoreboard and the host's
// expectation), and every row's checks right on the drives.
template <class Bench>
void every_path_reads_back_with_its_checks(Bench &b) {
    run_clean(b, [&] {
        host_writer<Bench> w{b, {}};
        write_every_path(w);
        w.check(0, 500);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
}

// A fresh drive in a slot: every token of its first `blocks` sectors 0 (debug transport).
inline void wipe(controller_bench &b, int disk, uint64_t blocks) {
    std::vector<uint64_t> zeros(blocks, 0);
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(0);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(zeros.data()));
    gp.set_data_length(uint32_t(blocks * raidtlm::protocol::token_bytes));
    gp.set_streaming_width(uint32_t(blocks * raidtlm::protocol::token_bytes));
    b.drives[size_t(disk)]->target.get_base_interface().transport_dbg(gp);
}

inline void wait_until_optimal(controller_bench &b, int disk) {
    while (b.ctl->member_state_of(disk) != raidtlm::controller::member_state::optimal)
        sc_core::wait(sc_core::sc_time(10, sc_core::SC_MS));
}

}  // namespace component_test
