// measurement.*: the stopping rule and the number of seeds.
#include "testbench/scenario/scenario_sections.h"

namespace raidtlm::testbench {

void declare_measurement_section(scenario_keys_t &root) {
    using m = measurement_config;
    config::declarations<m> k;
    k.number("ci_target", &m::ci_target, "0").min(0).below(1).note("0: off");
    k.number("ci_level", &m::ci_level, "0.95").above(0.5).below(1);
    k.integer("min_requests", &m::min_requests, "10000", 0, 1000000000000LL);
    k.integer("seeds", &m::seeds, "1", 1, 1000);
    root.mount("measurement", k, &scenario::measurement);
}

}  // namespace raidtlm::testbench
