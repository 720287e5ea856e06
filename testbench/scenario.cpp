#include "testbench/scenario.h"

#include "testbench/distributions.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "controller/plugins.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;

namespace {

// The names of each enumeration, in the order the help lists them: to_string and the scenario
// keys' choices both read them.
template <class E>
using names = std::vector<std::pair<const char *, E>>;
const names<host_layout> layout_names = {{"jbod", host_layout::jbod}, {"stripe", host_layout::stripe}};
const names<controller::array_kind> array_names = {{"raid0", controller::array_kind::raid0},
                                                   {"raid1", controller::array_kind::raid1},
                                                   {"raid10", controller::array_kind::raid10},
                                                   {"raid4", controller::array_kind::raid4},
                                                   {"raid5", controller::array_kind::raid5},
                                                   {"sr_array", controller::array_kind::sr_array},
                                                   {"floating", controller::array_kind::floating},
                                                   {"parity_logging", controller::array_kind::parity_logging}};
const names<controller::buffer_policy> buffer_policy_names = {{"global", controller::buffer_policy::global},
                                                              {"static", controller::buffer_policy::static_per_region}};
const names<controller::scheduling_policy> scheduler_names = {{"fcfs", controller::scheduling_policy::fcfs},
                                                              {"sstf", controller::scheduling_policy::sstf},
                                                              {"look", controller::scheduling_policy::look},
                                                              {"c-look", controller::scheduling_policy::c_look},
                                                              {"cvscan", controller::scheduling_policy::cvscan},
                                                              {"satf", controller::scheduling_policy::satf},
                                                              {"rlook", controller::scheduling_policy::rlook},
                                                              {"rsatf", controller::scheduling_policy::rsatf}};
const names<bool> rmw_names = {{"separate", false}, {"read_rotate_write", true}};
const names<bool> rrw_order_names = {{"together", false}, {"parity_after_data", true}};
const names<controller::parity_placement> rotation_names = {
    {"left-symmetric", controller::parity_placement::left_symmetric},
    {"left-asymmetric", controller::parity_placement::left_asymmetric},
    {"right-symmetric", controller::parity_placement::right_symmetric},
    {"right-asymmetric", controller::parity_placement::right_asymmetric}};
const names<arrival_process> arrival_names = {
    {"open", arrival_process::open}, {"closed", arrival_process::closed}, {"trace", arrival_process::trace}};
const names<address_pattern> address_names = {
    {"uniform", address_pattern::uniform}, {"sequential", address_pattern::sequential},
    {"local", address_pattern::local},     {"streams", address_pattern::streams},
    {"tracks", address_pattern::tracks},   {"hot_cold", address_pattern::hot_cold}};
const names<size_dist> size_names = {{"constant", size_dist::constant},
                                     {"uniform", size_dist::uniform},
                                     {"table", size_dist::table},
                                     {"zipf", size_dist::zipf}};
const names<think_dist> think_names = {
    {"constant", think_dist::constant}, {"exponential", think_dist::exponential}, {"gaussian", think_dist::gaussian}};
const names<trace_format> format_names = {{"disksim", trace_format::disksim},
                                          {"spc", trace_format::spc},
                                          {"msr", trace_format::msr},
                                          {"blkparse", trace_format::blkparse}};
const names<beyond_capacity_policy> beyond_names = {{"error", beyond_capacity_policy::error},
                                                    {"wrap", beyond_capacity_policy::wrap},
                                                    {"skip", beyond_capacity_policy::skip}};
const names<char> action_names = {{"D", 'D'}, {"Q", 'Q'}};
const names<rtl_models::cpu_scheduling> cpu_scheduling_names = {{"shared", rtl_models::cpu_scheduling::shared},
                                                                {"per_core", rtl_models::cpu_scheduling::per_core}};
const names<rtl_models::scsi_preset> scsi_preset_names = {{"fast20", rtl_models::scsi_preset::fast20},
                                                          {"ultra2", rtl_models::scsi_preset::ultra2},
                                                          {"ultra160", rtl_models::scsi_preset::ultra160},
                                                          {"ultra320", rtl_models::scsi_preset::ultra320},
                                                          {"custom", rtl_models::scsi_preset::custom}};
const names<rtl_models::dram_arbitration> dram_arbitration_names = {
    {"round_robin", rtl_models::dram_arbitration::round_robin},
    {"fixed_priority", rtl_models::dram_arbitration::fixed_priority}};
const names<rtl_models::host_link_kind> host_link_names = {{"pcix", rtl_models::host_link_kind::pcix},
                                                           {"pcie", rtl_models::host_link_kind::pcie},
                                                           {"unlimited", rtl_models::host_link_kind::unlimited}};

template <class E>
const char *name_of(const names<E> &table, E v) {
    for (const auto &n : table)
        if (n.second == v) return n.first;
    return "?";
}

// "a, b or c"
template <class E>
std::string one_of(const names<E> &table) {
    std::string s;
    for (size_t i = 0; i < table.size(); ++i)
        s += std::string(i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + table[i].first;
    return s;
}

}  // namespace

const char *to_string(arrival_process v) { return name_of(arrival_names, v); }
const char *to_string(address_pattern v) { return name_of(address_names, v); }
const char *to_string(size_dist v) { return name_of(size_names, v); }
const char *to_string(think_dist v) { return name_of(think_names, v); }

const std::vector<size_table_entry> &airline_size_table() {
    // Fig 26: % of the workload, direction, size in KB (1 KB = 2 sectors).
    static const std::vector<size_table_entry> t = {
        {20, 2, 1}, {20, 4, 1}, {33, 8, 1}, {9, 48, 1}, {9, 2, 0}, {7, 16, 0}, {2, 48, 0},
    };
    return t;
}

std::string scenario::where(const std::string &key) const {
    auto it = origin.find(key);
    if (it != origin.end()) return it->second;
    return file.empty() ? std::string("<scenario>") : file;
}

scenario_error scenario::error(const std::string &key, const std::string &problem,
                               const std::string &expected) const {
    return scenario_error(fmt::format("{}: key '{}': {}; expected {}", where(key), key, problem, expected));
}

static nlohmann::json size_table_json(const std::vector<size_table_entry> &table) {
    nlohmann::json t = nlohmann::json::array();
    for (const auto &e : table) {
        nlohmann::json row = {e.weight, e.sectors};
        if (e.direction >= 0) row.push_back(e.direction ? "read" : "write");
        t.push_back(row);
    }
    return t;
}

nlohmann::json scenario::to_json() const {
    nlohmann::json j;
    j["disks"] = {{"spec", disks.spec_path},
                  {"name", disks.spec_name},
                  {"count", disks.count},
                  {"spindle_sync", disks.spindle_sync}};
    if (disks.bulk_sector_transfer_ms < 0) j["disks"]["bulk_sector_transfer_ms"] = "spec";
    else j["disks"]["bulk_sector_transfer_ms"] = disks.bulk_sector_transfer_ms;
    j["host"] = {{"layout", to_string(host.layout)}, {"stripe_unit_sectors", host.stripe_unit_sectors}};
    const controller::controller_config &c = controller.config;
    const controller::firmware_config &fw = c.firmware;
    j["controller"] = {{"enabled", controller.enabled},
                       {"channels", c.channels},
                       {"initiator_id", c.initiator_id},
                       {"tags_per_disk", fw.tags_per_disk},
                       {"layout", controller::to_string(fw.array)},
                       {"firmware", fw.firmware},
                       {"parity_rotation", name_of(rotation_names, fw.parity_rotation)},
                       {"mirror_copies", fw.mirror_copies},
                       {"sr", {{"ds", fw.sr_ds}, {"dr", fw.sr_dr}, {"dm", fw.sr_dm}}},
                       {"reconstruct_write_fraction", fw.parity_writes.reconstruct_write_fraction},
                       {"rmw", name_of(rmw_names, fw.parity_writes.read_rotate_write)},
                       {"rrw_order", name_of(rrw_order_names, fw.rrw_parity_after_data)},
                       {"scheduler", controller::scheduler_name(fw)},
                       {"cvscan_r", fw.cvscan_r},
                       {"predictor", {{"feedback", fw.predictor.slack.feedback},
                                      {"slack_sectors", fw.predictor.slack.initial_sectors},
                                      {"target_miss_rate", fw.predictor.slack.target_miss_rate},
                                      {"reference_read_interval_ms", fw.predictor.reference_interval_ms}}},
                       {"delayed_writes", {{"foreground_propagation", fw.delayed_writes.foreground_propagation},
                                           {"threshold_entries", fw.delayed_writes.threshold_entries}}},
                       {"write_intent_log", fw.write_intent_log},
                       {"table_entry_bytes", fw.table_entry_bytes},
                       {"fail_disk", fw.fail_disk},
                       {"fail_after_requests", fw.fail_after_requests}};
    {
        const controller::parity_logging_config &pl = fw.parity_logging;
        j["controller"]["parity_logging"] = {{"regions_per_disk", pl.regions_per_disk},
                                             {"log_stripes", pl.log_stripes},
                                             {"log_to_parity_ratio", pl.log_to_parity},
                                             {"log_write_tracks", pl.log_write_tracks},
                                             {"buffer_tracks", pl.buffer_tracks},
                                             {"buffer_policy", name_of(buffer_policy_names, pl.policy)},
                                             {"preread", pl.preread},
                                             {"reintegration_buffer_sectors", pl.reintegration_buffer_sectors},
                                             {"track_sectors", pl.track_sectors},
                                             {"steady_state_start", pl.steady_state_start}};
    }
    j["controller"]["cpu"] = {{"mhz", c.cpu.mhz}, {"cores", c.cpu.cores}, {"scheduling", to_string(c.cpu.scheduling)}};
    const auto &k = c.cpu.costs;
    j["controller"]["cost"] = {{"host_command_cycles", k.host_command_cycles},
                               {"physical_command_cycles", k.physical_command_cycles},
                               {"completion_interrupt_cycles", k.completion_interrupt_cycles},
                               {"table_update_cycles", k.table_update_cycles},
                               {"schedule_base_cycles", k.schedule_base_cycles},
                               {"schedule_per_entry_cycles", k.schedule_per_entry_cycles},
                               {"dma_setup_cycles", k.dma_setup_cycles},
                               {"xor_setup_cycles", k.xor_setup_cycles}};
    const auto &b = c.bus;
    j["controller"]["bus"] = {{"preset", to_string(b.preset)},
                              {"width_bits", b.width_bits},
                              {"mtransfers_per_s", b.mtransfers_per_s},
                              {"fairness", b.fairness},
                              {"arbitration_us", b.phases.arbitration_us},
                              {"bus_free_us", b.phases.bus_free_us},
                              {"selection_us", b.phases.selection_us},
                              {"reselection_us", b.phases.reselection_us},
                              {"message_us", b.phases.message_us},
                              {"command_us", b.phases.command_us},
                              {"status_us", b.phases.status_us}};
    j["controller"]["dram"] = {{"width_bits", c.dram.width_bits},
                               {"mtransfers_per_s", c.dram.mtransfers_per_s},
                               {"burst_bytes", c.dram.burst_bytes},
                               {"capacity_mib", double(c.dram.capacity_bytes) / double(1 << 20)},
                               {"arbitration", to_string(c.dram.arbitration)}};
    j["controller"]["nvram"] = {{"capacity_kib", double(c.nvram.capacity_bytes) / 1024.0},
                                {"latency_ns", c.nvram.latency_ns},
                                {"mb_per_s", c.nvram.mb_per_s}};
    j["controller"]["xor"] = {{"mhz", c.xor_engine.mhz},
                              {"bytes_per_cycle", c.xor_engine.bytes_per_cycle},
                              {"setup_cycles", c.xor_engine.setup_cycles},
                              {"queue_depth", c.xor_engine.queue_depth}};
    j["controller"]["host_link"] = {{"preset", to_string(c.host_link.kind)},
                                    {"lanes", c.host_link.lanes},
                                    {"generation", c.host_link.generation},
                                    {"dma_latency_us", c.host_link.dma_latency_us}};
    j["host"] = {{"layout", to_string(host.layout)}, {"stripe_unit_sectors", host.stripe_unit_sectors}};
    const auto &w = workload;
    nlohmann::json schedule = nlohmann::json::array();
    for (const auto &r : w.rate_schedule) schedule.push_back({r.start_s, r.iops});
    j["workload"] = {{"arrival", to_string(w.arrival)},
                     {"mean_interarrival_ms", w.mean_interarrival_ms},
                     {"rate_schedule", schedule},
                     {"outstanding", w.outstanding},
                     {"think_time_ms", w.think_time_ms},
                     {"think_time_distribution", to_string(w.think_time_distribution)},
                     {"think_time_cv", w.think_time_cv},
                     {"target_iops", w.target_iops},
                     {"read_fraction", w.read_fraction},
                     {"data_tokens", w.data_tokens},
                     {"size_distribution", to_string(w.size_distribution)},
                     {"request_sectors", w.request_sectors},
                     {"size_min_sectors", w.size_min_sectors},
                     {"size_max_sectors", w.size_max_sectors},
                     {"size_mean_sectors", w.size_mean_sectors},
                     {"size_table", size_table_json(w.size_table)},
                     {"alignment_sectors", w.alignment_sectors},
                     {"address", to_string(w.address)},
                     {"local_stddev_sectors", w.local_stddev_sectors},
                     {"locality_tracks", w.locality_tracks},
                     {"hot_space_fraction", w.hot_space_fraction},
                     {"hot_access_fraction", w.hot_access_fraction},
                     {"random_fraction", w.random_fraction},
                     {"requests", w.requests},
                     {"warmup_requests", w.warmup_requests},
                     {"seed", w.seed}};
    nlohmann::json device_map = nlohmann::json::object();
    for (const auto &[dev, offset] : trace.device_map) device_map[dev] = offset;
    j["trace"] = {{"file", trace.file},
                  {"format", to_string(trace.format)},
                  {"time_scale", trace.time_scale},
                  {"device_map", device_map},
                  {"beyond_capacity", to_string(trace.beyond_capacity)},
                  {"blkparse_action", std::string(1, trace.blkparse_action)}};
    j["measurement"] = {{"ci_target", measurement.ci_target},
                        {"ci_level", measurement.ci_level},
                        {"min_requests", measurement.min_requests},
                        {"seeds", measurement.seeds}};
    j["output"] = {{"histogram_bucket_ms", output.histogram_bucket_ms},
                   {"histogram_max_ms", output.histogram_max_ms},
                   {"waves", output.waves},
                   {"requests_csv", output.requests_csv},
                   {"timeline", output.timeline}};
    return j;
}

namespace {

// A value to read, and where it came from.
struct value_ref {
    YAML::Node node;
    std::string where;
    bool from_set = false;
    std::string file;  // the scenario file, for the marks of list items (empty for --set)
};

struct load_context {
    fs::path scenario_dir;
    std::string repo_root;
};

std::string mark_str(const std::string &file, const YAML::Mark &m) {
    if (m.is_null()) return file + ":1:1";
    return fmt::format("{}:{}:{}", file, m.line + 1, m.column + 1);
}

[[noreturn]] void fail_at(const std::string &where, const std::string &key, const std::string &problem,
                          const std::string &expected) {
    throw scenario_error(fmt::format("{}: key '{}': {}; expected {}", where, key, problem, expected));
}

[[noreturn]] void fail(const value_ref &v, const std::string &key, const std::string &problem,
                       const std::string &expected) {
    fail_at(v.where, key, problem, expected);
}

// Where a part of a (list or map) value is: its own mark in a file, the whole value for --set.
std::string where_in(const value_ref &v, const YAML::Node &part) {
    if (v.from_set || v.file.empty() || part.Mark().is_null()) return v.where;
    return mark_str(v.file, part.Mark());
}

const char *kind_of(const YAML::Node &n) {
    switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "empty";
    default: return "a scalar";
    }
}

std::string scalar(const value_ref &v, const std::string &key, const std::string &expected) {
    if (v.node.IsNull()) fail(v, key, "missing value", expected);
    if (!v.node.IsScalar()) fail(v, key, fmt::format("value is {}", kind_of(v.node)), expected);
    return v.node.Scalar();
}

// A part of a list or map value as a value of its own (for the scalar readers below).
value_ref part_of(const value_ref &v, const YAML::Node &part) { return {part, where_in(v, part), v.from_set, v.file}; }

double get_double(const value_ref &v, const std::string &key, const std::string &expected, double lo,
                  bool lo_open, double hi) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(d))
        fail(v, key, fmt::format("'{}' is not a number", s), expected);
    if (d < lo || (lo_open && d == lo) || d > hi) fail(v, key, fmt::format("{} is out of range", s), expected);
    return d;
}

