// Logical-to-physical mapping of a zoned disk (DiskSim's dm_layout_g1): zones, track and cylinder
// skew, spare space under the sparing schemes, slipped and remapped defects.
//
// Vocabulary. A zone's tracks are numbered in mapping order (track index t). Each track has
// sectors_per_track "slots" numbered in logical order from the track's first logical sector
// (diskmodel's "0l" numbering); a zone-relative slot number is t * spt + slot. Slots that hold no
// LBN (management area, spares, slips) are "holes". The physical angle of a slot accounts for the
// zone offset and the skews accumulated over the track and cylinder crossings before its track.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

struct physical_address {
    int cyl = 0;
    int head = 0;
    int slot = 0;  // logical (0l) sector index on the track
    bool operator==(const physical_address &o) const { return cyl == o.cyl && head == o.head && slot == o.slot; }
};

// A piece of a request that lies on one track in consecutive slots: the media passes over
// `slots` sectors (holes included) to move `lbns` logical blocks.
struct track_run {
    int cyl = 0;
    int head = 0;
    int first_slot = 0;
    int slots = 0;
    int64_t first_lbn = 0;
    int lbns = 0;
};

// DiskSim only warns when a spec's Block count differs from what its zones map; a drive exports
// Block count blocks, so a count beyond the mapped ones is lowered to them. Returns the lowered
// count's message (empty when nothing changed) for the caller to show as a warning.
std::string fit_block_count(disk_spec &spec);

class disk_layout {
public:
    explicit disk_layout(const disk_spec &spec);

    int64_t lbn_count() const { return m_lbn_count; }
    int surfaces() const { return m_surfaces; }
    int cylinders() const { return m_cylinders; }

    physical_address to_physical(int64_t lbn) const;
    // The LBN stored at a physical address, or nothing for holes and unmapped cylinders.
    std::optional<int64_t> to_lbn(const physical_address &p) const;

    // Sectors per track of the zone holding the cylinder (nearest lower zone for a gap).
    int sectors_per_track(int cyl) const;
    // Where slot `slot` of track (cyl, head) starts, as a fraction of a revolution in [0, 1).
    double slot_angle(int cyl, int head, double slot) const;
    // Splits [lbn, lbn + count) into per-track runs, in LBN order (appends to `out`).
    void runs(int64_t lbn, int64_t count, std::vector<track_run> &out) const;
    // First LBN past the end of the track / cylinder holding `lbn`.
    int64_t track_end_lbn(int64_t lbn) const;
    // First LBN of the track holding `lbn`.
    int64_t track_start_lbn(int64_t lbn) const;
    // The zone's "Blocks per track" where `lbn` lies (DiskSim's dm_get_sectors_lbn).
    int blocks_per_track_at(int64_t lbn) const;
    int64_t cylinder_end_lbn(int64_t lbn) const;
    // Number of logical blocks on track (cyl, head), or 0.
    int lbns_on_track(int cyl, int head) const;

private:
    struct hole {
        int64_t start;            // zone-relative slot
        int64_t length;
        int64_t mapped_before;    // LBN slots before `start` (start minus earlier hole lengths)
    };
    struct zone {
        zone_spec spec;
        int spt = 0;
        int cyls = 0;
        int64_t tracks = 0;
        int64_t slots = 0;
        int64_t first_lbn = 0;
        int64_t lbn_count = 0;
        std::vector<hole> holes;
        std::vector<int64_t> hole_prefix;  // total hole length of holes[0..i)
        std::unordered_map<int64_t, int64_t> remap;    // defective slot -> replacement slot
        std::unordered_map<int64_t, int64_t> unremap;  // replacement slot -> defective slot
        std::vector<int64_t> remapped_slots;           // remap's keys, sorted
    };

    void build_zone(zone &z, const disk_spec &spec, bool last_zone);
    const zone &zone_of_lbn(int64_t lbn) const;
    const zone *zone_of_cyl(int cyl) const;
    int64_t slot_of(const zone &z, int64_t zone_lbn) const;          // LBN -> zone slot
    std::optional<int64_t> lbn_of(const zone &z, int64_t slot) const; // zone slot -> zone LBN
    int64_t mapped_slot(const zone &z, int64_t zone_lbn) const;       // LBN -> zone slot, before remapping
    int64_t holes_before(const zone &z, int64_t slot) const;          // hole slots in [0, slot)
    int64_t lbns_before(const zone &z, int64_t slot) const;           // LBN slots in [0, slot)
    // One past the last zone LBN (below limit) of the track run that starts with zone_lbn in slot;
    // last_slot gets the run's last slot.
    int64_t run_end(const zone &z, int64_t zone_lbn, int64_t slot, int64_t limit, int64_t &last_slot) const;
    void track_of(const zone &z, int64_t t, int &cyl, int &head) const;
    int64_t track_index(const zone &z, int cyl, int head) const;

    int m_surfaces = 0;
    int m_cylinders = 0;
    lbn_mapping m_mapping = lbn_mapping::conventional;
    std::vector<zone> m_zones;
    std::vector<int> m_zone_by_cyl;  // zone index per cylinder, -1 in gaps
    int64_t m_lbn_count = 0;
};

}  // namespace raidtlm::disks
