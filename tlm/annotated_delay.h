// Loosely-timed targets in raidtlm charge an annotated delay with wait() on entry, so what they do
// (and trace) happens at the true time.
#pragma once

#include <systemc>

namespace raidtlm::protocol {

// Waits out `delay` (from an SC_THREAD) and zeroes it.
inline void wait_annotated(sc_core::sc_time &delay) {
    if (delay > sc_core::SC_ZERO_TIME) {
        sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
    }
}

}  // namespace raidtlm::protocol
