#include "rtl_models/cpu/cpu_cost.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::rtl_models {

const char *to_string(cpu_task t) {
    switch (t) {
    case cpu_task::idle: return "idle";
    case cpu_task::host_command: return "host_command";
    case cpu_task::schedule: return "schedule";
    case cpu_task::physical_command: return "physical_command";
    case cpu_task::completion_interrupt: return "completion_interrupt";
    case cpu_task::table_update: return "table_update";
    case cpu_task::dma_setup: return "dma_setup";
    case cpu_task::xor_setup: return "xor_setup";
    }
    return "?";
}

const char *to_string(cpu_scheduling s) { return s == cpu_scheduling::shared ? "shared" : "per_core"; }

uint64_t cpu_cost_table::cycles(cpu_task t) const {
    switch (t) {
    case cpu_task::idle: return 0;
    case cpu_task::host_command: return host_command_cycles;
    case cpu_task::schedule: return schedule_cycles(0);
    case cpu_task::physical_command: return physical_command_cycles;
    case cpu_task::completion_interrupt: return completion_interrupt_cycles;
    case cpu_task::table_update: return table_update_cycles;
    case cpu_task::dma_setup: return dma_setup_cycles;
    case cpu_task::xor_setup: return xor_setup_cycles;
    }
    return 0;
}

bool cpu_cost_table::all_zero() const {
    return host_command_cycles == 0 && physical_command_cycles == 0 && completion_interrupt_cycles == 0 &&
           table_update_cycles == 0 && schedule_base_cycles == 0 && schedule_per_entry_cycles == 0 &&
           dma_setup_cycles == 0 && xor_setup_cycles == 0;
}

core_dispatcher::core_dispatcher(int cores, cpu_scheduling scheduling)
    : m_free(size_t(std::max(1, cores)), 0.0), m_scheduling(scheduling) {
    if (cores < 1) throw std::invalid_argument("core_dispatcher: at least one core");
}

core_dispatcher::slot core_dispatcher::dispatch(double now_s, double duration_s, int affinity) {
    int core;
    if (m_scheduling == cpu_scheduling::per_core) {
        const int n = cores();
        core = ((affinity % n) + n) % n;
    } else {
        // The core that frees first; among cores already free, the lowest numbered.
        core = 0;
        for (int c = 1; c < cores(); ++c)
            if (std::max(m_free[c], now_s) < std::max(m_free[core], now_s)) core = c;
    }
    const double start = std::max(now_s, m_free[core]);
    m_free[core] = start + duration_s;
    return {core, start, m_free[core]};
}

}  // namespace raidtlm::rtl_models
