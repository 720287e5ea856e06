// The controller CPU's cost logic as plain C++: the firmware cost table (cycles per task) and the
// dispatch of tasks onto cores. Tasks run to completion, one at a time per core, in arrival order
// (non-preemptive FIFO), so a task's start and end follow from the cores' free times when it
// arrives: the SystemC controller_cpu waits once per task.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::rtl_models {

// Firmware task kinds; the traced "current task" of a core shows these numbers (0 = idle).
enum class cpu_task : int {
    idle = 0,
    host_command = 1,          // parse a host command, map it onto the disks
    schedule = 2,              // pick the next command from a per-disk queue of n entries
    physical_command = 3,      // build and issue one SCSI command
    completion_interrupt = 4,  // field a SCSI completion
    table_update = 5,          // update the request table (retire a host request, log a write)
    dma_setup = 6,             // program a DMA (host link or SCSI channel)
    xor_setup = 7,             // program the XOR engine
};
constexpr int cpu_task_kinds = 8;
const char *to_string(cpu_task t);

// Cycles per task. Defaults are a documented assumption: an early-2000s RAID firmware path on an
// I/O processor spends on the order of 10,000 cycles per small host request (a few thousand
// instructions per step); no source gives the split, so measure your firmware and set these.
struct cpu_cost_table {
    uint64_t host_command_cycles = 3000;
    uint64_t physical_command_cycles = 2000;
    uint64_t completion_interrupt_cycles = 1500;
    uint64_t table_update_cycles = 500;
    uint64_t schedule_base_cycles = 200;       // a in a + b*n
    uint64_t schedule_per_entry_cycles = 50;   // b in a + b*n
    uint64_t dma_setup_cycles = 300;
    uint64_t xor_setup_cycles = 300;

    // A scheduling decision over a queue of n entries: a + b*n.
    uint64_t schedule_cycles(uint64_t n) const { return schedule_base_cycles + schedule_per_entry_cycles * n; }
    // Fixed-cost tasks (schedule uses n = 0).
    uint64_t cycles(cpu_task t) const;
    bool all_zero() const;
};

enum class cpu_scheduling {
    shared,    // one run queue: a task takes the core that frees first
    per_core,  // a task runs on the core its affinity names (affinity mod cores), FIFO per core
};
const char *to_string(cpu_scheduling s);

// How the firmware's CPU work is modelled: charged from the cost table (host C++ firmware), or
// executed instruction by instruction on the instruction-set simulator (rtl_models/cpu/iss_cpu.h).
enum class cpu_model { cost_table, iss };

struct cpu_config {
    double mhz = 600;  // Intel IOP321 I/O processor (XScale), 600 MHz
    int cores = 1;
    cpu_scheduling scheduling = cpu_scheduling::shared;
    cpu_cost_table costs;
    cpu_model model = cpu_model::cost_table;
    // model iss: the firmware image (empty: the image built into the build tree), the ISS's
    // timing (iss_cpu_config) and the register block's access latency (iss_device).
    std::string firmware_image;
    double cycles_per_instruction = 1.0;
    double quantum_us = 1.0;
    double register_access_ns = 30;
    bool firmware_profile = false;
    int gdb_port = -1;  // model iss: the GDB remote stub's port (raidtlm run --gdb), -1 none

    double cycle_s() const { return 1.0 / (mhz * 1e6); }
};

// Places tasks on cores in closed form.
class core_dispatcher {
public:
    core_dispatcher(int cores, cpu_scheduling scheduling);

    struct slot {
        int core;
        double start_s;
        double end_s;
    };
    // A task of `duration_s` that becomes ready at `now_s`; `affinity` picks the core under
    // per_core scheduling. Returns where and when it runs, and books the core.
    slot dispatch(double now_s, double duration_s, int affinity);
    double free_at(int core) const { return m_free[core]; }
    int cores() const { return int(m_free.size()); }

private:
    std::vector<double> m_free;
    cpu_scheduling m_scheduling;
};

}  // namespace raidtlm::rtl_models
