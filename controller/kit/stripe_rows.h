// A stripe write plan's geometry in the work buffer (plain C++), shared by the parity firmware's
// write paths (raid_parity_paths.cpp, raid6_writes.cpp).
#pragma once

#include <cstdint>

#include "controller/layouts/parity_stripe_layout.h"
#include "controller/kit/parity_write_plan.h"

namespace raidtlm::controller {

// What the RAID 4/5 and RAID 6 stripe-write paths read off a plan: the parity rows the write
// touches and where a data op's sectors sit in the host's buffer.
struct stripe_rows {
    stripe_rows(const parity_stripe_layout &layout, const stripe_write_plan &p, uint64_t host)
        : l(layout),
          plan(p),
          host_lbn(host),
          lo(layout.offset_in_unit(p.parity_write().drive_lbn)),
          rows(uint64_t(p.parity_write().sectors)) {}
    uint64_t host_offset(const disk_op &op) const {
        return uint64_t(l.logical_lbn_on_disk(plan.stripe, op.disk, op.drive_lbn) - int64_t(host_lbn));
    }
    // Where an op's first sector falls among the parity rows.
    uint64_t row_of(const disk_op &op) const { return uint64_t(l.offset_in_unit(op.drive_lbn) - lo); }
    const parity_stripe_layout &l;
    const stripe_write_plan &plan;
    uint64_t host_lbn;
    int64_t lo;     // first parity row the write touches, within the unit
    uint64_t rows;  // parity rows the write touches
};

}  // namespace raidtlm::controller
