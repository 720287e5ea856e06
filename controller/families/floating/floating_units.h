// Floating units (Menon and Kasson; the parity logging paper's Section 4): the part of floating
// data and check that does not depend on how many checks a stripe has, shared by floating over
// RAID 5 (floating_firmware, one check P) and over RAID 6 (floating_raid6_firmware, P and Q).
//
// It owns one floating_map per disk on the firmware's copy of the drives' geometry, sends every
// drive command of the array's map to where its unit is now (firmware_kit::translate_lbn, the
// slot held while the command is in flight), and does one unit's relocating read-rotate-write:
// the old unit read and the command's write sent to the free slot of the same cylinder that the
// head reaches first (scsi_command::relocate_lbn), then, once the stripe's new contents are on the
// disks, the tables updated (a CPU table update and a request-table write per moved unit) and the
// move counted. What goes into the commands and how the new checks are computed is the
// firmware's (floating_firmware.cpp, floating_raid6_firmware.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "controller/kit/firmware_kit.h"
#include "controller/families/floating/floating_map.h"
#include "disks/disk_layout.h"

namespace raidtlm::controller {

struct floating_statistics {
    // Units moved to a free slot, the rotational wait to it (revolutions, summed), moves that
    // needed a head switch, units rewritten in place (cylinder full), the mapping tables' bits.
    uint64_t moves = 0;
    double wait_revolutions = 0;
    uint64_t head_switches = 0;
    uint64_t in_place = 0;
    uint64_t table_bits = 0;
};

class floating_units {
public:
    // One map per disk (all drives of one model, with geometry: a fatal SystemC error otherwise);
    // installs the kit's translate_lbn and translation_done.
    floating_units(firmware_platform &platform, firmware_kit &kit);
    ~floating_units();

    int unit_sectors() const { return m_unit_sectors; }
    // A logical drive LBN of `disk` (the array layout's) -> where it is now. A command must stay
    // within one stripe unit (fatal otherwise).
    uint64_t drive_lbn(int disk, uint64_t lbn, uint32_t sectors) const;

    using move = floating_map::move;
    // A free slot reserved for the unit holding logical drive LBN `lbn` of `disk`; nothing when
    // its cylinder has none left (the unit is then rewritten where it is).
    std::optional<move> begin_move(int disk, uint64_t lbn);
    // Where the unit's new contents go: the move's slot, or where it is now.
    uint64_t destination(int disk, uint64_t lbn, const std::optional<move> &m) const;
    // The whole unit holding `lbn` as one read-rotate-write: its old tokens to *old_tokens, the
    // write to the move's slot (the `buffer` unit at `standin`: a stand-in, the new contents are
    // installed once computed), or in place without one: then the stand-in is the unit's own
    // contents, put in `own_slot` (a slot of the op's own, free until the commands are done), so
    // that until the install the drive holds the unit as it was. Before, an in-place command
    // carried the zeros of the shared stand-in: a power loss before the install left them in the
    // unit's only copy, its rows the write never touched included (the explorer's 181:768: a
    // parity unit's untouched row read as zeros, a member lost during the recovery's resync
    // rebuilt from it: wrong data).
    bool read_rotate_write(int disk, uint64_t lbn, const std::optional<move> &m, protocol::buffer_block *buffer,
                           uint64_t standin, uint64_t own_slot, std::vector<uint64_t> *old_tokens);
    // After the stripe's commands. Without a move: counted in place. With one, `ok`: the unit
    // lives in its new slot (the old one free), counted, the tables updated (timed); not `ok`:
    // the reserved slot is given back (the unit still lives where the table says).
    void settle(int disk, const std::optional<move> &m, bool ok, int affinity);

    // After a power loss: no command in flight, moves never finished forgotten.
    void restart_after_power_loss();
    void reset_statistics();
    // stats.json controller.firmware.floating.
    void report(nlohmann::json &out) const;
    const floating_statistics &statistics() const { return m_stats; }

private:
    firmware_platform &m_platform;
    firmware_kit &m_kit;
    int m_unit_sectors = 0;
    std::unique_ptr<disks::disk_layout> m_geometry;     // the firmware's copy (all disks alike)
    std::vector<std::unique_ptr<floating_map>> m_maps;  // one per disk
    floating_statistics m_stats;
};

// Sectors per disk that the layout under floating may use: one track per cylinder is the free
// space. Reports a fatal SystemC error when the drive does not fit floating_map's needs.
int64_t floating_logical_sectors(const disk_info &disk, int unit_sectors);

}  // namespace raidtlm::controller
