// Carries out the scenario's fault schedule (fault_schedule.h) during a run: at a simulated time
// or when a host request number arrives at the controller, a disk is lost, a drive's sectors
// become unreadable or silently change (a lost disk may be replaced by a fresh drive later, which the firmware
// rebuilds), or the controller loses power and gets it back (then the host's requests
// that the loss took are counted failed: workload_driver::abandon_in_flight). What happened goes
// to stats.json's `faults` (fault_report).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "controller/platform/controller_top.h"
#include "disks/disk_drive.h"
#include "testbench/scenario/fault_schedule.h"
#include "testbench/workloads/workload_driver.h"

namespace raidtlm::testbench {

struct fault_outcome {
    fault_entry fault;
    double happened_ms = -1;  // -1: not reached before the run ended
    double recovered_ms = -1;  // power_loss: recovery done
    size_t recovered = 0;      // power_loss: copies or stripes the firmware's recovery rewrote
    size_t abandoned = 0;      // power_loss: host requests lost with the power
    double replaced_ms = -1;   // disk_loss with replace_after_ms: the fresh drive in the slot
    bool rebuild_started = false;
};

class fault_injector : public sc_core::sc_module {
public:
    fault_injector(sc_core::sc_module_name name, std::vector<fault_entry> schedule, controller::controller_top &ctl,
                   std::vector<disks::disk_drive *> drives, workload_driver &workload);

    const std::vector<fault_outcome> &outcomes() const { return m_outcomes; }
    nlohmann::json report() const;

private:
    void at_time(size_t i);
    void on_request(uint64_t sequence);
    void apply(size_t i);  // disk loss and media errors at once; power losses on their own thread
    void power_cycle(size_t i);
    void replace_later(size_t i);

    controller::controller_top &m_ctl;
    std::vector<disks::disk_drive *> m_drives;
    workload_driver &m_workload;
    std::vector<fault_outcome> m_outcomes;
    std::vector<size_t> m_outages_ended_while_off;  // restored inside another outage: back with it
};

}  // namespace raidtlm::testbench
