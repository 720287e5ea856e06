// What the RAID 5 firmware (raid_firmware, parity_write_plan) needs of a parity layout: the
// array cut into stripes, numbered in logical order, each with its data units and one parity
// unit on distinct disks. RAID 4/5 (parity_layout: every stripe as wide as the array, one row of
// every disk) and AdaptRaid5 (adaptraid5_layout: stripes of different widths whose units lie at
// different drive LBNs) both answer it, so one firmware serves both: small writes
// read-modify-write, whole stripes write without reads, a lost disk's data is rebuilt from the
// rest of its stripe.
//
// Every stripe unit starts at a multiple of unit_sectors() on its disk, so a drive LBN's offset
// within its unit is drive_lbn % unit_sectors() whatever the layout.
//
// RAID 6 (raid6_layout.h) answers it too, with a second check unit Q in every stripe (has_q):
// the write plans then read and write Q beside P, and its firmware (raid6_firmware.h) computes it.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

// A stripe unit on a disk: its first drive LBN.
struct unit_place {
    int disk = 0;
    int64_t drive_lbn = 0;
};

class parity_stripe_layout : public layout {
public:
    virtual int64_t unit_sectors() const = 0;
    // The stripe holding logical sector lbn.
    virtual int64_t stripe_of(int64_t lbn) const = 0;
    // The stripe's first logical sector; a stripe's data are logically contiguous.
    virtual int64_t stripe_first_lbn(int64_t stripe) const = 0;
    // Data units of the stripe (its width less the parity unit).
    virtual int stripe_data_units(int64_t stripe) const = 0;
    // Data unit j (0 .. stripe_data_units - 1) and the parity unit of a stripe.
    virtual unit_place data_unit(int64_t stripe, int j) const = 0;
    virtual unit_place parity_unit(int64_t stripe) const = 0;
    // RAID 6: every stripe also has a Q unit (pq_parity.h). Layouts without one: false, and
    // q_unit throws std::logic_error.
    virtual bool has_q() const { return false; }
    virtual unit_place q_unit(int64_t stripe) const;
    // Check units per stripe: 1 (P), 2 (RAID 6: P and Q), 3 (controller.raid6_checks 3: P, Q, R).
    virtual int check_units() const { return has_q() ? 2 : 1; }
    // Check unit k of a stripe: 0 P (parity_unit), 1 Q (q_unit), 2 R; std::logic_error beyond.
    virtual unit_place check_unit(int64_t stripe, int k) const;

    int64_t stripe_data_sectors_of(int64_t stripe) const { return stripe_data_units(stripe) * unit_sectors(); }
    int64_t offset_in_unit(int64_t drive_lbn) const { return drive_lbn % unit_sectors(); }
    // Which data unit of the stripe a disk holds: -1 the parity (P), -2 none (a narrower
    // stripe), -3 the Q unit (RAID 6), -4 the R unit (three checks): check_on_disk(k).
    static constexpr int q_on_disk = -3;
    static constexpr int check_on_disk(int k) { return k == 0 ? -1 : -2 - k; }
    int unit_on_disk(int64_t stripe, int disk) const;
    // The logical sector at drive_lbn of a disk holding one of the stripe's data units.
    int64_t logical_lbn_on_disk(int64_t stripe, int disk, int64_t drive_lbn) const;
    // Every unit of the stripe, data and checks (P, Q when has_q, R), in disk order (the order a
    // rebuild reads them).
    std::vector<unit_place> units_by_disk(int64_t stripe) const;
};

}  // namespace raidtlm::controller
