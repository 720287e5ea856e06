// P and Q (and R with three checks) of a RAID 6 stripe checked against its data as the drives
// hold them (raw contents, the debug transport): shared by the RAID 6 benches
// (test_controller_raid6.cpp, test_controller_triple_check.cpp) and floating over RAID 6
// (test_controller_floating_raid6.cpp), whose units live wherever the firmware moved them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "controller/platform/controller_top.h"
#include "controller/layouts/parity_stripe_layout.h"
#include "controller/layouts/pq_parity.h"

namespace component_test {

// Rows of stripe s whose stored checks (P, Q, R: l.check_units()) differ from those of its stored data. `where(disk,
// drive_lbn)`: the drive LBN a member unit's first sector lives at (identity for fixed layouts).
// `lost`: a disk whose unit is taken from `expect` (the host's data) instead; a lost check: 0.
inline int pq_bad_rows(raidtlm::controller::controller_top &ctl, const raidtlm::controller::parity_stripe_layout &l,
                       int64_t s, uint64_t unit, const std::function<uint64_t(int, uint64_t)> &where, int lost = -1,
                       const std::map<uint64_t, uint64_t> *expect = nullptr) {
    namespace pq = raidtlm::controller::pq;
    const int n = l.stripe_data_units(s);
    const int checks = l.check_units();
    int bad = 0;
    std::vector<std::vector<uint64_t>> member(size_t(n + checks), std::vector<uint64_t>(unit));
    for (int m = 0; m < n + checks; ++m) {
        const raidtlm::controller::unit_place u = m < n ? l.data_unit(s, m) : l.check_unit(s, m - n);
        if (u.disk == lost) {
            if (m >= n) return 0;  // a lost check: nothing to compare
            for (uint64_t r = 0; r < unit; ++r) {
                const uint64_t lbn = uint64_t(l.stripe_first_lbn(s)) + uint64_t(m) * unit + r;
                member[size_t(m)][r] = expect->count(lbn) ? expect->at(lbn) : 0;
            }
            continue;
        }
        EXPECT_TRUE(ctl.raw_disk_io(true, u.disk, where(u.disk, uint64_t(u.drive_lbn)), uint32_t(unit),
                                    member[size_t(m)].data()));
    }
    for (uint64_t r = 0; r < unit; ++r) {
        std::vector<uint64_t> row;
        for (int j = 0; j < n; ++j) row.push_back(member[size_t(j)][r]);
        bool off = false;
        for (int k = 0; k < checks; ++k) off = off || pq::check_of(k, row) != member[size_t(n + k)][r];
        if (off) ++bad;
    }
    return bad;
}

}  // namespace component_test
