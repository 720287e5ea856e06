// The SR-Mirror family Ds×Dr×Dm (Yu et al., "Trading capacity for performance in a disk
// array"): D = Ds*Dr*Dm identical disks. Logical stripe units go round-robin over Ds*Dr columns;
// each column is Dm disks (column c is disks c*Dm .. c*Dm + Dm - 1), and each of those disks
// keeps Dr rotational replicas of the column's data on the outer 1/Ds of its cylinders
// (rotational_replica_map.h), so a disk holds 1/D of the data, uses 1/Ds of its space and seeks
// like a Ds-way stripe. The logical capacity is about one disk's worth of data.
//
//   D×1×1    striping over the outer 1/D of every disk
//   1×1×D    D-way mirror
//   Ds×Dr×1  SR-Array
//   Ds×1×Dm  striped mirror (RAID 10) on spindle-synchronized disks
//
// Copy index m*Dr + r is replica r on the column's m-th disk; it is turned by r/Dr + m/(Dr*Dm)
// of a revolution, so on spindle-synchronized disks (one phase) all Dr*Dm copies of a sector lie
// at rotationally even positions. On unsynchronized disks the turn of other disks' copies is
// harmless and useless.
#pragma once

#include <string>

#include "controller/layouts/layout.h"
#include "controller/layouts/rotational_replica_map.h"
#include "disks/disk_spec.h"

namespace raidtlm::controller {

struct sr_mirror_shape {
    int ds = 1;  // seek reduction: use the outer 1/Ds of the cylinders
    int dr = 1;  // rotational replicas on one disk
    int dm = 1;  // copies on other disks
    int64_t unit_sectors = 128;  // stripe unit (64 KB)
    int cylinders = 0;  // outer cylinders to use; 0: cylinders / Ds
};

class sr_mirror_layout final : public layout {
public:
    // `spec` is the firmware's copy of the drives' geometry (all disks alike). Throws
    // layout_error when the shape does not fit `disks` such disks.
    sr_mirror_layout(const disks::disk_spec &spec, int disks, const sr_mirror_shape &shape);

    std::string describe() const override;
    int disks() const override { return m_shape.ds * m_shape.dr * m_shape.dm; }
    int64_t capacity_sectors() const override { return m_capacity; }
    int copies() const override { return m_shape.dr * m_shape.dm; }
    void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const override;

    const sr_mirror_shape &shape() const { return m_shape; }
    int columns() const { return m_shape.ds * m_shape.dr; }
    const rotational_replica_map &replica_map() const { return m_map; }
    // Extra turn of the copies on the column's m-th disk, in revolutions.
    double mirror_turn(int m) const { return double(m) / (m_shape.dr * m_shape.dm); }
    // "SR-Array", "striping", "D-way mirror", "striped mirror" or "SR-Mirror".
    std::string kind() const;

private:
    static const sr_mirror_shape &checked(const sr_mirror_shape &shape, int disks, const disks::disk_spec &spec);
    sr_mirror_shape m_shape;
    rotational_replica_map m_map;
    int64_t m_capacity;
};

}  // namespace raidtlm::controller
