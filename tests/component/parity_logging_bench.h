// The parity logging component benches' bench (test_controller_parity_logging_pq.cpp,
// test_controller_parity_logging_rebuild.cpp): the layout, the firmware, raw drive contents and
// every check of a row compared with what the row's data on the drives give.
#pragma once

#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "controller_bench.h"
#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/layouts/parity_logging_layout.h"
#include "controller/layouts/pq_parity.h"
#include "rtl_models/xor/gf256.h"

namespace component_test {

namespace plog = raidtlm::controller;

// A small parity logging array for fault tests: 4-sector units on 16-sector tracks, L = 2 sublogs
// of a few tracks each (reintegrations come soon), `checks` checks, 2 tags per disk.
inline plog::controller_config small_parity_logging_config(int checks) {
    plog::controller_config c;
    c.channels = 3;
    c.firmware.array = plog::array_kind::parity_logging;
    c.firmware.stripe_unit_sectors = 4;
    c.firmware.tags_per_disk = 2;
    auto &p = c.firmware.parity_logging;
    p.checks = checks;
    p.track_sectors = 16;
    p.regions_per_disk = 4;
    p.log_stripes = 2;
    p.log_to_parity = 0.25;
    p.log_write_tracks = 1;
    p.buffer_tracks = 16;
    c.nvram.capacity_bytes = 4 << 20;
    return c;
}

struct plog_bench : controller_bench {
    plog_bench(int disks, const plog::controller_config &c, uint64_t member_blocks = 0)
        : controller_bench(disks, c, cheetah(), member_blocks) {}
    const plog::parity_logging_layout &layout() const {
        return dynamic_cast<const plog::parity_logging_layout &>(*ctl->array_layout());
    }
    plog::parity_logging_firmware &firmware() { return *ctl->firmware_as<plog::parity_logging_firmware>(); }
    uint64_t raw(int d, int64_t lbn) {
        uint64_t t = 0;
        EXPECT_TRUE(ctl->raw_disk_io(true, d, uint64_t(lbn), 1, &t));
        return t;
    }
    uint64_t drive_commands() const {
        uint64_t n = 0;
        for (const auto &d : drives) n += d->statistics().requests;
        return n;
    }
    // Rows (one per sector offset of a logical stripe) whose stored P, Q or R differ from those
    // of the stored data; `nonzero` counts rows with data in them.
    // `lost`: disks whose data are taken from `expect` (the host's) and whose checks are not
    // compared.
    int bad_rows(int64_t stripe, int &nonzero, const std::set<int> &lost = {},
                 const std::map<uint64_t, uint64_t> *expect = nullptr) {
        const auto &l = layout();
        int bad = 0;
        const int64_t u = l.unit_sectors();
        for (int64_t s = 0; s < u; ++s) {
            std::vector<uint64_t> row;
            for (int j = 0; j < l.data_columns(); ++j) {
                const int64_t lbn = stripe * l.stripe_data_sectors() + j * u + s;
                const auto e = l.data_location(lbn);
                if (!lost.count(e.disk)) row.push_back(raw(e.disk, e.drive_lbn));
                else row.push_back(expect->count(uint64_t(lbn)) ? expect->at(uint64_t(lbn)) : 0);
            }
            const int64_t first = stripe * l.stripe_data_sectors() + s;
            bool off = false;
            for (int k = 0; k < l.checks(); ++k) {
                const auto c = l.check_of(first, k);
                uint64_t want = 0;  // sum g^(k j) D_j
                for (size_t j = 0; j < row.size(); ++j)
                    want ^= raidtlm::rtl_models::gf256::scale_token(plog::pq::check_coefficient(k, int(j)), row[j]);
                if (k == 0) {
                    EXPECT_EQ(want, plog::pq::p_of(row));
                }
                if (k == 1) {
                    EXPECT_EQ(want, plog::pq::q_of(row));
                }
                off = off || (!lost.count(c.disk) && want != raw(c.disk, c.drive_lbn));
            }
            bad += off;
            for (uint64_t t : row) nonzero += t != 0;
        }
        return bad;
    }
};

}  // namespace component_test
