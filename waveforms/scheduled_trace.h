// Traced values that change at a known time, possibly ahead of simulated time: a model that
// computes a task's start when the task arrives (a core is busy until then), a bus phase that
// follows the arbitration by a fixed delay, or a drive's whole access, schedules the change here
// instead of waiting for it.
//
// With raidtlm's own trace file (waveforms::vcd_file) the changes go to the file with their
// times and it writes them once simulated time has passed them: no kernel event, no time step
// of its own, nothing at all outside the waves' window. With any other sc_trace_file (SystemC's
// own, in tests) one SC_METHOD applies them to the variables at their times, in time order
// (changes for one instant in the order they were scheduled), and the file samples them.
#pragma once

#include <memory>

#include <systemc>

namespace raidtlm::waveforms {

class vcd_file;

class scheduled_trace {
public:
    // `tf`: the file the variables are traced in; create during elaboration.
    explicit scheduled_trace(sc_core::sc_trace_file *tf);
    ~scheduled_trace();
    scheduled_trace(const scheduled_trace &) = delete;
    scheduled_trace &operator=(const scheduled_trace &) = delete;

    // Sets `var` (traced in the file) to `value` at absolute time `at_s` seconds (now or later;
    // earlier means now).
    void set_at(int &var, int value, double at_s);
    // Adds `delta` to `var` at `at_s`.
    void add_at(int &var, int delta, double at_s);
    void set_at(int &var, int value, const sc_core::sc_time &at) { set_at(var, value, at.to_seconds()); }
    void add_at(int &var, int delta, const sc_core::sc_time &at) { add_at(var, delta, at.to_seconds()); }

    // `var` holding `value` shows as undriven (z) in raidtlm's own file (vcd_file::show_undriven).
    void show_undriven(const int &var, int value);

private:
    class event_applier;
    vcd_file *m_file;                          // raidtlm's own file, or nullptr
    std::unique_ptr<event_applier> m_applier;  // for any other file
};

}  // namespace raidtlm::waveforms