int64_t get_int(const value_ref &v, const std::string &key, const std::string &expected, int64_t lo,
                int64_t hi) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, key, fmt::format("'{}' is not an integer", s), expected);
    if (i < lo || i > hi) fail(v, key, fmt::format("{} is out of range", s), expected);
    return i;
}

uint64_t get_uint64(const value_ref &v, const std::string &key, const std::string &expected) {
    const std::string s = scalar(v, key, expected);
    char *end = nullptr;
    errno = 0;
    const unsigned long long i = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || s[0] == '+' || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, key, fmt::format("'{}' is not a non-negative integer", s), expected);
    return i;
}

bool get_bool(const value_ref &v, const std::string &key, const std::string &expected) {
    const std::string s = scalar(v, key, expected);
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    fail(v, key, fmt::format("'{}' is not a boolean", s), expected);
}

template <class E>
E get_enum(const value_ref &v, const std::string &key, const std::string &expected,
           const std::vector<std::pair<const char *, E>> &choices) {
    const std::string s = scalar(v, key, expected);
    for (const auto &c : choices)
        if (s == c.first) return c.second;
    fail(v, key, fmt::format("'{}' is not a valid choice", s), expected);
}

using apply_fn = std::function<void(scenario &, const value_ref &, const load_context &)>;

