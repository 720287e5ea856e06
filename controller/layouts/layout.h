// The firmware's address map: how a logical block range of the array lies on its disks. Every
// layout (RAID 0/1/10, RAID 4/5, SR-Mirror) answers the same question through `layout::map`:
// the logical range cut into chunks, each chunk with every place (replica) that stores it.
// Pure C++; sectors are 512-byte logical blocks.
//
// Addressing the drives. Every place is given as drive LBNs, so a plain SCSI drive addressed by
// LBN can serve it; the physical position of an extent's first sector is
// disks::disk_layout::to_physical(drive_lbn) on the firmware's copy of the drive geometry.
// Layouts that place data by rotational angle (SR-Mirror) use only defect-free tracks, where
// slot j of a track holds LBN first_lbn_of_track + j, so an extent never spans a hole. A
// logical run that passes the track's slot 0 is two extents: the second is marked
// `wraps_from_previous` — rotationally contiguous with the first (the head passes from the last
// slot to slot 0 with no gap) but not LBN-contiguous. A drive command that takes both extents at
// once serves them in one pass; two separate LBN commands cost about one revolution more.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace raidtlm::controller {

// A layout that does not fit the disks it is given, or has an impossible parameter. The message
// says why ("SR-Mirror 2×3×2 needs Ds×Dr×Dm = 12 disks; the array has 6").
class layout_error : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Consecutive drive LBNs on one disk (the disk is the replica's).
struct disk_extent {
    int64_t drive_lbn = 0;
    int32_t sectors = 0;
    // Continues the previous extent of the same replica on the same track past slot 0.
    bool wraps_from_previous = false;
};

// One place that holds all of a chunk: on one disk, as one or more extents in logical order.
struct replica {
    int disk = 0;
    int copy = 0;  // the layout's copy index, 0 .. layout::copies() - 1
    std::vector<disk_extent> extents;
    int32_t sectors() const {
        int32_t n = 0;
        for (const auto &e : extents) n += e.sectors;
        return n;
    }
};

// A piece of a logical request inside one stripe unit, with every replica that stores it. A read
// needs any one replica; a write updates every replica (parity layouts add parity: see
// parity_write_plan.h).
struct chunk {
    int64_t lbn = 0;  // logical
    int32_t sectors = 0;
    std::vector<replica> replicas;
};

class layout {
public:
    virtual ~layout() = default;
    // Human-readable summary, e.g. "RAID 5 left-symmetric, 5 disks, 128-sector stripe unit".
    virtual std::string describe() const = 0;
    virtual int disks() const = 0;
    virtual int64_t capacity_sectors() const = 0;
    // How many places store each logical sector (1 for RAID 0, 4 and 5).
    virtual int copies() const = 0;
    // Clears `out` and fills it with the chunks of logical [lbn, lbn + sectors) in logical
    // order. Throws std::out_of_range when the range leaves the array.
    virtual void map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const = 0;
    // Throws std::out_of_range unless [lbn, lbn + sectors) lies within the array.
    void check_range(int64_t lbn, int32_t sectors) const;
};

// Calls piece(unit, offset_in_unit, lbn, count) for each stripe-unit-sized piece of
// [lbn, lbn + sectors) in order.
template <class F>
void for_each_unit_piece(int64_t lbn, int32_t sectors, int64_t unit_sectors, F &&piece) {
    int64_t at = lbn;
    const int64_t end = lbn + sectors;
    while (at < end) {
        const int64_t unit = at / unit_sectors;
        const int64_t offset = at % unit_sectors;
        const int32_t n = int32_t(std::min<int64_t>(end - at, unit_sectors - offset));
        piece(unit, offset, at, n);
        at += n;
    }
}

}  // namespace raidtlm::controller
