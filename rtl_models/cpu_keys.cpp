// controller.cpu.* and controller.cost.*: the I/O processor and the firmware's cost table.
#include "rtl_models/hardware_keys.h"

namespace raidtlm::rtl_models {

namespace {
const config::names<cpu_scheduling> scheduling_names = {{"shared", cpu_scheduling::shared},
                                                        {"per_core", cpu_scheduling::per_core}};
}  // namespace

void declare_keys(config::declarations<cpu_config> &k) {
    k.number("mhz", &cpu_config::mhz, "600").above(0).cap(1e6).unit("MHz");
    k.integer("cores", &cpu_config::cores, "1", 1, 64);
    k.choice("scheduling", &cpu_config::scheduling, "shared", scheduling_names);
}

void declare_keys(config::declarations<cpu_cost_table> &k) {
    // Defaults: cpu_cost.h (a few thousand cycles per command on an IOP321-class processor).
    using t = cpu_cost_table;
    const std::pair<const char *, uint64_t t::*> tasks[] = {
        {"host_command_cycles", &t::host_command_cycles},
        {"physical_command_cycles", &t::physical_command_cycles},
        {"completion_interrupt_cycles", &t::completion_interrupt_cycles},
        {"table_update_cycles", &t::table_update_cycles},
        {"schedule_base_cycles", &t::schedule_base_cycles},
        {"schedule_per_entry_cycles", &t::schedule_per_entry_cycles},
        {"dma_setup_cycles", &t::dma_setup_cycles},
        {"xor_setup_cycles", &t::xor_setup_cycles}};
    const cpu_cost_table defaults;
    for (const auto &[name, field] : tasks)
        k.integer(name, field, std::to_string(defaults.*field), 0, 1000000000).unit("cycles");
}

}  // namespace raidtlm::rtl_models