struct key_def {
    scenario_key_info info;
    apply_fn apply;
};

std::string resolve_file(const std::string &given, const value_ref &v, const std::string &key,
                         const std::string &expected, const load_context &ctx) {
    const fs::path p(given);
    std::vector<fs::path> tries;
    if (p.is_absolute()) {
        tries.push_back(p);
    } else {
        if (v.from_set) tries.push_back(fs::current_path() / p);
        tries.push_back(ctx.scenario_dir / p);
        if (!ctx.repo_root.empty()) tries.push_back(fs::path(ctx.repo_root) / p);
    }
    std::string tried;
    std::set<std::string> seen;
    for (const auto &t : tries) {
        std::error_code ec;
        const std::string norm = t.lexically_normal().string();
        if (fs::is_regular_file(t, ec)) return norm;
        if (seen.insert(norm).second) tried += (tried.empty() ? "" : ", ") + norm;
    }
    fail(v, key, fmt::format("file '{}' not found (tried {})", given, tried), expected);
}

// A list value (an empty value is an empty list).
const YAML::Node &list_of(const value_ref &v, const std::string &key, const std::string &expected) {
    if (!v.node.IsNull() && !v.node.IsSequence()) fail(v, key, fmt::format("value is {}", kind_of(v.node)), expected);
    return v.node;
}

std::vector<rate_step> get_rate_schedule(const value_ref &v, const std::string &key, const std::string &e) {
    std::vector<rate_step> out;
    for (const auto &item : list_of(v, key, e)) {
        const value_ref iv = part_of(v, item);
        if (!item.IsSequence() || item.size() != 2)
            fail(iv, key, fmt::format("a step is {}", item.IsSequence() ? "not a pair" : kind_of(item)), e);
        rate_step r;
        r.start_s = get_double(part_of(v, item[0]), key, e, 0, false, 1e12);
        r.iops = get_double(part_of(v, item[1]), key, e, 0, false, 1e12);
        if (out.empty() && r.start_s != 0) fail(iv, key, "the first step does not start at 0", e);
        if (!out.empty() && r.start_s <= out.back().start_s) fail(iv, key, "steps are not in ascending time", e);
        out.push_back(r);
    }
    if (!out.empty()) {
        bool any = false;
        for (const auto &r : out) any = any || r.iops > 0;
        if (!any) fail(v, key, "every rate is 0", e);
    }
    return out;
}

std::vector<size_table_entry> get_size_table(const value_ref &v, const std::string &key, const std::string &e) {
    if (v.node.IsScalar()) {
        if (v.node.Scalar() == "airline") return airline_size_table();
        fail(v, key, fmt::format("'{}' is not a known table", v.node.Scalar()), e);
    }
    std::vector<size_table_entry> out;
    double total = 0;
    for (const auto &item : list_of(v, key, e)) {
        const value_ref iv = part_of(v, item);
        if (!item.IsSequence() || item.size() < 2 || item.size() > 3)
            fail(iv, key, fmt::format("a row is {}", item.IsSequence() ? "not 2 or 3 items" : kind_of(item)), e);
        size_table_entry r;
        r.weight = get_double(part_of(v, item[0]), key, e, 0, false, 1e12);
        r.sectors = static_cast<uint32_t>(get_int(part_of(v, item[1]), key, e, 1, 65536));
        if (item.size() == 3)
            r.direction = get_enum<int>(part_of(v, item[2]), key, e, names<int>{{"read", 1}, {"write", 0}});
        total += r.weight;
        out.push_back(r);
    }
    if (out.empty() || total <= 0) fail(v, key, "no row has a positive weight", e);
    return out;
}

std::vector<std::pair<std::string, uint64_t>> get_device_map(const value_ref &v, const std::string &key,
                                                             const std::string &e) {
    if (!v.node.IsNull() && !v.node.IsMap()) fail(v, key, fmt::format("value is {}", kind_of(v.node)), e);
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto &it : v.node) {
        if (!it.first.IsScalar()) fail(part_of(v, it.first), key, "a device name is not a scalar", e);
        const std::string dev = it.first.Scalar();
        for (const auto &o : out)
            if (o.first == dev) fail(part_of(v, it.first), key, fmt::format("device '{}' given twice", dev), e);
        out.emplace_back(dev, get_uint64(part_of(v, it.second), key, e));
    }
    return out;
}

// controller.firmware's accepted values: the registered firmware families and the layouts each serves.
std::string firmware_expected() {
    controller::register_builtin_plugins();
    std::string families;
    for (const auto &[name, f] : controller::firmware_registry::instance().entries())
        families += (families.empty() ? "" : ", ") + name + " (" + controller::join_names(f.layouts) + ")";
    return "a registered firmware family: " + families + "; \"\": the family that serves controller.layout";
}

// controller.scheduler's accepted values: every registered scheduler.
std::string scheduler_expected() {
    controller::register_builtin_plugins();
    std::vector<std::string> plugins;
    for (const std::string &name : controller::scheduler_registry::instance().names()) {
        bool builtin = false;
        for (const auto &b : scheduler_names) builtin = builtin || name == b.first;
        if (!builtin) plugins.push_back(name);
    }
    return one_of(scheduler_names) +
           (plugins.empty() ? std::string() : ", or a registered plug-in: " + controller::join_names(plugins));
}

// The key table. Each row: dotted key, default (YAML text, "" = required), accepted form, and how
// the value lands in the scenario.
class key_table {
public:
    template <class Fn>
    void add(const char *key, const char *fallback, const std::string &expected, Fn fn) {
        const std::string k = key, e = expected;
        m_defs.push_back({{key, fallback, expected}, [k, e, fn](scenario &s, const value_ref &v,
                                                                const load_context &ctx) { fn(s, v, k, e, ctx); }});
    }
    // A number in [lo, hi] (lo excluded when lo_open).
    template <class Ref>
    void number(const char *key, const char *fallback, const char *expected, double lo, bool lo_open, double hi,
                Ref ref) {
        add(key, fallback, expected, [=](scenario &s, const value_ref &v, const std::string &k, const std::string &e,
                                         const load_context &) { ref(s) = get_double(v, k, e, lo, lo_open, hi); });
    }
    template <class Ref>
    void integer(const char *key, const char *fallback, const char *expected, int64_t lo, int64_t hi, Ref ref) {
        add(key, fallback, expected, [=](scenario &s, const value_ref &v, const std::string &k, const std::string &e,
                                         const load_context &) {
            ref(s) = static_cast<std::remove_reference_t<decltype(ref(s))>>(get_int(v, k, e, lo, hi));
        });
    }
    template <class Ref>
    void boolean(const char *key, const char *fallback, Ref ref) {
        add(key, fallback, "true or false", [=](scenario &s, const value_ref &v, const std::string &k,
                                                const std::string &e, const load_context &) { ref(s) = get_bool(v, k, e); });
    }
    template <class E, class Ref>
    void choice(const char *key, const char *fallback, const names<E> &choices, Ref ref) {
        add(key, fallback, one_of(choices), [=](scenario &s, const value_ref &v, const std::string &k,
                                                const std::string &e,
                                                const load_context &) { ref(s) = get_enum<E>(v, k, e, choices); });
    }
    std::vector<key_def> take() { return std::move(m_defs); }

private:
    std::vector<key_def> m_defs;
};

