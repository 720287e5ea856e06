#include "waveforms/scheduled_trace.h"

namespace raidtlm::waveforms {

scheduled_trace::scheduled_trace(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(apply);
    sensitive << m_due;
    dont_initialize();
}

void scheduled_trace::set_at(int &var, int value, const sc_core::sc_time &at) { push(at, {&var, value, false}); }

void scheduled_trace::add_at(int &var, int delta, const sc_core::sc_time &at) { push(at, {&var, delta, true}); }

void scheduled_trace::push(const sc_core::sc_time &at, const change &c) {
    m_changes.push(at, c);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time first = m_changes.first_due();
    // An earlier pending notification wins, so the method runs at the first change due.
    m_due.notify(first > now ? first - now : sc_core::SC_ZERO_TIME);
}

void scheduled_trace::apply() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    m_changes.apply_due(now, [](const change &c) { *c.var = c.relative ? *c.var + c.value : c.value; });
    if (!m_changes.empty()) m_due.notify(m_changes.first_due() - now);
}

}  // namespace raidtlm::waveforms
