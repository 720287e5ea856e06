#include "waveforms/scheduled_trace.h"

#include "waveforms/timed_changes.h"
#include "waveforms/vcd_file.h"

namespace raidtlm::waveforms {

// For a trace file that only samples: the changes applied at their times by a kernel event.
class scheduled_trace::event_applier : public sc_core::sc_module {
public:
    explicit event_applier(sc_core::sc_module_name name) : sc_module(name) {
        SC_METHOD(apply);
        sensitive << m_due;
        dont_initialize();
    }
    void push(const sc_core::sc_time &at, int *var, int value, bool relative) {
        m_changes.push(at, {var, value, relative});
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        const sc_core::sc_time first = m_changes.first_due();
        // An earlier pending notification wins, so the method runs at the first change due.
        m_due.notify(first > now ? first - now : sc_core::SC_ZERO_TIME);
    }

private:
    struct change {
        int *var;
        int value;
        bool relative;
    };
    SC_HAS_PROCESS(event_applier);
    void apply() {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        m_changes.apply_due(now, [](const change &c) { *c.var = c.relative ? *c.var + c.value : c.value; });
        if (!m_changes.empty()) m_due.notify(m_changes.first_due() - now);
    }
    timed_changes<sc_core::sc_time, change> m_changes;
    sc_core::sc_event m_due;
};

scheduled_trace::scheduled_trace(sc_core::sc_trace_file *tf) : m_file(dynamic_cast<vcd_file *>(tf)) {
    if (!m_file) m_applier = std::make_unique<event_applier>(sc_core::sc_gen_unique_name("scheduled_trace"));
}

scheduled_trace::~scheduled_trace() = default;

void scheduled_trace::show_undriven(const int &var, int value) {
    if (m_file) m_file->show_undriven(var, value);
}

void scheduled_trace::set_at(int &var, int value, double at_s) {
    if (m_file) m_file->schedule(var, value, false, at_s);
    else m_applier->push(sc_core::sc_time(at_s, sc_core::SC_SEC), &var, value, false);
}

void scheduled_trace::add_at(int &var, int delta, double at_s) {
    if (m_file) m_file->schedule(var, delta, true, at_s);
    else m_applier->push(sc_core::sc_time(at_s, sc_core::SC_SEC), &var, delta, true);
}

}  // namespace raidtlm::waveforms
