// A drive `speed` times as fast as `spec` (speed 2/3: Lumb's slow replica of Table 6.5, "two-thirds
// the speed" of the fast one): every mechanical time divided by speed (the seek curve, head switch,
// write settle) and the spindle turning at speed times the rpm (so rotational latency and media
// transfer take 1/speed as long). The command overheads and the interface are the drive
// electronics', not its mechanism's, and stay. Plain C++.
#pragma once

#include "disks/disk_spec.h"

namespace raidtlm::testbench {

// speed in (0, 1]; 1 returns the spec unchanged.
disks::disk_spec slowed_disk_spec(const disks::disk_spec &spec, double speed);

}  // namespace raidtlm::testbench
