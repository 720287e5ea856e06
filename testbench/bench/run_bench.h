// The bench of `raidtlm run`: `count` drives of one disk_spec behind the RAID controller (when
// controller.enabled) or the minimal host adapter, driven by the scenario's workload (synthetic, or
// a trace replayed). Module names: disk0.., controller or host, workload (children of the bench).
// Traced signals (see trace()): diskN.{mech_state,cmd_state,cylinder,head,queue_depth},
// controller.* (controller_top::trace) or host.outstanding, workload.in_flight.
// The bench also owns the run's optional recorders: the think-time source of a closed loop, the
// trace source, the timeline of utilisation (output.timeline) and the per-request CSV.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "controller/platform/controller_top.h"
#include "disks/disk_drive.h"
#include "testbench/workloads/distributions.h"
#include "testbench/bench/fault_injector.h"
#include "testbench/bench/host_adapter.h"
#include "testbench/measurement/request_log.h"
#include "testbench/bench/run_measurement.h"
#include "testbench/scenario/scenario.h"
#include "testbench/bench/shared_resources.h"
#include "testbench/measurement/timeline.h"
#include "testbench/workloads/trace_formats.h"
#include "testbench/workloads/workload_driver.h"
#include "testbench/workloads/workload_generator.h"
#include "waveforms/wave_groups.h"

namespace raidtlm::testbench {

struct bench_options {
    progress_meter *progress = nullptr;
    std::string requests_csv;  // path of the per-request CSV; empty: none
};

class run_bench : public sc_core::sc_module {
public:
    // Throws scenario_error when the workload does not fit on the disks, trace_error when the
    // trace cannot be opened.
    run_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
              run_measurement &measurement, const bench_options &options = {});
    // A heterogeneous array: specs[i] is disk i's drive (disks.count of them).
    run_bench(sc_core::sc_module_name name, const scenario &s, std::vector<disks::disk_spec> specs,
              run_measurement &measurement, const bench_options &options = {});

    int disk_count() const { return static_cast<int>(m_disks.size()); }
    const disks::disk_drive &disk(int i) const { return *m_disks.at(i); }
    const std::string &disk_name(int i) const { return m_disk_names.at(i); }
    double spindle_phase(int i) const { return m_phases.at(i); }
    // The controller, or null when the scenario uses the minimal host adapter (and vice versa).
    const controller::controller_top *controller() const { return m_controller.get(); }
    const fault_injector *faults() const { return m_faults.get(); }
    const host_adapter *host() const { return m_host.get(); }
    int peak_outstanding() const;
    uint64_t disk_commands() const;
    const workload_driver &workload() const { return *m_workload; }
    workload_driver &workload() { return *m_workload; }
    const workload_generator &generator() const { return *m_generator; }
    const think_time_source *think() const { return m_think.get(); }
    const trace_source *trace_replay() const { return m_trace.get(); }
    const timeline *samples() const { return m_timeline.get(); }
    request_log *log() { return m_log.get(); }
    // Drive statistics at the end of the warm-up (zeros without warm-up).
    const std::vector<disks::drive_statistics> &warmup_snapshot() const { return m_snapshot; }
    // Takes a last timeline sample at the end of the run.
    void close_timeline(double now_ms);

    // Adds the signals of `groups` under names "<disk_name>.mech_state", "host.outstanding", ...
    void trace(sc_core::sc_trace_file *tf, const waveforms::wave_groups &groups = {});

private:
    void sample(double now_ms);

    std::vector<std::unique_ptr<disks::disk_drive>> m_disks;
    std::vector<std::string> m_disk_names;
    std::vector<double> m_phases;
    std::vector<disks::disk_spec> m_specs;  // the firmware's geometry pointers refer to these
    std::unique_ptr<workload_generator> m_generator;
    std::unique_ptr<think_time_source> m_think;
    std::unique_ptr<trace_source> m_trace;
    std::unique_ptr<timeline> m_timeline;
    std::unique_ptr<request_log> m_log;
    std::unique_ptr<host_adapter> m_host;
    std::unique_ptr<controller::controller_top> m_controller;
    std::unique_ptr<workload_driver> m_workload;
    std::unique_ptr<fault_injector> m_faults;
    std::vector<disks::drive_statistics> m_snapshot;
    std::vector<double> m_busy;  // scratch for samples
    std::unique_ptr<shared_resources> m_shared;  // with the controller, for the timeline
};

}  // namespace raidtlm::testbench
