// How fast a rebuild goes against foreground I/O (plain C++): after each rebuild step the
// rebuild sleeps so that it keeps (a) no more than `share` of the time busy, the way hardware
// controllers state a rebuild rate as a percentage (LSI/Broadcom MegaRAID "Rebuild Rate",
// default 30%: MegaRAID SAS Software User Guide, Controller Properties), and (b) no more than
// `rate_mb_s` of reconstructed data per second, the way Linux md caps it
// (/proc/sys/dev/raid/speed_limit_max; Documentation/admin-guide/md.rst). share 1 and rate 0:
// flat out. `units_in_flight` rebuild steps may run at once (md keeps a window of resync
// requests outstanding, controllers several rebuild I/Os); each is paced on its own. Default 1:
// one step at a time.
#pragma once

#include <cstdint>

namespace raidtlm::controller {

struct rebuild_pacing {
    double share = 0.3;     // of the rebuild's own time spent on steps (0 < share <= 1)
    double rate_mb_s = 0;   // MB (10^6 bytes) of the member rebuilt per second at most; 0: no cap
    int units_in_flight = 1;  // rebuild steps under way at once (>= 1)

    // The pause after a step that was busy for `busy_ms` and rebuilt `bytes`.
    double idle_after_ms(double busy_ms, uint64_t bytes) const;
};

}  // namespace raidtlm::controller
