// The controller CPU: firmware work charged in cycles on a clock, one task at a time per core.
// A caller (a firmware thread) runs a routine - one or more cost-table steps back to back - and
// is blocked until the routine has run; routines queue FIFO for the cores (shared run queue or one
// queue per core, see cpu_scheduling), so firmware contends with itself. Since tasks do not
// preempt, a routine's start and end are known when it arrives (core_dispatcher): one wait per
// routine, none when it costs no cycles.
//
// Socket: `tasks` (TLM-2.0 target) takes a generic payload with a cpu_routine extension
// (cpu_routine.h); b_transport books the routine at once and adds the time until it has run to
// the annotated delay, which the initiator waits out (the platform does so at once). run() is the
// same for a caller that holds the module itself (tests).
//
// Traced (trace()): <prefix>.coreN_busy (0/1), <prefix>.coreN_task (cpu_task number, 0 idle),
// <prefix>.run_queue (routines ready and waiting for a core).
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "rtl_models/common/blocking_target.h"
#include "rtl_models/cpu/cpu_cost.h"
#include "rtl_models/cpu/cpu_routine.h"
#include "rtl_models/common/resource_stats.h"

namespace raidtlm::waveforms {
class scheduled_trace;
}

namespace raidtlm::rtl_models {

struct cpu_statistics {
    std::vector<double> core_busy_s;                  // per core, work booked ahead of now included
    std::array<uint64_t, cpu_task_kinds> tasks{};     // steps run, per kind
    std::array<uint64_t, cpu_task_kinds> cycles{};    // cycles charged, per kind
    wait_stats wait;                                  // ready -> start, per routine
    double since_s = 0;
};

// The module is its `tasks` socket's forward interface (b_transport only; the routine is booked
// at once, so a non-blocking or debug transaction is refused).
class controller_cpu : public sc_core::sc_module, private blocking_target {
public:
    using step = cpu_step;

    // May stay unbound (run()).
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND> tasks;

    controller_cpu(sc_core::sc_module_name name, const cpu_config &config);
    ~controller_cpu() override;

    const cpu_config &config() const { return m_config; }
    const cpu_cost_table &costs() const { return m_config.costs; }
    // Books the steps back to back on one core; `affinity` chooses the core under per_core
    // scheduling. Returns the time from now until the routine has run (zero at no cycles).
    sc_core::sc_time book(const step *steps, size_t count, int affinity) {
        uint64_t total = 0;
        for (size_t i = 0; i < count; ++i) {
            total += steps[i].cycles;
            m_stats.tasks[size_t(steps[i].task)] += 1;
            m_stats.cycles[size_t(steps[i].task)] += steps[i].cycles;
        }
        if (total == 0) return sc_core::SC_ZERO_TIME;  // costs nothing: no kernel event
        return dispatch(steps, count, affinity, total);
    }
    // Books and waits until the routine has run. Must be called from an SC_THREAD.
    void run(std::initializer_list<step> steps, int affinity = 0) {
        const sc_core::sc_time t = book(steps.begin(), steps.size(), affinity);
        if (t > sc_core::SC_ZERO_TIME) sc_core::wait(t);
    }
    void run(cpu_task task, uint64_t cycles, int affinity = 0) { run({{task, cycles}}, affinity); }
    // A task at its cost-table price.
    void run_priced(cpu_task task, int affinity = 0) { run(task, m_config.costs.cycles(task), affinity); }

    const cpu_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    // Busy time of a core, and of all, within the window up to now (work booked beyond now is
    // counted once it has run).
    double core_busy_s(int core) const;
    double busy_s() const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    // A routine of `total` cycles on a core; the time until it has run.
    sc_core::sc_time dispatch(const step *steps, size_t count, int affinity, uint64_t total);
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) override;

    cpu_config m_config;
    core_dispatcher m_dispatch;
    cpu_statistics m_stats;
    std::unique_ptr<waveforms::scheduled_trace> m_trace;
    std::vector<int> m_busy, m_task;
    int m_run_queue = 0;
};

}  // namespace raidtlm::rtl_models
