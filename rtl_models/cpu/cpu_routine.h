// A routine for the controller CPU as a TLM-2.0 generic-payload extension: the payload sent to
// controller_cpu::tasks (command TLM_IGNORE_COMMAND, no data) carries the steps to run back to
// back on one core and the affinity that picks the core under per_core scheduling. The CPU books
// the routine on a core and answers with the time until it has run added to the annotated delay
// (loosely timed: the initiator waits it out); a routine of no cycles adds nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include <tlm>

#include "rtl_models/cpu/cpu_cost.h"

namespace raidtlm::rtl_models {

struct cpu_step {
    cpu_task task;
    uint64_t cycles;
};

struct cpu_routine : tlm::tlm_extension<cpu_routine> {
    const cpu_step *steps = nullptr;  // read only during b_transport
    size_t count = 0;
    int affinity = 0;

    tlm::tlm_extension_base *clone() const override { return new cpu_routine(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override { *this = static_cast<const cpu_routine &>(other); }
};

}  // namespace raidtlm::rtl_models
