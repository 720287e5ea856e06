// The bench of `raidtlm run`: `count` drives of one disk_spec behind the RAID controller (when
// controller.enabled) or the minimal host adapter, driven by the scenario's workload. Module names:
// disk0.., controller or host, workload (children of the bench). Traced signals (see trace()):
// diskN.{mech_state,cmd_state,cylinder,head,queue_depth}, controller.* (controller_top::trace) or
// host.outstanding, workload.in_flight.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "controller/controller_top.h"
#include "disks/disk_drive.h"
#include "testbench/host_adapter.h"
#include "testbench/run_measurement.h"
#include "testbench/scenario.h"
#include "testbench/workload_driver.h"
#include "testbench/workload_generator.h"

namespace raidtlm::testbench {

class run_bench : public sc_core::sc_module {
public:
    // Throws scenario_error when the workload does not fit on the disks. `progress` may be null.
    run_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
              run_measurement &measurement, progress_meter *progress);

    int disk_count() const { return static_cast<int>(m_disks.size()); }
    const disks::disk_drive &disk(int i) const { return *m_disks.at(i); }
    const std::string &disk_name(int i) const { return m_disk_names.at(i); }
    double spindle_phase(int i) const { return m_phases.at(i); }
    // The controller, or null when the scenario uses the minimal host adapter (and vice versa).
    const controller::controller_top *controller() const { return m_controller.get(); }
    const host_adapter *host() const { return m_host.get(); }
    int peak_outstanding() const;
    uint64_t disk_commands() const;
    const workload_driver &workload() const { return *m_workload; }
    workload_driver &workload() { return *m_workload; }
    // Drive statistics at the end of the warm-up (zeros without warm-up).
    const std::vector<disks::drive_statistics> &warmup_snapshot() const { return m_snapshot; }

    // Adds every traced signal under names "<disk_name>.state", "host.outstanding", ...
    void trace(sc_core::sc_trace_file *tf);

private:
    std::vector<std::unique_ptr<disks::disk_drive>> m_disks;
    std::vector<std::string> m_disk_names;
    std::vector<double> m_phases;
    std::unique_ptr<workload_generator> m_generator;
    std::unique_ptr<host_adapter> m_host;
    std::unique_ptr<controller::controller_top> m_controller;
    std::unique_ptr<workload_driver> m_workload;
    std::vector<disks::drive_statistics> m_snapshot;
};

}  // namespace raidtlm::testbench
