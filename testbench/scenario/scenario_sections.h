// The sections of a scenario, each declared in its own file (config/key_declarations.h): the
// section's keys on its config struct, mounted under the section's name, and the checks that
// involve it. scenario_declarations() puts them together with the registered plug-in sections
// (config/plugin_keys.h); scenario.cpp reads files and overrides with the result.
#pragma once

#include "config/key_declarations.h"
#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

using scenario_keys_t = config::declarations<scenario>;

void declare_disks_section(scenario_keys_t &k);        // disks_section.cpp
void declare_host_section(scenario_keys_t &k);         // host_section.cpp
void declare_controller_section(scenario_keys_t &k);   // controller_section.cpp
void declare_workload_section(scenario_keys_t &k);     // workload_section.cpp
void declare_trace_section(scenario_keys_t &k);        // trace_section.cpp
void declare_measurement_section(scenario_keys_t &k);  // measurement_section.cpp
void declare_output_section(scenario_keys_t &k);       // output_section.cpp
void declare_faults_section(scenario_keys_t &k);       // faults_section.cpp
void declare_bricks_section(scenario_keys_t &k);       // bricks_section.cpp

// Every key of a scenario, in the order of the help: the sections above, then each registered
// plug-in section (its keys after those of the section it sits in).
scenario_keys_t scenario_declarations();

}  // namespace raidtlm::testbench
