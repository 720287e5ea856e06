// host.*: how the host sees the disks (one striped space or a concatenation).
#include "testbench/scenario/scenario_sections.h"

namespace raidtlm::testbench {

void declare_host_section(scenario_keys_t &root) {
    static const config::names<host_layout> layout_names = {{"jbod", host_layout::jbod},
                                                            {"stripe", host_layout::stripe}};
    config::declarations<host_config> k;
    k.choice("layout", &host_config::layout, "stripe", layout_names);
    k.integer("stripe_unit_sectors", &host_config::stripe_unit_sectors, "64", 1, INT32_MAX);
    root.mount("host", k, &scenario::host);
}

}  // namespace raidtlm::testbench
