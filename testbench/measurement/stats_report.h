// What a run reports: stats.json and the summary table on stdout. Plain C++ (no kernel calls).
//
// stats.json (keys carry their unit):
//   scenario            the effective scenario (every key, defaults filled in)
//   disk_model          name of the disk spec used
//   requests            {measured, warmup, completed_total, errors, reads, writes, mean_sectors}
//   window              {start_ms, end_ms, duration_ms}: simulated time of the measured window
//   response_time       all measured requests: {count, mean_ms, stddev_ms, min_ms, p50_ms, p90_ms,
//                       p99_ms, max_ms, percentile_relative_error, histogram{bucket_ms, counts,
//                       overflow_from_ms, overflow}}; read_response_time and write_response_time alike
//   throughput          {iops, mb_per_s} (MB = 10^6 bytes) over the window
//   host                {peak_outstanding, disk_commands} (the controller's when it is enabled)
//   controller          only with controller.enabled, over the measured window; every shared block
//                       with its utilisation (busy time / window) and, where requests queue for
//                       it, wait {count, mean_ms, max_ms}:
//                       cpu {mhz, cores, utilisation, per_core_utilisation[], wait, tasks{kind:
//                         {count, cycles}}}, dram {bandwidth_mb_per_s, utilisation, mb_per_s,
//                         ports{name: {utilisation, mb_per_s, transfers, wait}}, buffer
//                         {capacity_mib, peak_kib, mean_kib, allocations, wait}},
//                       nvram {utilisation, reads, writes, peak_occupancy_bytes, wait},
//                       xor {utilisation, commands, mb_per_s, wait}, host_link {description,
//                         utilisation, to_controller_mb_per_s, to_host_mb_per_s, wait},
//                       channels[] {name, rate_mb_per_s, utilisation, data_utilisation,
//                         data_mb_per_s, selections, reselections, arbitration_wait,
//                         wait_by_scsi_id{id: wait}}, firmware {requests, physical_commands,
//                         tag_wait}
//   disks[]             per drive over the window: {name, spindle_phase, requests, reads, writes,
//                       seeks, mean_seek_distance_cyl, mean_seek_ms, mean_rotation_ms,
//                       mean_transfer_ms, mean_overhead_ms, mean_queue_ms (per request),
//                       cache_full_hit_ratio, cache_partial_hit_ratio, write_back_ratio,
//                       busy_ms, utilisation}
//   measurement         {stopped_by (requests | ci | source_end), stopping_rule{ci_target, ci_level,
//                       min_requests}, ci{level, half_width_ms, relative, batches, batch_size,
//                       lag1_autocorrelation, method}}: the confidence interval of the mean response
//                       time by batch means (confidence.h), whether or not it stopped the run
//   think_time          closed loop with a think-time distribution or a target: {distribution,
//                       target_iops, mean_ms (drawn over the window), final_mean_ms,
//                       zero_mean_fraction (draws the tuner had driven to 0: saturation)}
//   trace               trace replay: {file, format, time_scale, lines, requests, skipped_lines,
//                       wrapped, skipped_beyond_capacity, devices[]}
//   timeline            output.timeline: {interval_ms, warmup_end_ms, t_end_ms[], iops[],
//                       mean_response_ms[], utilisation{diskN: []}} over the whole run
//   simulation          {end_ms, wall_s, requests_per_wall_s}
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "controller/platform/controller_top.h"
#include "disks/disk_drive.h"
#include "testbench/workloads/distributions.h"
#include "testbench/measurement/integrity_verdict.h"
#include "testbench/bench/run_measurement.h"
#include "testbench/scenario/scenario.h"
#include "testbench/measurement/timeline.h"
#include "testbench/workloads/trace_formats.h"

namespace raidtlm::testbench {

class fault_injector;

// Field-by-field after - before.
disks::drive_statistics difference(const disks::drive_statistics &after, const disks::drive_statistics &before);

struct disk_report {
    std::string name;
    double spindle_phase = 0;
    disks::drive_statistics window;  // counted over the measured window
};

struct run_report {
    const scenario *config = nullptr;
    const run_measurement *measurement = nullptr;
    std::string disk_model;
    std::vector<disk_report> disks;
    const controller::controller_top *controller = nullptr;  // when enabled
    int host_peak_outstanding = 0;
    uint64_t host_disk_commands = 0;
    double sim_end_ms = 0;
    double wall_s = 0;
    const think_time_source *think = nullptr;  // optional parts
    const trace_source *trace = nullptr;
    const timeline *samples = nullptr;
    const fault_injector *faults = nullptr;  // with a `faults:` schedule
    std::vector<std::string> outputs;  // files written, for the summary
};

// This build: {"version", "commit"} (stats.json's "raidtlm").
nlohmann::json build_json();
nlohmann::json make_stats_json(const run_report &r);
// The "controller" object of stats.json.
nlohmann::json controller_json(const controller::controller_top &c);
std::string summary_table(const run_report &r);
// The scoreboard's verdict over the whole run (warm-up included).
integrity_counts integrity_of(const controller::controller_top &c);

}  // namespace raidtlm::testbench
