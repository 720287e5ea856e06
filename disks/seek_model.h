// Seek time as a function of distance, for every seek curve a DiskSim spec can name plus the two
// closed forms the source papers use. Pure function of the spec; no state.
#pragma once

#include "disks/disk_spec.h"

namespace raidtlm::disks {

class seek_model {
public:
    explicit seek_model(const seek_spec &spec);
    // Time to move the arm distance_cyl cylinders (0 for 0), in ms, for a read; write settle and
    // head switch are the mechanism's business (mechanics.h).
    double seek_ms(int distance_cyl) const;

private:
    double extracted_ms(int d) const;
    double hpl_ms(int d) const;
    seek_spec m_spec;
    // Lee's equation coefficients ("curve"), derived once.
    double m_lee_a = 0, m_lee_b = 0, m_lee_c = 0;
};

}  // namespace raidtlm::disks
