#include "waveforms/scheduled_trace.h"

#include <algorithm>
#include <functional>

namespace raidtlm::waveforms {

scheduled_trace::scheduled_trace(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(apply);
    sensitive << m_due;
    dont_initialize();
}

void scheduled_trace::set_at(int &var, int value, const sc_core::sc_time &at) { push({at, m_seq++, &var, value, false}); }

void scheduled_trace::add_at(int &var, int delta, const sc_core::sc_time &at) { push({at, m_seq++, &var, delta, true}); }

void scheduled_trace::push(const change &c) {
    m_heap.push_back(c);
    std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time first = m_heap.front().at;
    // An earlier pending notification wins, so the method runs at the first change due.
    m_due.notify(first > now ? first - now : sc_core::SC_ZERO_TIME);
}

void scheduled_trace::apply() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!m_heap.empty() && m_heap.front().at <= now) {
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
        const change c = m_heap.back();
        m_heap.pop_back();
        *c.var = c.relative ? *c.var + c.value : c.value;
    }
    if (!m_heap.empty()) m_due.notify(m_heap.front().at - now);
}

}  // namespace raidtlm::waveforms
