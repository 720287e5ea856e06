// The disk operations of a write to a parity layout (RAID 4/5, AdaptRaid5: parity_stripe_layout.h),
// stripe by stripe. Three write paths:
//
//   full_stripe        every data unit of the stripe is written: write data and parity, no reads
//   reconstruct_write  read the stripe's data the write does not replace (over the rows it
//                      touches), then write the new data and the parity of the whole row
//   read_modify_write  read the old data being replaced and the old parity, then write the new
//                      data and parity = old parity ^ old data ^ new data
//
// Read-modify-write is issued either as separate read and write commands or, per disk, as one
// read-rotate-write command (read the sectors, wait for them to come round again, write them
// back: the parity-logging paper's "two read-rotate-write accesses"). The parity disk's write
// phase needs the old data of every data disk of the stripe (and the new data); the integrator
// sequences that dependency.
//
// RAID 6 (layout.has_q()): every path also writes the Q unit (and with three checks the R unit)
// over the same rows as P, and read-modify-write reads (or read-rotate-writes) the old Q (and R)
// beside the old P; the ops list data, then P, Q, R.
//
// Which path: full_stripe whenever the whole stripe is written; otherwise reconstruct_write when
// the write touches at least `reconstruct_write_fraction` of the stripe's data units, else
// read_modify_write. 0.5 picks the path with fewer reads (ties to reconstruct-write); a value
// above 1 never reconstructs, 0 always does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "controller/layouts/parity_stripe_layout.h"

namespace raidtlm::controller {

enum class write_path { full_stripe, reconstruct_write, read_modify_write };
std::string to_string(write_path p);

enum class disk_op_kind { read, write, read_rotate_write };

struct disk_op {
    disk_op_kind kind = disk_op_kind::read;
    int disk = 0;
    int64_t drive_lbn = 0;
    int32_t sectors = 0;
    bool parity = false;  // the stripe's parity unit (P) rather than data
    bool q = false;       // RAID 6: the stripe's Q unit (parity stays false)
    bool r = false;       // three checks: the stripe's R unit (parity and q stay false)
    bool data() const { return !parity && !q && !r; }
    // Which check unit: 0 P, 1 Q, 2 R; -1 data.
    int check() const { return parity ? 0 : q ? 1 : r ? 2 : -1; }
};

struct parity_write_policy {
    double reconstruct_write_fraction = 0.5;
    bool read_rotate_write = true;  // read-modify-write as one read-rotate-write per disk
};

struct stripe_write_plan {
    int64_t stripe = 0;
    int64_t lbn = 0;  // the part of the logical write that falls in this stripe
    int32_t sectors = 0;
    write_path path = write_path::full_stripe;
    // All `read`s complete before any `write` starts; read_rotate_write ops are single commands.
    std::vector<disk_op> ops;
    // The parity op (the write or read-rotate-write of the parity unit).
    const disk_op &parity_write() const;
};

// The reads of logical [lbn, lbn + sectors) with `failed_disk` lost (-1: none), into `out`
// (cleared): data on surviving disks is read directly; data on the lost disk is read from every
// other unit of its stripe at the same offset within the unit (data and parity), and each lost sector is the
// XOR of those tokens (reconstruct_token).
void plan_degraded_read(const parity_stripe_layout &layout, int64_t lbn, int32_t sectors, int failed_disk,
                        std::vector<disk_op> &out);

// Clears `out` and fills it with one plan per stripe the logical write [lbn, lbn + sectors)
// touches, in logical order. Throws std::out_of_range beyond the array.
void plan_parity_write(const parity_stripe_layout &layout, int64_t lbn, int32_t sectors, const parity_write_policy &policy,
                       std::vector<stripe_write_plan> &out);

}  // namespace raidtlm::controller
