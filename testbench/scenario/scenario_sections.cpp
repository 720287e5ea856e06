#include "testbench/scenario/scenario_sections.h"

#include "config/plugin_keys.h"
#include "controller/firmware_api/plugins.h"

namespace raidtlm::testbench {

scenario_keys_t scenario_declarations() {
    controller::register_builtin_plugins();  // their keys (controller.adaptraid5.*) before the sections
    scenario_keys_t k;
    declare_disks_section(k);
    declare_host_section(k);
    declare_controller_section(k);
    declare_workload_section(k);
    declare_trace_section(k);
    declare_measurement_section(k);
    declare_output_section(k);
    declare_faults_section(k);
    declare_bricks_section(k);
    // Registered plug-ins, each under its own prefix (controller.my_fw.*), read into and echoed
    // from scenario::plugins.
    for (const config::plugin_section &p : config::plugin_sections()) k.mount(p.prefix, p.keys, &scenario::plugins);
    return k;
}

}  // namespace raidtlm::testbench
