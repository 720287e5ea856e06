// Builds a disk_spec from DiskSim 4.0 files: a `disksim_disk` block (DiskSim manual 3.4.5), its
// `Scheduler` ioqueue (3.4.7) and its `Model`, a diskmodel `dm_disk` with a `dm_layout_g1` and a
// `dm_mech_g1` (diskmodel manual 1.4), plus the extracted seek curve file that names.
//
// Every parameter name DiskSim defines for these blocks is recognised; an unknown name (a typo)
// is an error, so is a missing required one. Values the raidtlm drive cannot represent at all are
// refused here (see the .cpp); values it can represent but may not model (e.g. "Preseeking level"
// 2) are loaded, and disk_spec::origin lets the drive name the file and line when it refuses them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "disks/disk_spec.h"
#include "disks/diskspec_parser.h"

namespace raidtlm::disks {

// Loads the disksim_disk block named `disk_name` from `path` (which may `source` other files);
// with an empty name, the file must hold exactly one disksim_disk block. Throws spec_error.
disk_spec load_diskspec(const std::string &path, const std::string &disk_name = "");

// Reads an extracted seek curve ("Full seek curve" file): a header line
// `Seek distances measured: N`, then N lines `distance, time_ms` with ascending distances.
// `named_at` is where the file was named, for the error if it cannot be read. Throws spec_error.
std::vector<std::pair<int, double>> load_seek_curve(const std::string &path,
                                                    const source_location &named_at);

// The key under which disk_spec::origin records a parameter of the zone at `zone_index` (0-based,
// file order): zone_param_key(2, "Blocks per track") == "Zones[2].Blocks per track".
std::string zone_param_key(std::size_t zone_index, const std::string &param);

}  // namespace raidtlm::disks
