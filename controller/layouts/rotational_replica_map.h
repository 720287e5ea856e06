// Where one disk of an SR-Array keeps its data: Dr rotational replicas of every sector, on
// different tracks of one cylinder, 1/Dr of a revolution apart, over the outer cylinders only.
//
// The firmware works from its copy of the drive's geometry (disks::disk_layout) and addresses
// the drive by LBN: it chooses each replica's physical slot by angle, then names that slot by
// the LBN the drive stores there. The placement:
//
// - Used cylinders: the defect-free cylinders among the outer `cylinder_limit` (every track
//   holds sectors_per_track consecutive LBNs, none slipped, spared or remapped, all exported).
//   Cylinders with a defect are skipped, so a replica never straddles a hole.
// - Per-disk data sectors ("dbn") fill used cylinders in order; a cylinder holds
//   G = surfaces / Dr logical tracks of sectors_per_track sectors (surfaces % Dr tracks idle).
// - Logical track g of a cylinder, replica r, lies on the cylinder's (r*G + g)-th track in the
//   drive's own track order (so with Dr = 1 the data is exactly the drive's LBN order).
// - Angles: logical sector s of logical track g, replica r, starts at
//     anchor(cylinder) + g*track_skew + s/sectors_per_track + r/Dr + extra_turn  (revolutions)
//   rounded to the nearest slot of its track. The skew is re-arranged for logical tracks: one
//   track skew between logical tracks g and g+1 and one cylinder skew between the last logical
//   track of a cylinder and the first of the next, as the drive's own skews are for its LBN
//   order — so a sequential run through one replica loses no revolution at track or cylinder
//   crossings. The anchor is the drive's angle of the cylinder's first track where the previous
//   used cylinder is not adjacent or in another zone (a seek happens there anyway).
// - extra_turn turns all replicas further (mirror copies on spindle-synchronized disks take
//   m/(Dr*Dm) so the Dr*Dm copies are evenly spread).
//
// Because replicas are turned against the drive's own numbering, a run of logical sectors may
// pass a track's slot 0: that is two extents, the second `wraps_from_previous` (layout.h).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/layouts/layout.h"
#include "disks/disk_layout.h"
#include "disks/disk_spec.h"

namespace raidtlm::controller {

class rotational_replica_map {
public:
    // Throws layout_error when Dr exceeds the surfaces or no defect-free cylinder is left.
    rotational_replica_map(const disks::disk_spec &spec, int replicas, int cylinder_limit);

    int replicas() const { return m_replicas; }
    int tracks_per_replica() const { return m_tracks_per_replica; }  // G
    int64_t data_sectors() const { return m_data_sectors; }
    int cylinder_limit() const { return m_cylinder_limit; }
    int used_cylinders() const { return int(m_cylinders.size()); }
    const disks::disk_layout &drive_layout() const { return m_layout; }

    // Appends the extents of data sectors [dbn, dbn + n) in replica r (0 .. Dr-1).
    void extents(int64_t dbn, int32_t n, int r, double extra_turn, std::vector<disk_extent> &out) const;
    // Where data sector dbn of replica r lies.
    disks::physical_address locate(int64_t dbn, int r, double extra_turn) const;

private:
    struct used_cylinder {
        int cyl = 0;
        int spt = 0;
        int64_t first_dbn = 0;
        double anchor_turn = 0;      // angle of logical track 0, sector 0, replica 0
        double track_skew_turn = 0;  // per logical track switch
    };
    struct position {
        size_t k;  // index into m_cylinders
        int track;  // the drive's track index within the cylinder (r*G + g)
        int head;
        int slot;
        int slots_left;  // on this logical track from this sector
    };
    position find(int64_t dbn, int r, double extra_turn) const;

    disks::disk_layout m_layout;
    int m_replicas;
    int m_surfaces;
    int m_tracks_per_replica;
    int m_cylinder_limit;
    int64_t m_data_sectors = 0;
    std::vector<used_cylinder> m_cylinders;
    std::vector<int64_t> m_track_first_lbn;  // [k * surfaces + drive track index]
    std::vector<int> m_track_head;           // [k * surfaces + drive track index]
};

}  // namespace raidtlm::controller