#define FIELD(path) [](scenario & s_) -> auto & { return s_.path; }

const std::vector<key_def> &key_defs() {
    static const std::vector<key_def> defs = [] {
        key_table t;
        using ctx_t = const load_context &;
        using str = const std::string &;
        t.add("disks.spec", "", "a path to a DiskSim .diskspecs file, relative to the scenario file or the repo root",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t ctx) {
                  s.disks.spec_path = resolve_file(scalar(v, k, e), v, k, e, ctx);
              });
        t.add("disks.name", "\"\"", "the name of a disksim_disk block in the spec file, or \"\" when it holds one",
              [](scenario &s, const value_ref &v, str k, str, ctx_t) {
                  s.disks.spec_name = v.node.IsNull() ? std::string() : scalar(v, k, "a disk name or \"\"");
              });
        t.integer("disks.count", "4", "an integer in [1, 256]", 1, 256, FIELD(disks.count));
        t.boolean("disks.spindle_sync", "false", FIELD(disks.spindle_sync));
        t.add("disks.bulk_sector_transfer_ms", "spec",
              "spec (the spec's Bulk sector transfer time) or a number >= 0 (ms per sector)",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  if (scalar(v, k, e) == "spec") s.disks.bulk_sector_transfer_ms = -1;
                  else s.disks.bulk_sector_transfer_ms = get_double(v, k, e, 0, false, 1e6);
              });
        t.choice("host.layout", "stripe", layout_names, FIELD(host.layout));
        t.integer("host.stripe_unit_sectors", "64", "an integer in [1, 2^31)", 1, INT32_MAX,
                  FIELD(host.stripe_unit_sectors));

        // The controller (controller/controller_top.h); groups read as dotted paths.
        t.boolean("controller.enabled", "false", FIELD(controller.enabled));
        t.integer("controller.channels", "1", "an integer in [1, 16]", 1, 16, FIELD(controller.config.channels));
        t.integer("controller.initiator_id", "7", "an integer in [0, 15] (a SCSI ID)", 0, 15,
                  FIELD(controller.config.initiator_id));
        t.integer("controller.tags_per_disk", "0", "an integer in [0, 256] (0: the drive's Max queue length)", 0, 256,
                  FIELD(controller.config.firmware.tags_per_disk));
        t.choice("controller.layout", "raid0", array_names, FIELD(controller.config.firmware.array));
        t.add("controller.firmware", "\"\"", firmware_expected(),
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  s.controller.config.firmware.firmware = v.node.IsNull() ? std::string() : scalar(v, k, e);
              });
        t.choice("controller.parity_rotation", "left-symmetric", rotation_names,
                 FIELD(controller.config.firmware.parity_rotation));
        t.integer("controller.mirror_copies", "2", "an integer in [2, 16] (raid10 only)", 2, 16,
                  FIELD(controller.config.firmware.mirror_copies));
        t.integer("controller.sr.ds", "1", "an integer in [1, 256] (sr_array: seek reduction, the outer 1/Ds)", 1, 256,
                  FIELD(controller.config.firmware.sr_ds));
        t.integer("controller.sr.dr", "1", "an integer in [1, 64] (sr_array: rotational replicas per disk)", 1, 64,
                  FIELD(controller.config.firmware.sr_dr));
        t.integer("controller.sr.dm", "1", "an integer in [1, 256] (sr_array: copies on other disks)", 1, 256,
                  FIELD(controller.config.firmware.sr_dm));
        t.number("controller.reconstruct_write_fraction", "0.5",
                 "a number >= 0 (raid4/raid5: reconstruct-write when a write covers at least this fraction of "
                 "the stripe's data units)",
                 0, false, 1e6, FIELD(controller.config.firmware.parity_writes.reconstruct_write_fraction));
        t.choice("controller.rmw", "separate", rmw_names,
                 FIELD(controller.config.firmware.parity_writes.read_rotate_write));
        t.choice("controller.rrw_order", "together", rrw_order_names,
                 FIELD(controller.config.firmware.rrw_parity_after_data));
        // Parity logging (controller.layout parity_logging; Stodolsky et al. 1993). Defaults are the
        // paper's (controller_config.h parity_logging_config).
        t.integer("controller.parity_logging.regions_per_disk", "0",
                  "an integer in [0, 1000000] (B; 0: the paper's search within 10% of sqrt(tracks per disk / K))", 0,
                  1000000, FIELD(controller.config.firmware.parity_logging.regions_per_disk));
        t.integer("controller.parity_logging.log_stripes", "4", "an integer in [1, 64] (L: sublogs per region)", 1, 64,
                  FIELD(controller.config.firmware.parity_logging.log_stripes));
        t.number("controller.parity_logging.log_to_parity_ratio", "1",
                 "a number in (0, 100] (A = log / parity space per region; the paper's C_L = C_P is 1)", 0, true, 100,
                 FIELD(controller.config.firmware.parity_logging.log_to_parity));
        t.integer("controller.parity_logging.log_write_tracks", "1",
                  "an integer in [1, 64] (K: tracks buffered per region before a log write)", 1, 64,
                  FIELD(controller.config.firmware.parity_logging.log_write_tracks));
        t.integer("controller.parity_logging.buffer_tracks", "0",
                  "an integer in [0, 1000000] (track buffers in NVRAM; 0: K x regions, the paper's KB)", 0, 1000000,
                  FIELD(controller.config.firmware.parity_logging.buffer_tracks));
        t.choice("controller.parity_logging.buffer_policy", "global", buffer_policy_names,
                 FIELD(controller.config.firmware.parity_logging.policy));
        t.boolean("controller.parity_logging.preread", "true", FIELD(controller.config.firmware.parity_logging.preread));
        t.integer("controller.parity_logging.reintegration_buffer_sectors", "0",
                  "an integer in [0, 1000000000] (0: one region's parity, the paper's VT/B tracks)", 0, 1000000000,
                  FIELD(controller.config.firmware.parity_logging.reintegration_buffer_sectors));
        t.integer("controller.parity_logging.track_sectors", "0",
                  "an integer in [0, 100000] (sectors per track for region sizing; 0: the drives' outermost zone)", 0,
                  100000, FIELD(controller.config.firmware.parity_logging.track_sectors));
        // Steady state at once: each region's log starts at a uniformly random whole-track fill
        // (the stationary fill level under uniform writes; controller/steady_state_log_fill.h),
        // seeded from workload.seed. The pre-filled log holds no records, only timed sublog reads.
        t.boolean("controller.parity_logging.steady_state_start", "false",
                  FIELD(controller.config.firmware.parity_logging.steady_state_start));
        t.integer("controller.fail_disk", "-1", "an integer in [-1, 255] (a disk marked lost mid-run; -1: none)", -1,
                  255, FIELD(controller.config.firmware.fail_disk));
        t.integer("controller.fail_after_requests", "0",
                  "an integer in [0, 10^12] (the host request, counted from 0, at which fail_disk is lost)", 0,
                  1000000000000LL, FIELD(controller.config.firmware.fail_after_requests));
        t.add("controller.scheduler", "fcfs", scheduler_expected(),
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  // A built-in policy, else a scheduler plug-in registered by name.
                  auto &fw = s.controller.config.firmware;
                  const std::string name = scalar(v, k, e);
                  fw.scheduler_plugin.clear();
                  for (const auto &[n, policy] : scheduler_names)
                      if (n == name) {
                          fw.scheduler = policy;
                          return;
                      }
                  if (!controller::scheduler_registry::instance().find(name))
                      fail(v, k, fmt::format("'{}' is not a valid choice", name), e);
                  fw.scheduler = controller::scheduling_policy::fcfs;
                  fw.scheduler_plugin = name;
              });
        t.number("controller.cvscan_r", "0.2", "a number in [0, 1] (cvscan only)", 0, false, 1,
                 FIELD(controller.config.firmware.cvscan_r));
        t.boolean("controller.predictor.feedback", "true", FIELD(controller.config.firmware.predictor.slack.feedback));
        t.number("controller.predictor.slack_sectors", "2",
                 "a number in [0, 64] (satf: the initial k-sector slack)", 0, false, 64,
                 FIELD(controller.config.firmware.predictor.slack.initial_sectors));
        t.number("controller.predictor.target_miss_rate", "0.01", "a number in (0, 1] (satf: the feedback's target)",
                 0, true, 1, FIELD(controller.config.firmware.predictor.slack.target_miss_rate));
        t.number("controller.predictor.reference_read_interval_ms", "120000",
                 "a number >= 0 (ms; a disk idle this long gets a reference read; 0: none; Yu et al.: two "
                 "minutes)",
                 0, false, 1e9, FIELD(controller.config.firmware.predictor.reference_interval_ms));
        t.boolean("controller.delayed_writes.foreground_propagation", "false",
                  FIELD(controller.config.firmware.delayed_writes.foreground_propagation));
        t.integer("controller.delayed_writes.threshold_entries", "10000",
                  "an integer in [1, 1000000] (delayed-write table entries before they are forced to the "
                  "foreground; Yu et al. 3.4: 10,000)",
                  1, 1000000, FIELD(controller.config.firmware.delayed_writes.threshold_entries));
        t.boolean("controller.write_intent_log", "true", FIELD(controller.config.firmware.write_intent_log));
        t.integer("controller.table_entry_bytes", "64", "an integer in [0, 65536]", 0, 65536,
                  FIELD(controller.config.firmware.table_entry_bytes));
        t.number("controller.cpu.mhz", "600", "a number > 0 (MHz)", 0, true, 1e6, FIELD(controller.config.cpu.mhz));
        t.integer("controller.cpu.cores", "1", "an integer in [1, 64]", 1, 64, FIELD(controller.config.cpu.cores));
        t.choice("controller.cpu.scheduling", "shared", cpu_scheduling_names, FIELD(controller.config.cpu.scheduling));
        const char *cycles = "an integer in [0, 10^9] (cycles)";
        // The firmware's cost table, key by key: (name, default, field).
        using costs = rtl_models::cpu_cost_table;
        const std::tuple<const char *, const char *, uint64_t costs::*> cost_keys[] = {
            {"controller.cost.host_command_cycles", "3000", &costs::host_command_cycles},
            {"controller.cost.physical_command_cycles", "2000", &costs::physical_command_cycles},
            {"controller.cost.completion_interrupt_cycles", "1500", &costs::completion_interrupt_cycles},
            {"controller.cost.table_update_cycles", "500", &costs::table_update_cycles},
            {"controller.cost.schedule_base_cycles", "200", &costs::schedule_base_cycles},
            {"controller.cost.schedule_per_entry_cycles", "50", &costs::schedule_per_entry_cycles},
            {"controller.cost.dma_setup_cycles", "300", &costs::dma_setup_cycles},
            {"controller.cost.xor_setup_cycles", "300", &costs::xor_setup_cycles}};
        for (const auto &[key, fallback, field] : cost_keys)
            t.integer(key, fallback, cycles, 0, 1000000000,
                      [field = field](scenario &s_) -> uint64_t & { return s_.controller.config.cpu.costs.*field; });
        t.add("controller.bus.preset", "ultra160", one_of(scsi_preset_names),
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  using rtl_models::scsi_preset;
                  const scsi_preset p = get_enum<scsi_preset>(v, k, e, scsi_preset_names);
                  rtl_models::scsi_bus_config &b = s.controller.config.bus;
                  const rtl_models::scsi_bus_config preset = rtl_models::scsi_bus_config::with_preset(p);
                  b.preset = p;
                  if (p != scsi_preset::custom) {
                      b.width_bits = preset.width_bits;
                      b.mtransfers_per_s = preset.mtransfers_per_s;
                  }
              });
        t.add("controller.bus.width_bits", "16", "8 or 16 (custom preset only)",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  const int w = int(get_int(v, k, e, 8, 16));
                  if (w != 8 && w != 16) fail(v, k, fmt::format("{} is not a SCSI width", w), e);
                  s.controller.config.bus.width_bits = w;
              });
        t.number("controller.bus.mtransfers_per_s", "80", "a number >= 0 (MT/s, custom preset only; 0 = unlimited)", 0,
                 false, 1e6, FIELD(controller.config.bus.mtransfers_per_s));
        t.boolean("controller.bus.fairness", "false", FIELD(controller.config.bus.fairness));
        const char *micro = "a number >= 0 (us)";
        t.number("controller.bus.arbitration_us", "2.4", micro, 0, false, 1e6,
                 FIELD(controller.config.bus.phases.arbitration_us));
        t.number("controller.bus.bus_free_us", "0.8", micro, 0, false, 1e6, FIELD(controller.config.bus.phases.bus_free_us));
        t.number("controller.bus.selection_us", "1.2", micro, 0, false, 1e6,
                 FIELD(controller.config.bus.phases.selection_us));
        t.number("controller.bus.reselection_us", "1.2", micro, 0, false, 1e6,
                 FIELD(controller.config.bus.phases.reselection_us));
        t.number("controller.bus.message_us", "0.6", micro, 0, false, 1e6, FIELD(controller.config.bus.phases.message_us));
        t.number("controller.bus.command_us", "2", micro, 0, false, 1e6, FIELD(controller.config.bus.phases.command_us));
        t.number("controller.bus.status_us", "0.4", micro, 0, false, 1e6, FIELD(controller.config.bus.phases.status_us));
        t.integer("controller.dram.width_bits", "64", "an integer in [8, 1024]", 8, 1024,
                  FIELD(controller.config.dram.width_bits));
        t.number("controller.dram.mtransfers_per_s", "200", "a number >= 0 (MT/s; 0 = unlimited bandwidth)", 0, false,
                 1e6, FIELD(controller.config.dram.mtransfers_per_s));
        t.integer("controller.dram.burst_bytes", "32", "an integer in [0, 4096] (0: byte granularity)", 0, 4096,
                  FIELD(controller.config.dram.burst_bytes));
        t.add("controller.dram.capacity_mib", "128", "an integer in [0, 1048576] (MiB; 0 = unlimited)",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  s.controller.config.dram.capacity_bytes = uint64_t(get_int(v, k, e, 0, 1 << 20)) << 20;
              });
        t.choice("controller.dram.arbitration", "round_robin", dram_arbitration_names,
                 FIELD(controller.config.dram.arbitration));
        t.add("controller.nvram.capacity_kib", "512", "an integer in [1, 1048576] (KiB)",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  s.controller.config.nvram.capacity_bytes = uint64_t(get_int(v, k, e, 1, 1 << 20)) << 10;
              });
        t.number("controller.nvram.latency_ns", "150", "a number >= 0 (ns)", 0, false, 1e9,
                 FIELD(controller.config.nvram.latency_ns));
        t.number("controller.nvram.mb_per_s", "100", "a number >= 0 (MB/s; 0 = unlimited)", 0, false, 1e9,
                 FIELD(controller.config.nvram.mb_per_s));
        t.number("controller.xor.mhz", "200", "a number > 0 (MHz)", 0, true, 1e6, FIELD(controller.config.xor_engine.mhz));
        t.number("controller.xor.bytes_per_cycle", "8", "a number > 0", 0, true, 1e6,
                 FIELD(controller.config.xor_engine.bytes_per_cycle));
        t.integer("controller.xor.setup_cycles", "100", cycles, 0, 1000000000,
                  FIELD(controller.config.xor_engine.setup_cycles));
        t.integer("controller.xor.queue_depth", "8", "an integer in [1, 1024]", 1, 1024,
                  FIELD(controller.config.xor_engine.queue_depth));
        t.choice("controller.host_link.preset", "pcix", host_link_names, FIELD(controller.config.host_link.kind));
        t.add("controller.host_link.lanes", "8", "1, 2, 4, 8 or 16 (pcie only)",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  const int n = int(get_int(v, k, e, 1, 16));
                  if (n & (n - 1)) fail(v, k, fmt::format("{} is not a PCIe link width", n), e);
                  s.controller.config.host_link.lanes = n;
              });
        t.integer("controller.host_link.generation", "1", "an integer in [1, 4] (pcie only)", 1, 4,
                  FIELD(controller.config.host_link.generation));
        t.number("controller.host_link.dma_latency_us", "1", "a number >= 0 (us)", 0, false, 1e6,
                 FIELD(controller.config.host_link.dma_latency_us));

        t.choice("workload.arrival", "closed", arrival_names, FIELD(workload.arrival));
        t.number("workload.mean_interarrival_ms", "10", "a number > 0", 0, true, 1e12,
                 FIELD(workload.mean_interarrival_ms));
        t.add("workload.rate_schedule", "[]",
              "a list of [start_s, iops] steps, the first at 0, in ascending time, e.g. [[0, 50], [60, 100]]",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  s.workload.rate_schedule = get_rate_schedule(v, k, e);
              });
        t.integer("workload.outstanding", "8", "an integer in [1, 100000]", 1, 100000, FIELD(workload.outstanding));
        t.number("workload.think_time_ms", "0", "a number >= 0", 0, false, 1e12, FIELD(workload.think_time_ms));
        t.choice("workload.think_time_distribution", "constant", think_names, FIELD(workload.think_time_distribution));
        t.number("workload.think_time_cv", "0.25", "a number in [0, 10]", 0, false, 10, FIELD(workload.think_time_cv));
        t.number("workload.target_iops", "0", "a number >= 0", 0, false, 1e12, FIELD(workload.target_iops));
        t.boolean("workload.data_tokens", "false", FIELD(workload.data_tokens));
        t.number("workload.read_fraction", "0.67", "a number in [0, 1]", 0, false, 1, FIELD(workload.read_fraction));
        t.choice("workload.size_distribution", "constant", size_names, FIELD(workload.size_distribution));
        t.integer("workload.request_sectors", "8", "an integer in [1, 65536]", 1, 65536,
                  FIELD(workload.request_sectors));
        t.integer("workload.size_min_sectors", "1", "an integer in [1, 65536]", 1, 65536,
                  FIELD(workload.size_min_sectors));
        t.integer("workload.size_max_sectors", "256", "an integer in [1, 65536]", 1, 65536,
                  FIELD(workload.size_max_sectors));
        t.number("workload.size_mean_sectors", "8", "a number > 1", 1, true, 65536, FIELD(workload.size_mean_sectors));
        t.add("workload.size_table", "airline",
              "airline, or a list of [weight, sectors] or [weight, sectors, read|write] rows",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) { s.workload.size_table = get_size_table(v, k, e); });
        t.integer("workload.alignment_sectors", "8", "an integer in [0, 2^31) (0: the request's own size)", 0,
                  INT32_MAX, FIELD(workload.alignment_sectors));
        t.choice("workload.address", "uniform", address_names, FIELD(workload.address));
        t.number("workload.local_stddev_sectors", "10000", "a number >= 0", 0, false, 1e15,
                 FIELD(workload.local_stddev_sectors));
        t.number("workload.locality_tracks", "1", "a number >= 0", 0, false, 1e9, FIELD(workload.locality_tracks));
        t.number("workload.hot_space_fraction", "0.2", "a number in (0, 1]", 0, true, 1,
                 FIELD(workload.hot_space_fraction));
        t.number("workload.hot_access_fraction", "0.8", "a number in [0, 1]", 0, false, 1,
                 FIELD(workload.hot_access_fraction));
        t.number("workload.random_fraction", "1", "a number in [0, 1]", 0, false, 1, FIELD(workload.random_fraction));
        t.integer("workload.requests", "20000", "an integer in [1, 10^12] (0: to the end of the trace)", 0,
                  1000000000000LL, FIELD(workload.requests));
        t.integer("workload.warmup_requests", "500", "an integer in [0, 10^12]", 0, 1000000000000LL,
                  FIELD(workload.warmup_requests));
        t.add("workload.seed", "1", "a non-negative integer",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) {
                  s.workload.seed = get_uint64(v, k, e);
                  s.controller.config.firmware.parity_logging.steady_state_seed = s.workload.seed;
              });

        t.add("trace.file", "\"\"", "a path to a trace file, relative to the scenario file or the repo root",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t ctx) {
                  const std::string given = v.node.IsNull() ? std::string() : scalar(v, k, e);
                  s.trace.file = given.empty() ? given : resolve_file(given, v, k, e, ctx);
              });
        t.choice("trace.format", "disksim", format_names, FIELD(trace.format));
        t.number("trace.time_scale", "1", "a number > 0", 0, true, 1e12, FIELD(trace.time_scale));
        t.add("trace.device_map", "{}", "a map from trace device name to the first host sector of its slice",
              [](scenario &s, const value_ref &v, str k, str e, ctx_t) { s.trace.device_map = get_device_map(v, k, e); });
        t.choice("trace.beyond_capacity", "error", beyond_names, FIELD(trace.beyond_capacity));
        t.choice("trace.blkparse_action", "D", action_names, FIELD(trace.blkparse_action));

        t.number("measurement.ci_target", "0", "a number in [0, 1) (0: off)", 0, false, 0.999999,
                 FIELD(measurement.ci_target));
        t.number("measurement.ci_level", "0.95", "a number in (0.5, 1)", 0.5, true, 0.999999,
                 FIELD(measurement.ci_level));
        t.integer("measurement.min_requests", "10000", "an integer in [0, 10^12]", 0, 1000000000000LL,
                  FIELD(measurement.min_requests));
        t.integer("measurement.seeds", "1", "an integer in [1, 1000]", 1, 1000, FIELD(measurement.seeds));

        t.number("output.histogram_bucket_ms", "0.5", "a number > 0", 0, true, 1e9, FIELD(output.histogram_bucket_ms));
        t.number("output.histogram_max_ms", "200", "a number > 0, at most 100000 buckets", 0, true, 1e12,
                 FIELD(output.histogram_max_ms));
        t.boolean("output.waves", "true", FIELD(output.waves));
        t.boolean("output.requests_csv", "false", FIELD(output.requests_csv));
        t.boolean("output.timeline", "true", FIELD(output.timeline));
        return t.take();
    }();
    return defs;
}

