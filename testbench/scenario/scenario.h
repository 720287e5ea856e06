// A scenario: what `raidtlm run` simulates, read from YAML (see scenarios/default.yaml for the
// commented key reference). Plain C++, no SystemC.
//
// Keys are addressed by dotted paths ("workload.read_fraction") both in the file and in
// `--set key=value` overrides. Each block declares its own keys next to its config struct
// (config/key_declarations.h; the sections in testbench/*_section.cpp, the controller's in
// controller/platform/controller_keys.h, the hardware blocks' in rtl_models/hardware_keys.h, plug-ins'
// through config/plugin_keys.h); this file reads them. Every key is optional except disks.spec;
// omitted keys take the defaults listed by scenario_keys(), and stats.json echoes the effective
// values. An unknown key, a wrong type or an out-of-range value is a scenario_error whose what()
// is one line:
//   FILE:LINE:COL: key 'workload.foo': <problem>; expected <form>
//   --set workload.foo=VALUE: key 'workload.foo': <problem>; expected <form>
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/key_declarations.h"
#include "config/key_loader.h"
#include "config/plugin_keys.h"
#include "controller/families/bricks/claim_protocol.h"
#include "controller/firmware_api/controller_config.h"
#include "controller/kit/host_address_map.h"
#include "disks/disk_spec.h"
#include "testbench/scenario/fault_schedule.h"
#include "testbench/workloads/trace_config.h"

