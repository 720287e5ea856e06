// controller.*: the platform's own keys, then the firmware's and the hardware blocks'.
#include "controller/platform/controller_keys.h"

#include "rtl_models/hardware_keys.h"

namespace raidtlm::controller {

void declare_keys(config::declarations<controller_config> &k) {
    using c = controller_config;
    k.integer("channels", &c::channels, "1", 1, 16);
    k.integer("initiator_id", &c::initiator_id, "7", 0, 15).note("a SCSI ID");

    config::declarations<firmware_config> firmware;
    declare_keys(firmware);
    k.mount("", firmware, &c::firmware);

    k.mount("cpu", rtl_models::keys_of<rtl_models::cpu_config>(), &c::cpu);
    k.mount<rtl_models::cpu_cost_table>("cost", rtl_models::keys_of<rtl_models::cpu_cost_table>(),
                                        [](c &x) { return &x.cpu.costs; });
    k.mount("bus", rtl_models::keys_of<rtl_models::scsi_bus_config>(), &c::bus);
    k.mount("dram", rtl_models::keys_of<rtl_models::dram_config>(), &c::dram);
    k.mount("nvram", rtl_models::keys_of<rtl_models::nvram_config>(), &c::nvram);
    k.mount("xor", rtl_models::keys_of<rtl_models::xor_config>(), &c::xor_engine);
    k.mount("host_link", rtl_models::keys_of<rtl_models::host_link_config>(), &c::host_link);
}

}  // namespace raidtlm::controller
