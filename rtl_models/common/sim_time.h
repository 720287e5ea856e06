// Simulated time as the blocks compute with it: seconds in a double.
#pragma once

#include <algorithm>

#include <systemc>

namespace raidtlm::rtl_models {

inline double now_s() { return sc_core::sc_time_stamp().to_seconds(); }
// A span of `d` seconds (negative counts as zero).
inline sc_core::sc_time span_s(double d) { return sc_core::sc_time(std::max(0.0, d), sc_core::SC_SEC); }
// `busy_s` as a fraction of the time since `since_s`.
inline double fraction_since(double busy_s, double since_s) {
    const double window = now_s() - since_s;
    return window > 0 ? busy_s / window : 0.0;
}

}  // namespace raidtlm::rtl_models
