// controller.cpu.* and controller.cost.*: the I/O processor and the firmware's cost table.
#include "rtl_models/cpu/cpu_keys.h"

namespace raidtlm::rtl_models {

namespace {
const config::names<cpu_scheduling> scheduling_names = {{"shared", cpu_scheduling::shared},
                                                        {"per_core", cpu_scheduling::per_core}};
const config::names<cpu_model> model_names = {{"cost_table", cpu_model::cost_table}, {"iss", cpu_model::iss}};
}  // namespace

void declare_keys(config::declarations<cpu_config> &k) {
    k.number("mhz", &cpu_config::mhz, "600").above(0).cap(1e6).unit("MHz");
    k.integer("cores", &cpu_config::cores, "1", 1, 64);
    k.choice("scheduling", &cpu_config::scheduling, "shared", scheduling_names);
    k.choice("model", &cpu_config::model, "cost_table", model_names)
        .note("iss: the C firmware image runs on an instruction-set simulator (docs/REGISTER_MAP.md)");
    k.custom(
        "firmware", "\"\"", "a path to an ARM ELF firmware image",
        [](cpu_config &c, const config::value_ref &v, const config::key_use &u) {
            const std::string given = v.node.IsNull() ? std::string() : config::read_scalar(v, u);
            c.firmware_image = given.empty() ? std::string() : config::read_file_path(given, v, u);
        },
        [](const cpu_config &c) { return nlohmann::json(c.firmware_image); })
        .note("model iss; relative to the scenario; empty: the image the build made (controller/iss/firmware_c)");
    // ARM Cortex-M4 TRM (instruction timings): most instructions 1 cycle without memory waits.
    k.number("cycles_per_instruction", &cpu_config::cycles_per_instruction, "1").above(0).cap(1000).unit("cycles");
    k.number("quantum_us", &cpu_config::quantum_us, "1").above(0).cap(1e6).unit("us")
        .note("model iss: how far the core runs ahead of the kernel");
    k.number("register_access_ns", &cpu_config::register_access_ns, "30").min(0).cap(1e6).unit("ns")
        .note("model iss: one register access (AMBA APB: 2 PCLK at 100 MHz + bridge)");
    k.boolean("firmware_profile", &cpu_config::firmware_profile, "false")
        .note("model iss: cycles per firmware function in stats.json");
    k.integer("gdb_port", &cpu_config::gdb_port, "-1", -1, 65535)
        .note("model iss: pause at reset for gdb-multiarch on this TCP port (0: any free one); -1 none; raidtlm run --gdb");
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