namespace raidtlm::testbench {

using controller::host_layout;
enum class arrival_process { open, closed, trace };
enum class address_pattern { uniform, sequential, local, streams, tracks, hot_cold };
enum class size_dist { constant, uniform, table, zipf, exponential };
enum class think_dist { constant, exponential, gaussian };

using controller::to_string;
const char *to_string(arrival_process v);
const char *to_string(address_pattern v);
const char *to_string(size_dist v);
const char *to_string(think_dist v);

// One row of a request-size table: a weight, a size and optionally a direction.
struct size_table_entry {
    double weight = 1;
    uint32_t sectors = 8;
    int direction = -1;  // -1: drawn with read_fraction; 1: read; 0: write
    bool operator==(const size_table_entry &o) const {
        return weight == o.weight && sectors == o.sectors && direction == o.direction;
    }
};
// Limits checked at load, far above any hand-written table; a longer one is a trace's job.
constexpr size_t max_size_table_rows = 10000;
// The airline-reservation mix of the parity-logging paper (Stodolsky et al., Fig 26): 82% reads.
const std::vector<size_table_entry> &airline_size_table();

// Open loop: from start_s on (simulated seconds), Poisson arrivals at `iops` per second.
struct rate_step {
    double start_s = 0;
    double iops = 0;
};
constexpr size_t max_rate_steps = 100000;  // a step a minute for ~70 days of simulated time

struct disks_config {
    std::string spec_path;   // resolved, usable as is
    std::string spec_name;   // disk block name inside the spec file; empty: the file's first disk
    // Heterogeneous arrays: one spec file per disk (resolved; each file's only or first disk
    // block); empty: every disk is spec_path.
    std::vector<std::string> spec_paths;
    int count = 4;
    bool spindle_sync = false;
    // The drive's own per-sector interface time, ms, or interface_spec: the spec's "Bulk sector
    // transfer time" (a validation spec's value is its test host's rate, slower than a real bus),
    // or interface_auto: behind a controller the bus's rate, else the spec's
    // (drive_interface_time.h).
    static constexpr double interface_spec = -1, interface_auto = -2;
    double bulk_sector_transfer_ms = interface_auto;
    // The drive's segment cache: number of segments and blocks per segment; 0: the spec's.
    int cache_segments = 0;
    int segment_sectors = 0;
    int min_read_ahead_sectors = -1;  // "Minimum read-ahead (blks)"; negative: the spec's
    // The order in which the host's queue passes commands the drive's "Max queue length" does not
    // take yet (DiskSim's iodriver queue policy); FCFS = arrival order.
    disks::drive_scheduling host_queue_policy = disks::drive_scheduling::fcfs;
};

struct host_config {
    host_layout layout = host_layout::stripe;
    uint64_t stripe_unit_sectors = 64;
};

struct workload_config {
    arrival_process arrival = arrival_process::closed;
    double mean_interarrival_ms = 10.0;  // open
    std::vector<rate_step> rate_schedule;  // open; replaces mean_interarrival_ms when not empty
    int outstanding = 8;                 // closed
    double think_time_ms = 0.0;          // closed: the mean
    think_dist think_time_distribution = think_dist::constant;
    double think_time_cv = 0.25;         // gaussian: standard deviation / mean
    double target_iops = 0;              // closed: > 0 tunes the mean think time to reach it
    bool data_tokens = false;            // requests carry one token per sector (checked by the controller)
    double read_fraction = 0.67;
    size_dist size_distribution = size_dist::constant;
    uint32_t request_sectors = 8;        // constant
    uint32_t size_min_sectors = 1;       // uniform
    uint32_t size_max_sectors = 256;     // uniform, zipf
    double size_mean_sectors = 8;        // zipf
    std::vector<size_table_entry> size_table = airline_size_table();  // table
    uint32_t alignment_sectors = 8;      // 0: natural (a multiple of the request's own size)
    address_pattern address = address_pattern::uniform;
    double local_stddev_sectors = 10000.0;
    double locality_tracks = 1;          // tracks
    double hot_space_fraction = 0.2;     // hot_cold
    double hot_access_fraction = 0.8;    // hot_cold
    double random_fraction = 1.0;        // the rest continue sequentially (Iometer's % random)
    uint64_t requests = 20000;           // 0 (trace only): until the trace ends
    uint64_t warmup_requests = 500;
    uint64_t seed = 1;
};

// The RAID controller between the host and the disks (controller/platform/controller_top.h). Disabled: the
// minimal host adapter (no controller, no cost). The firmware's layout and stripe unit come from
// the host section.
struct controller_scenario {
    bool enabled = false;
    controller::controller_config config;
};

struct measurement_config {
    double ci_target = 0;       // > 0: stop when the CI half-width <= ci_target * mean
    double ci_level = 0.95;
    uint64_t min_requests = 10000;  // the stopping rule is not applied before this many are measured
    int seeds = 1;              // > 1: that many runs, seeds seed .. seed + seeds - 1
};

enum class wave_file_format { vcd, fst };

struct output_config {
    double histogram_bucket_ms = 0.5;
    double histogram_max_ms = 200.0;
    bool waves = true;
    // The waves' time window (to 0: the end of the run), signal groups (waveforms::wave_group_names
    // or "all") and file format.
    double waves_from_ms = 0, waves_to_ms = 0;
    std::vector<std::string> wave_groups{"all"};
    wave_file_format wave_format = wave_file_format::vcd;
    bool requests_csv = false;  // OUT/requests.csv: one line per completed request
    bool timeline = true;       // stats.json "timeline": utilisation and throughput over time
};

// Storage bricks on a switched network (Lumb; testbench/bricks/bricks_bench.h): `count` bricks of one
// disk each (disks.spec) in replica groups of `replicas`, one closed-loop client per group.
enum class brick_distribution { dsptf, hashing, weighted_hashing, lard, central, array_controller };
const char *to_string(brick_distribution v);

struct bricks_config {
    int count = 0;  // 0: not a bricks topology
    int replicas = 2;
    brick_distribution distribution = brick_distribution::dsptf;
    int outstanding_per_group = 16;  // Lumb 6.1
    double cache_mb = 512;           // Lumb 5.1: per brick, LRU, non-volatile
    uint32_t cache_page_sectors = 8;
    std::vector<double> replica_weights;  // weighted_hashing: per replica (empty: equal)
    double one_way_latency_us = 50;       // rtl_models::network_config
    double port_mb_per_s = 125;
    uint32_t control_message_bytes = 50;
    controller::claim_protocol claim_protocol = controller::claim_protocol::prescheduling;  // Lumb 4.1.3, 7
    double destage_above_cache_fraction = 0;  // bricks_section.cpp: the default's source
    int destage_requests_queued = 64;          // bricks_section.cpp: the default's source
    double slow_replica_speed = 1;            // Table 6.5: the last replica's disk at this speed
    int lard_low = 25, lard_high = 65;        // Pai et al. 1998 (controller/families/bricks/lard_dispatcher.h)
};

struct scenario {
    std::string file;  // the scenario file as given
    disks_config disks;
    host_config host;
    controller_scenario controller;
    workload_config workload;
    trace_config trace;
    measurement_config measurement;
    output_config output;
    std::vector<fault_entry> faults;  // faults: (testbench/scenario/fault_schedule.h)
    bricks_config bricks;
    // The keys of registered plug-ins (config/plugin_keys.h), by prefix:
    // plugins.get<my_fw_config>("controller.my_fw").
    config::plugin_values plugins;
    // Where each key's value came from ("FILE:LINE:COL" or "--set key=value"), for errors raised
    // after loading (e.g. a request larger than the disks once the spec is known).
    std::map<std::string, std::string> origin;

    std::string where(const std::string &key) const;
    // A scenario_error about `key` in the standard one-line form.
    scenario_error error(const std::string &key, const std::string &problem,
                         const std::string &expected) const;
    // The effective values, keyed like the file.
    nlohmann::json to_json() const;
};

// One documented key: dotted path, default (YAML text, "" when required), accepted form, unit,
// note. Built-in keys and registered plug-ins' keys, in the order of the help.
using scenario_key_info = config::key_info;
const std::vector<scenario_key_info> &scenario_keys();

using scenario_override = config::key_override;
// Parses "key=value" as given to --set; throws scenario_error if there is no '=' or no key.
scenario_override parse_override(const std::string &text);

// The largest scenario file load_scenario reads (checked before parsing; the longest file in
// scenarios/ is ~25 KB, a 100,000-step rate_schedule ~1.5 MB).
constexpr uintmax_t max_scenario_bytes = 4u << 20;

// Loads `path`, applies the overrides in order (a later one wins) and validates. The disk spec path
// is resolved against the scenario file's directory, then `repo_root` (when not empty); a spec path
// given by --set is tried against the current directory first.
scenario load_scenario(const std::string &path, const std::vector<scenario_override> &overrides = {},
                       const std::string &repo_root = "");

}  // namespace raidtlm::testbench
