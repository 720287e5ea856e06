#include "rtl_models/cpu/controller_cpu.h"

#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"
#include "waveforms/scheduled_trace.h"

namespace raidtlm::rtl_models {

namespace {
sc_core::sc_time at_s(double t) { return sc_core::sc_time(t, sc_core::SC_SEC); }
}  // namespace

controller_cpu::controller_cpu(sc_core::sc_module_name name, const cpu_config &config)
    : sc_module(name), tasks("tasks"), m_config(config), m_dispatch(config.cores, config.scheduling) {
    tasks.bind(*this);
    if (config.mhz <= 0) SC_REPORT_FATAL("/raidtlm/rtl_models/controller_cpu", "clock must be > 0 MHz");
    m_stats.core_busy_s.assign(size_t(m_dispatch.cores()), 0.0);
    m_busy.assign(size_t(m_dispatch.cores()), 0);
    m_task.assign(size_t(m_dispatch.cores()), 0);
}

controller_cpu::~controller_cpu() = default;

void controller_cpu::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    const auto *routine = gp.get_extension<cpu_routine>();
    if (!routine) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    delay = book(routine->steps, routine->count, routine->affinity);  // delay was zero
}

sc_core::sc_time controller_cpu::dispatch(const step *steps, size_t count, int affinity, uint64_t total) {
    const double now = now_s();
    const double cycle = m_config.cycle_s();
    const core_dispatcher::slot slot = m_dispatch.dispatch(now, double(total) * cycle, affinity);
    m_stats.wait.add(slot.start_s - now);
    m_stats.core_busy_s[size_t(slot.core)] += slot.end_s - slot.start_s;
    if (m_trace) {
        if (slot.start_s > now) {
            m_trace->add_at(m_run_queue, 1, now);
            m_trace->add_at(m_run_queue, -1, slot.start_s);
        }
        int &busy = m_busy[size_t(slot.core)];
        int &task = m_task[size_t(slot.core)];
        m_trace->set_at(busy, 1, slot.start_s);
        double t = slot.start_s;
        for (size_t i = 0; i < count; ++i) {
            const step &s = steps[i];
            if (s.cycles == 0) continue;
            m_trace->set_at(task, int(s.task), t);
            t += double(s.cycles) * cycle;
        }
        m_trace->set_at(busy, 0, slot.end_s);
        m_trace->set_at(task, 0, slot.end_s);
    }
    return at_s(slot.end_s - now);
}

void controller_cpu::reset_statistics() {
    const double now = now_s();
    cpu_statistics fresh;
    fresh.core_busy_s.assign(m_stats.core_busy_s.size(), 0.0);
    // Work booked beyond now belongs to the new window.
    for (int c = 0; c < m_dispatch.cores(); ++c)
        if (m_dispatch.free_at(c) > now) fresh.core_busy_s[size_t(c)] = m_dispatch.free_at(c) - now;
    fresh.since_s = now;
    m_stats = fresh;
}

double controller_cpu::core_busy_s(int core) const {
    // A core's work beyond now is one stretch up to its free time (routines start when it frees).
    return m_stats.core_busy_s[size_t(core)] - std::max(0.0, m_dispatch.free_at(core) - now_s());
}

double controller_cpu::busy_s() const {
    double b = 0;
    for (int c = 0; c < m_dispatch.cores(); ++c) b += core_busy_s(c);
    return b;
}

void controller_cpu::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    if (!m_trace) m_trace = std::make_unique<waveforms::scheduled_trace>(tf);
    for (int c = 0; c < m_dispatch.cores(); ++c) {
        sc_core::sc_trace(tf, m_busy[size_t(c)], prefix + ".core" + std::to_string(c) + "_busy", 1);  // 0/1: a 1-bit wire
        sc_core::sc_trace(tf, m_task[size_t(c)], prefix + ".core" + std::to_string(c) + "_task");
    }
    sc_core::sc_trace(tf, m_run_queue, prefix + ".run_queue");
}

}  // namespace raidtlm::rtl_models
