// What the firmware knows, from datasheets, about the time between a drive's media and its own
// channel: once a command's last sector has passed under the head, how long until the channel
// sees the status. It is the sum of fixed costs from two documents the firmware has:
//   - the drive's spec (DiskSim overheads: reselection, data preparation, completion, disconnect;
//     its interface's own transfer rate), each multiplied by the spec's time scale;
//   - the channel's own bus configuration (SCSI phase costs and transfer rate).
// Assumptions (each one a place where the real drive may differ from this sum):
//   - the bus is free when the drive reconnects (contention only ever adds delay);
//   - a read had disconnected before its data were ready (the sector arrives after the drive's
//     command overhead and read disconnect), then reconnects the spec's first-reselect time after
//     the sector is in its buffer, unless the drive never disconnects;
//   - the bus moves a sector at the slower of its own and the drive's interface rate;
//   - a write-through write reconnects for status after its last sector is on the media.
// Used for turning a reference read's completion time into the time its sector passed under the
// head, and for predicting when an ordinary command's status will arrive.
#pragma once

#include "disks/disk_spec.h"
#include "rtl_models/buses/scsi_bus_timing.h"

namespace raidtlm::controller {

class drive_latency {
public:
    drive_latency(const disks::disk_spec &spec, const rtl_models::scsi_bus_config &bus);
    // A free bus that moves data in no time (a drive wired straight to the channel).
    explicit drive_latency(const disks::disk_spec &spec);

    // The last sector of a read passed under the head: until the channel has the status.
    double read_after_media_ms(int sectors) const;
    // The last sector of a write-through write reached the media: until the channel has the status.
    double write_after_media_ms() const;
    // A read that reached the drive at arrive_ms cannot reconnect before it has disconnected
    // (command overhead, then the read disconnect, the longer of the spec's two): a sector that
    // passed earlier tells nothing about the spindle (the completion is set by the disconnect).
    double read_reconnect_floor_ms(double arrive_ms, double command_overhead_ms) const;

private:
    double scaled(double ms) const { return ms * m_overheads.time_scale; }

    disks::overhead_spec m_overheads;
    bool m_never_disconnect;
    double m_sector_bus_ms;
    double m_reselect_ms;  // arbitration, reselection and IDENTIFY on the bus
    double m_status_ms;    // STATUS + COMMAND COMPLETE
};

}  // namespace raidtlm::controller
