// A scenario: what `raidtlm run` simulates, read from YAML (see scenarios/default.yaml for the
// commented key reference). Plain C++, no SystemC.
//
// Keys are addressed by dotted paths ("workload.read_fraction") both in the file and in
// `--set key=value` overrides. Every key is optional except disks.spec; omitted keys take the
// defaults listed by scenario_keys(), and stats.json echoes the effective values. An unknown key, a
// wrong type or an out-of-range value is a scenario_error whose what() is one line:
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

#include "controller/controller_config.h"
#include "controller/host_address_map.h"

namespace raidtlm::testbench {

class scenario_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using controller::host_layout;
enum class arrival_process { open, closed };
enum class address_pattern { uniform, sequential, local };

using controller::to_string;
const char *to_string(arrival_process v);
const char *to_string(address_pattern v);

struct disks_config {
    std::string spec_path;   // resolved, usable as is
    std::string spec_name;   // disk block name inside the spec file; empty: the file's first disk
    int count = 4;
    bool spindle_sync = false;
    // The drive's own per-sector interface time, ms; negative: the spec's "Bulk sector transfer
    // time". (A validation spec's value is its test host's rate, slower than a real bus.)
    double bulk_sector_transfer_ms = -1;
};

struct host_config {
    host_layout layout = host_layout::stripe;
    uint64_t stripe_unit_sectors = 64;
};

struct workload_config {
    arrival_process arrival = arrival_process::closed;
    double mean_interarrival_ms = 10.0;  // open
    int outstanding = 8;                 // closed
    double think_time_ms = 0.0;          // closed
    double read_fraction = 0.67;
    uint32_t request_sectors = 8;
    uint32_t alignment_sectors = 8;
    address_pattern address = address_pattern::uniform;
    double local_stddev_sectors = 10000.0;
    uint64_t requests = 20000;
    uint64_t warmup_requests = 500;
    uint64_t seed = 1;
};

// The RAID controller between the host and the disks (controller/controller_top.h). Disabled: the
// minimal host adapter (no controller, no cost). The firmware's layout and stripe unit come from
// the host section.
struct controller_scenario {
    bool enabled = false;
    controller::controller_config config;
};

struct output_config {
    double histogram_bucket_ms = 0.5;
    double histogram_max_ms = 200.0;
    bool waves = true;
};

struct scenario {
    std::string file;  // the scenario file as given
    disks_config disks;
    host_config host;
    controller_scenario controller;
    workload_config workload;
    output_config output;
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

// One documented key.
struct scenario_key_info {
    std::string key;       // dotted path (a section, possibly groups, the name)
    std::string fallback;  // default, as YAML text ("" when required)
    std::string expected;  // accepted form
};
const std::vector<scenario_key_info> &scenario_keys();

struct scenario_override {
    std::string key;
    std::string value;
};
// Parses "key=value" as given to --set; throws scenario_error if there is no '=' or no key.
scenario_override parse_override(const std::string &text);

// Loads `path`, applies the overrides in order (a later one wins) and validates. The disk spec path
// is resolved against the scenario file's directory, then `repo_root` (when not empty); a spec path
// given by --set is tried against the current directory first.
scenario load_scenario(const std::string &path, const std::vector<scenario_override> &overrides = {},
                       const std::string &repo_root = "");

}  // namespace raidtlm::testbench