#undef FIELD

const key_def *find_key(const std::string &key) {
    for (const auto &d : key_defs())
        if (d.info.key == key) return &d;
    return nullptr;
}

std::vector<std::string> sections() {
    std::vector<std::string> out;
    for (const auto &d : key_defs()) {
        const std::string sec = d.info.key.substr(0, d.info.key.find('.'));
        if (out.empty() || out.back() != sec) out.push_back(sec);
    }
    return out;
}

std::string join(const std::vector<std::string> &v, const char *sep = ", ") {
    std::string s;
    for (const auto &x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

std::vector<std::string> keys_of_section(const std::string &sec) {
    std::vector<std::string> out;
    for (const auto &d : key_defs())
        if (d.info.key.compare(0, sec.size() + 1, sec + ".") == 0) out.push_back(d.info.key.substr(sec.size() + 1));
    return out;
}

// A dotted prefix under which keys live (a section or a group such as controller.cpu).
bool is_group(const std::string &prefix) {
    for (const auto &d : key_defs())
        if (d.info.key.compare(0, prefix.size() + 1, prefix + ".") == 0) return true;
    return false;
}


// The mark of a value, or of its key when the value carries none (an empty value).
std::string where_of(const std::string &file, const YAML::Node &key, const YAML::Node &value) {
    const YAML::Mark m = value.Mark();
    return mark_str(file, m.is_null() ? key.Mark() : m);
}

}  // namespace

const std::vector<scenario_key_info> &scenario_keys() {
    static const std::vector<scenario_key_info> keys = [] {
        std::vector<scenario_key_info> k;
        for (const auto &d : key_defs()) k.push_back(d.info);
        return k;
    }();
    return keys;
}

scenario_override parse_override(const std::string &text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw scenario_error(fmt::format("--set {}: not a key=value pair; expected e.g. --set workload.read_fraction=1.0",
                                         text));
    return {text.substr(0, eq), text.substr(eq + 1)};
}

scenario load_scenario(const std::string &path, const std::vector<scenario_override> &overrides,
                       const std::string &repo_root) {
    const std::string map_expected = "a map with sections " + join(sections());
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw scenario_error(fmt::format("{}: scenario file not found; expected a path to a YAML scenario", path));
    if (!fs::is_regular_file(path, ec))
        throw scenario_error(fmt::format("{}: not a regular file; expected a path to a YAML scenario", path));

    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        throw scenario_error(fmt::format("{}: cannot read the scenario file; expected a readable YAML file", path));
    } catch (const YAML::ParserException &e) {
        throw scenario_error(fmt::format("{}: YAML syntax error: {}; expected {}", mark_str(path, e.mark), e.msg,
                                         map_expected));
    }
    if (root.IsNull())
        throw scenario_error(fmt::format("{}:1:1: the scenario is empty; expected {}", path, map_expected));
    if (!root.IsMap())
        throw scenario_error(fmt::format("{}: the scenario is {}; expected {}", mark_str(path, root.Mark()),
                                         kind_of(root), map_expected));

    std::map<std::string, value_ref> found;
    std::map<std::string, std::string> section_where;
    const auto known_sections = sections();
    for (const auto &sec_it : root) {
        const YAML::Node &sk = sec_it.first;
        const YAML::Node &sv = sec_it.second;
        const std::string sec = sk.IsScalar() ? sk.Scalar() : std::string("?");
        const std::string sec_where = mark_str(path, sk.Mark());
        if (std::find(known_sections.begin(), known_sections.end(), sec) == known_sections.end())
            throw scenario_error(fmt::format("{}: key '{}': unknown section; expected one of: {}", sec_where, sec,
                                             join(known_sections)));
        if (section_where.count(sec))
            throw scenario_error(fmt::format("{}: key '{}': section given twice (first at {}); expected it once",
                                             sec_where, sec, section_where[sec]));
        section_where[sec] = sec_where;
        if (!sv.IsMap())
            throw scenario_error(fmt::format("{}: key '{}': section is {}; expected a map of keys: {}",
                                             where_of(path, sk, sv), sec, kind_of(sv), join(keys_of_section(sec))));
        // Keys, and groups of keys (controller: cpu: mhz: ...) read as dotted paths.
        std::function<void(const YAML::Node &, const std::string &)> collect = [&](const YAML::Node &map,
                                                                                  const std::string &prefix) {
            for (const auto &it : map) {
                const std::string name = it.first.IsScalar() ? it.first.Scalar() : std::string("?");
                const std::string dotted = prefix + "." + name;
                const std::string key_where = mark_str(path, it.first.Mark());
                if (!find_key(dotted) && is_group(dotted)) {
                    if (!it.second.IsMap())
                        throw scenario_error(fmt::format("{}: key '{}': group is {}; expected a map of keys: {}",
                                                         where_of(path, it.first, it.second), dotted,
                                                         kind_of(it.second), join(keys_of_section(dotted))));
                    collect(it.second, dotted);
                    continue;
                }
                if (!find_key(dotted))
                    throw scenario_error(fmt::format("{}: key '{}': unknown key; expected one of: {}", key_where,
                                                     dotted, join(keys_of_section(prefix))));
                if (found.count(dotted))
                    throw scenario_error(fmt::format("{}: key '{}': given twice (first at {}); expected it once",
                                                     key_where, dotted, found[dotted].where));
                found[dotted] = value_ref{it.second, where_of(path, it.first, it.second), false, path};
            }
        };
        collect(sv, sec);
    }

    for (const auto &o : overrides) {
        const std::string where = fmt::format("--set {}={}", o.key, o.value);
        if (!find_key(o.key)) {
            std::vector<std::string> all;
            for (const auto &d : key_defs()) all.push_back(d.info.key);
            const bool is_section =
                std::find(known_sections.begin(), known_sections.end(), o.key) != known_sections.end();
            throw scenario_error(fmt::format("{}: key '{}': {}; expected one of: {}", where, o.key,
                                             is_section         ? "is a section, not a key"
                                             : is_group(o.key) ? "is a group, not a key"
                                                               : "unknown key",
                                             join(all)));
        }
        YAML::Node node;
        try {
            node = YAML::Load(o.value);
        } catch (const YAML::ParserException &e) {
            throw scenario_error(fmt::format("{}: key '{}': not a YAML value ({}); expected {}", where, o.key, e.msg,
                                             find_key(o.key)->info.expected));
        }
        found[o.key] = value_ref{node, where, true, ""};
    }

    scenario s;
    s.file = path;
    load_context ctx{fs::absolute(fs::path(path)).parent_path(), repo_root};
    for (const auto &d : key_defs()) {
        auto it = found.find(d.info.key);
        if (it == found.end()) {
            if (d.info.fallback.empty()) {
                const std::string sec = d.info.key.substr(0, d.info.key.find('.'));
                const std::string where = section_where.count(sec) ? section_where[sec] : path + ":1:1";
                throw scenario_error(
                    fmt::format("{}: key '{}': missing; expected {}", where, d.info.key, d.info.expected));
            }
            continue;
        }
        d.apply(s, it->second, ctx);
        s.origin[d.info.key] = it->second.where;
    }

    // Checks across keys.
    s.controller.config.firmware.layout = s.host.layout;
    s.controller.config.firmware.stripe_unit_sectors = s.host.stripe_unit_sectors;
    {
        using controller::array_kind;
        const auto &fw = s.controller.config.firmware;
        const int n = s.disks.count;
        const std::string kind = controller::to_string(fw.array);
        if (fw.array != array_kind::raid0 && s.host.layout == host_layout::jbod)
            throw s.error("controller.layout", fmt::format("{} while host.layout is jbod", kind),
                          "raid0 with host.layout: jbod (the other layouts stripe)");
        if (s.origin.count("controller.parity_rotation") && fw.array != array_kind::raid5 &&
            fw.array != array_kind::floating)
            throw s.error("controller.parity_rotation", fmt::format("set while controller.layout is {}", kind),
                          "it only with controller.layout: raid5");
        if (s.origin.count("controller.mirror_copies") && fw.array != array_kind::raid10)
            throw s.error("controller.mirror_copies", fmt::format("set while controller.layout is {}", kind),
                          "it only with controller.layout: raid10");
        if (s.origin.count("controller.reconstruct_write_fraction") && fw.array != array_kind::raid5 &&
            fw.array != array_kind::raid4 && fw.array != array_kind::floating)
            throw s.error("controller.reconstruct_write_fraction",
                          fmt::format("set while controller.layout is {}", kind),
                          "it only with controller.layout: raid4 or raid5");
        if (s.origin.count("controller.rrw_order") && fw.array != array_kind::floating &&
            !((fw.array == array_kind::raid5 || fw.array == array_kind::raid4) && fw.parity_writes.read_rotate_write))
            throw s.error("controller.rrw_order", fmt::format("set while controller.layout is {}{}", kind,
                                                              fw.array == array_kind::raid5 || fw.array == array_kind::raid4
                                                                  ? " with controller.rmw: separate"
                                                                  : ""),
                          "it only with controller.layout: floating, or raid4/raid5 with controller.rmw: "
                          "read_rotate_write");
        if (s.origin.count("controller.rmw") && fw.array != array_kind::raid5 && fw.array != array_kind::raid4 &&
            fw.array != array_kind::parity_logging)
            throw s.error("controller.rmw", fmt::format("set while controller.layout is {}", kind),
                          "it only with controller.layout: raid4, raid5 or parity_logging (its data preread)");
        const std::string scheduler = controller::scheduler_name(fw);
        const controller::scheduler_factory &sched = controller::scheduler_plugin(fw);
        if (s.origin.count("controller.cvscan_r") && scheduler != "cvscan")
            throw s.error("controller.cvscan_r", fmt::format("set while controller.scheduler is {}", scheduler),
                          "it only with controller.scheduler: cvscan");
        for (const char *key : {"controller.sr.ds", "controller.sr.dr", "controller.sr.dm"})
            if (s.origin.count(key) && fw.array != array_kind::sr_array)
                throw s.error(key, fmt::format("set while controller.layout is {}", kind),
                              "it only with controller.layout: sr_array");
        if (fw.array == array_kind::sr_array && fw.sr_ds * fw.sr_dr * fw.sr_dm != n)
            throw s.error("controller.layout",
                          fmt::format("sr_array {}x{}x{} needs Ds*Dr*Dm = {} disks; disks.count is {}", fw.sr_ds,
                                      fw.sr_dr, fw.sr_dm, fw.sr_ds * fw.sr_dr * fw.sr_dm, n),
                          "controller.sr.ds * controller.sr.dr * controller.sr.dm = disks.count");
        if (sched.replica_aware && fw.array != array_kind::sr_array)
            throw s.error("controller.scheduler", fmt::format("{} while controller.layout is {}", scheduler, kind),
                          "rlook or rsatf only with controller.layout: sr_array");
        for (const char *key : {"controller.predictor.feedback", "controller.predictor.slack_sectors",
                                "controller.predictor.target_miss_rate", "controller.predictor.reference_read_interval_ms"})
            if (s.origin.count(key) && !sched.needs_predictor)
                throw s.error(key, fmt::format("set while controller.scheduler is {}", scheduler),
                              "it only with controller.scheduler: satf");
        for (const char *key :
             {"controller.parity_logging.regions_per_disk", "controller.parity_logging.log_stripes",
              "controller.parity_logging.log_to_parity_ratio", "controller.parity_logging.log_write_tracks",
              "controller.parity_logging.buffer_tracks", "controller.parity_logging.buffer_policy",
              "controller.parity_logging.preread", "controller.parity_logging.reintegration_buffer_sectors",
              "controller.parity_logging.track_sectors", "controller.parity_logging.steady_state_start"})
            if (s.origin.count(key) && fw.array != array_kind::parity_logging)
                throw s.error(key, fmt::format("set while controller.layout is {}", kind),
                              "it only with controller.layout: parity_logging");
        if (fw.array == array_kind::parity_logging && n < fw.parity_logging.log_stripes + 2)
            throw s.error("controller.layout",
                          fmt::format("parity_logging with {} sublogs needs at least {} disks (a region's sublogs "
                                      "may not share a disk with its data or parity); disks.count is {}",
                                      fw.parity_logging.log_stripes, fw.parity_logging.log_stripes + 2, n),
                          "disks.count >= controller.parity_logging.log_stripes + 2");
        if (s.origin.count("controller.firmware")) try {
                controller::firmware_name(fw);
            } catch (const std::invalid_argument &e) {
                throw s.error("controller.firmware", e.what(), firmware_expected());
            }
        if (fw.fail_disk >= n)
            throw s.error("controller.fail_disk", fmt::format("disk {} of {} disks", fw.fail_disk, n),
                          "a disk number below disks.count, or -1");
        const bool replicated = fw.array == array_kind::raid1 || fw.array == array_kind::raid10 ||
                                (fw.array == array_kind::sr_array && fw.sr_dr * fw.sr_dm > 1);
        for (const char *key : {"controller.delayed_writes.foreground_propagation",
                                "controller.delayed_writes.threshold_entries"})
            if (s.origin.count(key) && !replicated)
                throw s.error(key, fmt::format("set while controller.layout is {}{}", kind,
                                               fw.array == array_kind::sr_array ? " with Dr*Dm = 1" : ""),
                              "it only with a replicated layout: raid1, raid10, or sr_array with Dr*Dm > 1");
        const uint64_t table_bytes =
            uint64_t(fw.delayed_writes.threshold_entries) * uint64_t(fw.delayed_writes.entry_bytes);
        if (replicated && !fw.delayed_writes.foreground_propagation &&
            table_bytes > s.controller.config.nvram.capacity_bytes)
            throw s.error(s.origin.count("controller.delayed_writes.threshold_entries")
                              ? "controller.delayed_writes.threshold_entries"
                              : "controller.layout",
                          fmt::format("a table of {} entries of {} bytes needs {} bytes of NVRAM; the NVRAM has {}",
                                      fw.delayed_writes.threshold_entries, fw.delayed_writes.entry_bytes, table_bytes,
                                      s.controller.config.nvram.capacity_bytes),
                          "fewer entries or a larger controller.nvram.capacity_kib");
        if (fw.array == array_kind::raid1 && n < 2)
            throw s.error("controller.layout", fmt::format("raid1 needs at least 2 disks; disks.count is {}", n),
                          "disks.count >= 2 or another layout");
        if ((fw.array == array_kind::raid4 || fw.array == array_kind::raid5 || fw.array == array_kind::floating) && n < 3)
            throw s.error("controller.layout", fmt::format("{} needs at least 3 disks; disks.count is {}", kind, n),
                          "disks.count >= 3 or another layout");
        if (fw.array == array_kind::raid10 && (n < fw.mirror_copies || n % fw.mirror_copies != 0))
            throw s.error("controller.layout",
                          fmt::format("raid10 with {}-way mirrors needs a multiple of {} disks; disks.count is {}",
                                      fw.mirror_copies, fw.mirror_copies, n),
                          "disks.count a multiple of controller.mirror_copies");
    }
    for (const char *k : {"controller.bus.width_bits", "controller.bus.mtransfers_per_s"})
        if (s.origin.count(k) && s.controller.config.bus.preset != rtl_models::scsi_preset::custom)
            throw s.error(k, fmt::format("set while controller.bus.preset is {}", to_string(s.controller.config.bus.preset)),
                          "it only with controller.bus.preset: custom (a preset fixes width and rate)");
    for (const char *k : {"controller.host_link.lanes", "controller.host_link.generation"})
        if (s.origin.count(k) && s.controller.config.host_link.kind != rtl_models::host_link_kind::pcie)
            throw s.error(k, fmt::format("set while controller.host_link.preset is {}",
                                         to_string(s.controller.config.host_link.kind)),
                          "it only with controller.host_link.preset: pcie");
    if (s.controller.enabled) {
        const int per_channel = (s.disks.count + s.controller.config.channels - 1) / s.controller.config.channels;
        const int fit = controller::max_targets(s.controller.config.bus.width_bits);
        if (per_channel > fit)
            throw s.error("disks.count",
                          fmt::format("{} drives on {} channel(s) put {} on a {}-bit bus, which has IDs for {}",
                                      s.disks.count, s.controller.config.channels, per_channel,
                                      s.controller.config.bus.width_bits, fit),
                          fmt::format("at most {} drives per channel (more controller.channels)", fit));
        const uint64_t largest = uint64_t(size_sampler(s.workload).max_sectors()) * 512;
        if (s.controller.config.dram.capacity_bytes && largest > s.controller.config.dram.capacity_bytes)
            throw s.error("controller.dram.capacity_mib", "smaller than one request's buffer",
                          fmt::format("at least {} bytes (the largest request x 512)", largest));
    }
    const double buckets = s.output.histogram_max_ms / s.output.histogram_bucket_ms;
    if (buckets > 100000)
        throw s.error("output.histogram_max_ms",
                      fmt::format("{} ms in buckets of {} ms is {:.0f} buckets", s.output.histogram_max_ms,
                                  s.output.histogram_bucket_ms, buckets),
                      "at most 100000 buckets (raise output.histogram_bucket_ms)");
    if (s.output.histogram_max_ms < s.output.histogram_bucket_ms)
        throw s.error("output.histogram_max_ms", "smaller than output.histogram_bucket_ms",
                      "a number >= output.histogram_bucket_ms");
    const workload_config &w = s.workload;
    if (w.size_distribution == size_dist::uniform && w.size_min_sectors > w.size_max_sectors)
        throw s.error("workload.size_min_sectors",
                      fmt::format("{} is above workload.size_max_sectors ({})", w.size_min_sectors, w.size_max_sectors),
                      "a minimum no larger than the maximum");
    if (w.size_distribution == size_dist::zipf && !(w.size_mean_sectors < (w.size_max_sectors + 1) / 2.0))
        throw s.error("workload.size_mean_sectors",
                      fmt::format("a Zipf mean of {} over sizes 1..{} would need a rising distribution",
                                  w.size_mean_sectors, w.size_max_sectors),
                      fmt::format("a mean below (size_max_sectors + 1) / 2 = {}", (w.size_max_sectors + 1) / 2.0));
    if (w.arrival == arrival_process::trace && s.trace.file.empty())
        throw s.error("trace.file", "missing while workload.arrival is trace", "a path to a trace file");
    if (w.requests == 0 && w.arrival != arrival_process::trace)
        throw s.error("workload.requests", "0 is only for trace replay", "an integer in [1, 10^12]");
    if (w.target_iops > 0 && w.arrival != arrival_process::closed)
        throw s.error("workload.target_iops", fmt::format("set while workload.arrival is {}", to_string(w.arrival)),
                      "0, or workload.arrival closed (the think time is what is tuned)");
    return s;
}

}  // namespace raidtlm::testbench
