// Floating data and parity (Menon and Kasson, as the parity logging paper models it in Section 4
// and Figure 14): each cylinder of a disk keeps one track's worth of stripe units free; a small
// write reads the old unit and, in the same disk access, writes the new one to the free slot of the
// same cylinder that the head reaches first after the read (a head switch away if on another
// track), then frees the old slot. The firmware keeps, per cylinder, an allocation bitmask (D*T
// bits) and the current slot of every logical unit (D*(T-1) entries of ceil(log2(D*T)) bits):
// the tables whose size the paper gives (1,343,784 bits per IBM 0661).
//
// One floating_map per disk, on the firmware's copy of the drive geometry. A logical unit u of the
// disk (the RAID 5 layout's drive LBN / unit) lives in cylinder u / (D*(T-1)); its slot is an index
// track * D + position into the cylinder. Pure logic: no SystemC.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <optional>
#include <vector>

#include "disks/disk_layout.h"

namespace raidtlm::controller {

class floating_map {
public:
    // Every track must hold whole units (sectors per track a multiple of unit_sectors) with no
    // holes; throws layout_error naming what does not fit. head_switch_ms / period_ms is how far
    // the platter turns during a head switch.
    // `usable_sectors` >= 0: only whole cylinders below that drive LBN are used (the rest of the
    // drive holds the member's superblock: member_superblock.h).
    floating_map(const disks::disk_layout &geometry, int unit_sectors, double head_switch_ms, double period_ms,
                 int64_t usable_sectors = -1);

    int units_per_track() const { return m_units_per_track; }
    int tracks_per_cylinder() const { return m_tracks; }
    int64_t logical_units() const { return int64_t(m_cylinders) * m_units_per_cylinder; }
    int64_t logical_sectors() const { return logical_units() * m_unit_sectors; }

    // Drive LBN of the first sector of the unit's current slot.
    int64_t drive_lbn(int64_t logical_unit) const;

    struct move {
        int64_t logical_unit = 0;
        int old_slot = 0;
        int new_slot = 0;
        int64_t new_drive_lbn = 0;
        double wait_revolutions = 0;  // from the end of the old unit's read to the new slot
        bool head_switch = false;
    };
    // Picks the free slot of the unit's cylinder reached first after reading the unit where it
    // is now, and reserves it (concurrent moves in a cylinder never pick the same slot). Nothing
    // when the cylinder has no free slot left (all reserved by moves in flight). A held slot
    // (below) is never picked, free or not.
    std::optional<move> begin_move(int64_t logical_unit);

    // A drive command translated to the slot holding drive LBN `drive_lbn` is in flight: the
    // slot must not be refilled under it (a read of a unit that has moved away meanwhile would
    // return the next unit's data). Counted; release once per hold.
    void hold(int64_t drive_lbn);
    void release(int64_t drive_lbn);
    int holds(int64_t drive_lbn) const;
    void clear_holds() { m_holds.clear(); }  // after a power loss: no command is in flight
    // After a power loss: moves begun and never finished give their reserved slots back (the
    // units still live where the table says).
    void forget_moves_in_flight();
    // The new copy is on the disk: the unit now lives there, its old slot is free.
    void finish_move(const move &m);
    // The move's command or its stripe's failed: the reserved slot is free again (whatever the
    // command left there is no unit's).
    void cancel_move(const move &m);

    int free_slots(int cyl) const;
    // Table sizes (Section 4): bitmask D*T bits and D*(T-1) * ceil(log2(D*T)) bits per cylinder.
    int64_t bitmask_bits() const;
    int64_t location_table_bits() const;

private:
    int slot_of(int64_t logical_unit) const;
    double slot_start(int cyl, int slot) const;  // fraction of a revolution
    const disks::disk_layout &m_geometry;
    int m_unit_sectors;
    int m_units_per_track = 0;
    int m_tracks = 0;
    int m_cylinders = 0;
    int m_units_per_cylinder = 0;  // logical units per cylinder: D * (T - 1)
    double m_head_switch_revolutions;
    std::vector<uint16_t> m_location;          // logical unit -> slot in its cylinder
    std::vector<std::vector<bool>> m_used;     // per cylinder, per slot
    std::map<std::pair<int, int>, int> m_holds;  // (cylinder, slot) -> commands in flight on it
    std::pair<int, int> slot_at(int64_t drive_lbn) const;
};

}  // namespace raidtlm::controller
