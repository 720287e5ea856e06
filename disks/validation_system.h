// A DiskSim 4.0 system configuration (.parv) as a drive validation uses it: the drive, and the
// host side that DiskSim puts between its trace and the drive (iodriver, buses, controller). A
// validation run takes the host bus's per-sector transfer times from here, as DiskSim does,
// instead of estimating them from the trace. Plain C++.
//
// What is read (DiskSim manual 3.4.1-3.4.4, and src/modules/{bus,ctlr,iodriver}.modspec for the
// ranges DiskSim accepts): the `topology` names the path driver -> bus -> controller -> bus -> disk;
// `instantiate` maps each instance to its block. Every value DiskSim accepts is either used or
// refused with file:line and the reason (the host side features raidtlm's validation does not
// model: the controller's own message delays, a smart controller, a constant access time).
#pragma once

#include <string>
#include <vector>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

struct validation_bus {
    std::string instance;       // "bus1"
    std::string block;          // "BUS1"
    double arbitration_ms = 0;  // "Arbitration time"
    double read_sector_ms = 0;  // "Read block transfer time"
    double write_sector_ms = 0; // "Write block transfer time"
    source_location where;
};

struct validation_system {
    std::string file;
    std::string disk_instance;  // "disk0"
    disk_spec disk;             // loaded from the disksim_disk block the instance names
    std::vector<validation_bus> buses;  // from the driver down to the drive
    double controller_sector_ms = 0;    // the controllers' "Bulk sector transfer time" (largest)
    // Time per 512-byte sector of the path between host and drive, by direction: the slowest
    // bus or controller on it (the drive's own "Bulk sector transfer time" is applied by the
    // drive on top, as DiskSim's disk_get_blktranstime does).
    double read_sector_ms = 0;
    double write_sector_ms = 0;
    // Arbitration time of every bus on the path, summed: paid for the command and each reselect.
    double arbitration_ms = 0;
};

// Loads `path` (a .parv that `source`s the drive's .diskspecs). `disk_instance` chooses a drive
// when the topology holds several. Throws spec_error ("FILE:LINE: ...; expected ...").
validation_system load_validation_system(const std::string &path, const std::string &disk_instance = "");

// Whether `path` looks like a system configuration (it holds a `topology`) rather than a drive
// spec; a file that cannot be parsed counts as not (the drive spec loader then reports why).
bool is_system_configuration(const std::string &path);

}  // namespace raidtlm::disks
