// A DiskSim 4.0 system configuration (.parv with a `disksim_synthio` workload) as a raidtlm
// scenario, so `raidtlm run FILE.parv` simulates what the file describes. Plain C++.
//
// What is read and how it maps (DiskSim 4.0 manual 3.4 and 4.2; where the manual and
// src/disksim_synthio.c / disksim_pfsim.c differ, the implementation):
//   disks, buses, controllers  the drives the active generators reach, each loaded from its
//                         `disksim_disk` block with the host path between iodriver and drive
//                         (disks/validation_system: the slowest bus or controller per-sector time
//                         becomes the drive's interface time); all must be one drive model
//   logical organisations Parts/Asis/Noredun -> host.layout jbod over the devices addressed;
//                         Array/Striped/Noredun -> host.layout stripe with its "Stripe unit"
//   disksim_syncset       -> disks.spindle_sync when it holds every drive used
//   disksim_pf, synthio   each generator is a process on one of "Number of processors" CPUs; a
//                         process keeps its CPU until it blocks (pfsim dispatches only when one
//                         sleeps), so with more generators than CPUs and generators that never
//                         block only the last ones ever issue requests (pfsim dispatches the
//                         last generator first)
//   synthgen              time-critical 1 -> closed loop (one outstanding request per process,
//                         think time = "General inter-arrival times"); time-critical and
//                         time-limited 0 -> open loop (Poisson, the processes' rates summed);
//                         sizes exponential -> workload.size_distribution exponential rounded to
//                         the "Blocking factor"; addresses uniform over the devices
// Everything else is refused with FILE:LINE and the feature's name (spec_error), e.g. a mix of
// blocking and non-blocking requests, sequential or local access, parity or mirrored
// organisations, the iodriver's own queue, drives of different models.
#pragma once

#include <string>
#include <vector>

namespace raidtlm::testbench {

struct parv_translation {
    std::string yaml;                 // a complete scenario (comments name each value's source)
    std::vector<std::string> notes;   // modelling decisions the user should know about
    bool per_device_equals_logical = true;  // every logical request is one device request
};

// Throws disks::spec_error ("FILE:LINE: ...; expected ...").
parv_translation translate_parv(const std::string &path);

}  // namespace raidtlm::testbench
