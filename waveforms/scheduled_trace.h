// Traced values that change at a known time, possibly ahead of simulated time: a model that
// computes a task's start when the task arrives (a core is busy until then), or a bus phase that
// follows the arbitration by a fixed delay, schedules the change here instead of waiting for it.
// One SC_METHOD applies the changes in time order (changes for one instant in the order they were
// scheduled), so the VCD shows them at their true times and the model spends no thread switches.
#pragma once

#include <cstdint>

#include <systemc>

#include "waveforms/timed_changes.h"

namespace raidtlm::waveforms {

class scheduled_trace : public sc_core::sc_module {
public:
    explicit scheduled_trace(sc_core::sc_module_name name);

    // Sets `var` to `value` at absolute time `at` (now or later; earlier means now).
    void set_at(int &var, int value, const sc_core::sc_time &at);
    // Adds `delta` to `var` at `at`.
    void add_at(int &var, int delta, const sc_core::sc_time &at);
    size_t pending() const { return m_changes.size(); }

private:
    struct change {
        int *var;
        int value;
        bool relative;
    };
    SC_HAS_PROCESS(scheduled_trace);
    void push(const sc_core::sc_time &at, const change &c);
    void apply();

    timed_changes<sc_core::sc_time, change> m_changes;
    sc_core::sc_event m_due;
};

}  // namespace raidtlm::waveforms
