#include "testbench/scenario.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace raidtlm::testbench {

namespace fs = std::filesystem;

const char *to_string(arrival_process v) { return v == arrival_process::open ? "open" : "closed"; }
const char *to_string(address_pattern v) {
    switch (v) {
    case address_pattern::uniform: return "uniform";
    case address_pattern::sequential: return "sequential";
    case address_pattern::local: return "local";
    }
    return "?";
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
                       {"write_intent_log", fw.write_intent_log},
                       {"table_entry_bytes", fw.table_entry_bytes}};
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
    const auto &w = workload;
    j["workload"] = {{"arrival", to_string(w.arrival)},
                     {"mean_interarrival_ms", w.mean_interarrival_ms},
                     {"outstanding", w.outstanding},
                     {"think_time_ms", w.think_time_ms},
                     {"read_fraction", w.read_fraction},
                     {"request_sectors", w.request_sectors},
                     {"alignment_sectors", w.alignment_sectors},
                     {"address", to_string(w.address)},
                     {"local_stddev_sectors", w.local_stddev_sectors},
                     {"requests", w.requests},
                     {"warmup_requests", w.warmup_requests},
                     {"seed", w.seed}};
    j["output"] = {{"histogram_bucket_ms", output.histogram_bucket_ms},
                   {"histogram_max_ms", output.histogram_max_ms},
                   {"waves", output.waves}};
    return j;
}

namespace {

// A value to read, and where it came from.
struct value_ref {
    YAML::Node node;
    std::string where;
    bool from_set = false;
};

struct load_context {
    fs::path scenario_dir;
    std::string repo_root;
};

[[noreturn]] void fail(const value_ref &v, const std::string &key, const std::string &problem,
                       const std::string &expected) {
    throw scenario_error(fmt::format("{}: key '{}': {}; expected {}", v.where, key, problem, expected));
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
           std::initializer_list<std::pair<const char *, E>> choices) {
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

std::string resolve_spec(const std::string &given, const value_ref &v, const std::string &key,
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

const std::vector<key_def> &key_defs() {
    static const std::vector<key_def> defs = [] {
        std::vector<key_def> d;
        auto add = [&d](const char *key, const char *fallback, const char *expected, apply_fn fn) {
            d.push_back({{key, fallback, expected}, std::move(fn)});
        };
        add("disks.spec", "", "a path to a DiskSim .diskspecs file, relative to the scenario file or the repo root",
            [](scenario &s, const value_ref &v, const load_context &ctx) {
                const std::string k = "disks.spec", e = "a path to a DiskSim .diskspecs file, relative to the "
                                                       "scenario file or the repo root";
                s.disks.spec_path = resolve_spec(scalar(v, k, e), v, k, e, ctx);
            });
        add("disks.name", "\"\"", "the name of a disksim_disk block in the spec file, or \"\" when it holds one",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.disks.spec_name = v.node.IsNull() ? std::string()
                                                    : scalar(v, "disks.name", "a disk name or \"\"");
            });
        add("disks.count", "4", "an integer in [1, 256]", [](scenario &s, const value_ref &v, const load_context &) {
            s.disks.count = static_cast<int>(get_int(v, "disks.count", "an integer in [1, 256]", 1, 256));
        });
        add("disks.spindle_sync", "false", "true or false", [](scenario &s, const value_ref &v, const load_context &) {
            s.disks.spindle_sync = get_bool(v, "disks.spindle_sync", "true or false");
        });
        add("disks.bulk_sector_transfer_ms", "spec",
            "spec (the spec's Bulk sector transfer time) or a number >= 0 (ms per sector)",
            [](scenario &s, const value_ref &v, const load_context &) {
                const std::string k = "disks.bulk_sector_transfer_ms",
                                  e = "spec (the spec's Bulk sector transfer time) or a number >= 0 (ms per sector)";
                if (scalar(v, k, e) == "spec") s.disks.bulk_sector_transfer_ms = -1;
                else s.disks.bulk_sector_transfer_ms = get_double(v, k, e, 0, false, 1e6);
            });
        add("host.layout", "stripe", "jbod or stripe", [](scenario &s, const value_ref &v, const load_context &) {
            s.host.layout = get_enum<host_layout>(v, "host.layout", "jbod or stripe",
                                                  {{"jbod", host_layout::jbod}, {"stripe", host_layout::stripe}});
        });
        add("host.stripe_unit_sectors", "64", "an integer in [1, 2^31)",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.host.stripe_unit_sectors = static_cast<uint64_t>(
                    get_int(v, "host.stripe_unit_sectors", "an integer in [1, 2^31)", 1, INT32_MAX));
            });
        // Typed keys: the value is checked, then handed to `set`.
        auto number = [&d](const char *key, const char *fallback, const char *expected, double lo, bool lo_open,
                           double hi, std::function<void(scenario &, double)> set) {
            d.push_back({{key, fallback, expected},
                         [k = std::string(key), e = std::string(expected), lo, lo_open, hi,
                          set](scenario &s, const value_ref &v, const load_context &) {
                             set(s, get_double(v, k, e, lo, lo_open, hi));
                         }});
        };
        auto integer = [&d](const char *key, const char *fallback, const char *expected, int64_t lo, int64_t hi,
                            std::function<void(scenario &, int64_t)> set) {
            d.push_back({{key, fallback, expected},
                         [k = std::string(key), e = std::string(expected), lo, hi,
                          set](scenario &s, const value_ref &v, const load_context &) {
                             set(s, get_int(v, k, e, lo, hi));
                         }});
        };
        auto boolean = [&d](const char *key, const char *fallback, std::function<void(scenario &, bool)> set) {
            d.push_back({{key, fallback, "true or false"},
                         [k = std::string(key), set](scenario &s, const value_ref &v, const load_context &) {
                             set(s, get_bool(v, k, "true or false"));
                         }});
        };
        using controller_config = controller::controller_config;
        auto cfg = [](scenario &s) -> controller_config & { return s.controller.config; };
        boolean("controller.enabled", "false", [](scenario &s, bool b) { s.controller.enabled = b; });
        integer("controller.channels", "1", "an integer in [1, 16]", 1, 16,
                [cfg](scenario &s, int64_t v) { cfg(s).channels = int(v); });
        integer("controller.initiator_id", "7", "an integer in [0, 15] (a SCSI ID)", 0, 15,
                [cfg](scenario &s, int64_t v) { cfg(s).initiator_id = int(v); });
        integer("controller.tags_per_disk", "0", "an integer in [0, 256] (0: the drive's Max queue length)", 0, 256,
                [cfg](scenario &s, int64_t v) { cfg(s).firmware.tags_per_disk = int(v); });
        boolean("controller.write_intent_log", "true",
                [cfg](scenario &s, bool b) { cfg(s).firmware.write_intent_log = b; });
        integer("controller.table_entry_bytes", "64", "an integer in [0, 65536]", 0, 65536,
                [cfg](scenario &s, int64_t v) { cfg(s).firmware.table_entry_bytes = uint32_t(v); });
        number("controller.cpu.mhz", "600", "a number > 0 (MHz)", 0, true, 1e6,
               [cfg](scenario &s, double v) { cfg(s).cpu.mhz = v; });
        integer("controller.cpu.cores", "1", "an integer in [1, 64]", 1, 64,
                [cfg](scenario &s, int64_t v) { cfg(s).cpu.cores = int(v); });
        add("controller.cpu.scheduling", "shared", "shared or per_core",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                cfg(s).cpu.scheduling = get_enum<rtl_models::cpu_scheduling>(
                    v, "controller.cpu.scheduling", "shared or per_core",
                    {{"shared", rtl_models::cpu_scheduling::shared}, {"per_core", rtl_models::cpu_scheduling::per_core}});
            });
        const char *cycles = "an integer in [0, 10^9] (cycles)";
        auto cost = [&](const char *key, const char *fallback, uint64_t rtl_models::cpu_cost_table::*field) {
            integer(key, fallback, cycles, 0, 1000000000,
                    [cfg, field](scenario &s, int64_t v) { cfg(s).cpu.costs.*field = uint64_t(v); });
        };
        using costs = rtl_models::cpu_cost_table;
        cost("controller.cost.host_command_cycles", "3000", &costs::host_command_cycles);
        cost("controller.cost.physical_command_cycles", "2000", &costs::physical_command_cycles);
        cost("controller.cost.completion_interrupt_cycles", "1500", &costs::completion_interrupt_cycles);
        cost("controller.cost.table_update_cycles", "500", &costs::table_update_cycles);
        cost("controller.cost.schedule_base_cycles", "200", &costs::schedule_base_cycles);
        cost("controller.cost.schedule_per_entry_cycles", "50", &costs::schedule_per_entry_cycles);
        cost("controller.cost.dma_setup_cycles", "300", &costs::dma_setup_cycles);
        cost("controller.cost.xor_setup_cycles", "300", &costs::xor_setup_cycles);
        add("controller.bus.preset", "ultra160", "fast20, ultra2, ultra160, ultra320 or custom",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                using rtl_models::scsi_preset;
                const scsi_preset p = get_enum<scsi_preset>(v, "controller.bus.preset",
                                                            "fast20, ultra2, ultra160, ultra320 or custom",
                                                            {{"fast20", scsi_preset::fast20},
                                                             {"ultra2", scsi_preset::ultra2},
                                                             {"ultra160", scsi_preset::ultra160},
                                                             {"ultra320", scsi_preset::ultra320},
                                                             {"custom", scsi_preset::custom}});
                rtl_models::scsi_bus_config &b = cfg(s).bus;
                const rtl_models::scsi_bus_config preset = rtl_models::scsi_bus_config::with_preset(p);
                b.preset = p;
                if (p != scsi_preset::custom) {
                    b.width_bits = preset.width_bits;
                    b.mtransfers_per_s = preset.mtransfers_per_s;
                }
            });
        add("controller.bus.width_bits", "16", "8 or 16 (custom preset only)",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                const int w = int(get_int(v, "controller.bus.width_bits", "8 or 16 (custom preset only)", 8, 16));
                if (w != 8 && w != 16) fail(v, "controller.bus.width_bits", fmt::format("{} is not a SCSI width", w),
                                            "8 or 16 (custom preset only)");
                cfg(s).bus.width_bits = w;
            });
        number("controller.bus.mtransfers_per_s", "80", "a number >= 0 (MT/s, custom preset only; 0 = unlimited)", 0,
               false, 1e6, [cfg](scenario &s, double v) { cfg(s).bus.mtransfers_per_s = v; });
        boolean("controller.bus.fairness", "false", [cfg](scenario &s, bool b) { cfg(s).bus.fairness = b; });
        const char *micro = "a number >= 0 (us)";
        auto phase = [&](const char *key, const char *fallback, double rtl_models::scsi_phase_costs::*field) {
            number(key, fallback, micro, 0, false, 1e6,
                   [cfg, field](scenario &s, double v) { cfg(s).bus.phases.*field = v; });
        };
        using phases = rtl_models::scsi_phase_costs;
        phase("controller.bus.arbitration_us", "2.4", &phases::arbitration_us);
        phase("controller.bus.bus_free_us", "0.8", &phases::bus_free_us);
        phase("controller.bus.selection_us", "1.2", &phases::selection_us);
        phase("controller.bus.reselection_us", "1.2", &phases::reselection_us);
        phase("controller.bus.message_us", "0.6", &phases::message_us);
        phase("controller.bus.command_us", "2", &phases::command_us);
        phase("controller.bus.status_us", "0.4", &phases::status_us);
        integer("controller.dram.width_bits", "64", "an integer in [8, 1024]", 8, 1024,
                [cfg](scenario &s, int64_t v) { cfg(s).dram.width_bits = int(v); });
        number("controller.dram.mtransfers_per_s", "200", "a number >= 0 (MT/s; 0 = unlimited bandwidth)", 0, false,
               1e6, [cfg](scenario &s, double v) { cfg(s).dram.mtransfers_per_s = v; });
        integer("controller.dram.burst_bytes", "32", "an integer in [0, 4096] (0: byte granularity)", 0, 4096,
                [cfg](scenario &s, int64_t v) { cfg(s).dram.burst_bytes = uint32_t(v); });
        integer("controller.dram.capacity_mib", "128", "an integer in [0, 1048576] (MiB; 0 = unlimited)", 0, 1 << 20,
                [cfg](scenario &s, int64_t v) { cfg(s).dram.capacity_bytes = uint64_t(v) << 20; });
        add("controller.dram.arbitration", "round_robin", "round_robin or fixed_priority",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                cfg(s).dram.arbitration = get_enum<rtl_models::dram_arbitration>(
                    v, "controller.dram.arbitration", "round_robin or fixed_priority",
                    {{"round_robin", rtl_models::dram_arbitration::round_robin},
                     {"fixed_priority", rtl_models::dram_arbitration::fixed_priority}});
            });
        integer("controller.nvram.capacity_kib", "512", "an integer in [1, 1048576] (KiB)", 1, 1 << 20,
                [cfg](scenario &s, int64_t v) { cfg(s).nvram.capacity_bytes = uint64_t(v) << 10; });
        number("controller.nvram.latency_ns", "150", "a number >= 0 (ns)", 0, false, 1e9,
               [cfg](scenario &s, double v) { cfg(s).nvram.latency_ns = v; });
        number("controller.nvram.mb_per_s", "100", "a number >= 0 (MB/s; 0 = unlimited)", 0, false, 1e9,
               [cfg](scenario &s, double v) { cfg(s).nvram.mb_per_s = v; });
        number("controller.xor.mhz", "200", "a number > 0 (MHz)", 0, true, 1e6,
               [cfg](scenario &s, double v) { cfg(s).xor_engine.mhz = v; });
        number("controller.xor.bytes_per_cycle", "8", "a number > 0", 0, true, 1e6,
               [cfg](scenario &s, double v) { cfg(s).xor_engine.bytes_per_cycle = v; });
        integer("controller.xor.setup_cycles", "100", cycles, 0, 1000000000,
                [cfg](scenario &s, int64_t v) { cfg(s).xor_engine.setup_cycles = uint64_t(v); });
        integer("controller.xor.queue_depth", "8", "an integer in [1, 1024]", 1, 1024,
                [cfg](scenario &s, int64_t v) { cfg(s).xor_engine.queue_depth = int(v); });
        add("controller.host_link.preset", "pcix", "pcix, pcie or unlimited",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                cfg(s).host_link.kind = get_enum<rtl_models::host_link_kind>(
                    v, "controller.host_link.preset", "pcix, pcie or unlimited",
                    {{"pcix", rtl_models::host_link_kind::pcix},
                     {"pcie", rtl_models::host_link_kind::pcie},
                     {"unlimited", rtl_models::host_link_kind::unlimited}});
            });
        add("controller.host_link.lanes", "8", "1, 2, 4, 8 or 16 (pcie only)",
            [cfg](scenario &s, const value_ref &v, const load_context &) {
                const char *e = "1, 2, 4, 8 or 16 (pcie only)";
                const int n = int(get_int(v, "controller.host_link.lanes", e, 1, 16));
                if (n & (n - 1)) fail(v, "controller.host_link.lanes", fmt::format("{} is not a PCIe link width", n), e);
                cfg(s).host_link.lanes = n;
            });
        integer("controller.host_link.generation", "1", "an integer in [1, 4] (pcie only)", 1, 4,
                [cfg](scenario &s, int64_t v) { cfg(s).host_link.generation = int(v); });
        number("controller.host_link.dma_latency_us", "1", "a number >= 0 (us)", 0, false, 1e6,
               [cfg](scenario &s, double v) { cfg(s).host_link.dma_latency_us = v; });
        add("workload.arrival", "closed", "open or closed", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.arrival = get_enum<arrival_process>(
                v, "workload.arrival", "open or closed",
                {{"open", arrival_process::open}, {"closed", arrival_process::closed}});
        });
        add("workload.mean_interarrival_ms", "10", "a number > 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.mean_interarrival_ms =
                    get_double(v, "workload.mean_interarrival_ms", "a number > 0", 0, true, 1e12);
            });
        add("workload.outstanding", "8", "an integer in [1, 100000]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.outstanding =
                    static_cast<int>(get_int(v, "workload.outstanding", "an integer in [1, 100000]", 1, 100000));
            });
        add("workload.think_time_ms", "0", "a number >= 0", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.think_time_ms = get_double(v, "workload.think_time_ms", "a number >= 0", 0, false, 1e12);
        });
        add("workload.read_fraction", "0.67", "a number in [0, 1]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.read_fraction = get_double(v, "workload.read_fraction", "a number in [0, 1]", 0, false, 1);
            });
        add("workload.request_sectors", "8", "an integer in [1, 65536]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.request_sectors = static_cast<uint32_t>(
                    get_int(v, "workload.request_sectors", "an integer in [1, 65536]", 1, 65536));
            });
        add("workload.alignment_sectors", "8", "an integer in [1, 2^31)",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.alignment_sectors = static_cast<uint32_t>(
                    get_int(v, "workload.alignment_sectors", "an integer in [1, 2^31)", 1, INT32_MAX));
            });
        add("workload.address", "uniform", "uniform, sequential or local",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.address = get_enum<address_pattern>(v, "workload.address", "uniform, sequential or local",
                                                               {{"uniform", address_pattern::uniform},
                                                                {"sequential", address_pattern::sequential},
                                                                {"local", address_pattern::local}});
            });
        add("workload.local_stddev_sectors", "10000", "a number >= 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.local_stddev_sectors =
                    get_double(v, "workload.local_stddev_sectors", "a number >= 0", 0, false, 1e15);
            });
        add("workload.requests", "20000", "an integer in [1, 10^12]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.requests = static_cast<uint64_t>(
                    get_int(v, "workload.requests", "an integer in [1, 10^12]", 1, 1000000000000LL));
            });
        add("workload.warmup_requests", "500", "an integer in [0, 10^12]",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.workload.warmup_requests = static_cast<uint64_t>(
                    get_int(v, "workload.warmup_requests", "an integer in [0, 10^12]", 0, 1000000000000LL));
            });
        add("workload.seed", "1", "a non-negative integer", [](scenario &s, const value_ref &v, const load_context &) {
            s.workload.seed = get_uint64(v, "workload.seed", "a non-negative integer");
        });
        add("output.histogram_bucket_ms", "0.5", "a number > 0",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.output.histogram_bucket_ms = get_double(v, "output.histogram_bucket_ms", "a number > 0", 0, true, 1e9);
            });
        add("output.histogram_max_ms", "200", "a number > 0, at most 100000 buckets",
            [](scenario &s, const value_ref &v, const load_context &) {
                s.output.histogram_max_ms =
                    get_double(v, "output.histogram_max_ms", "a number > 0, at most 100000 buckets", 0, true, 1e12);
            });
        add("output.waves", "true", "true or false", [](scenario &s, const value_ref &v, const load_context &) {
            s.output.waves = get_bool(v, "output.waves", "true or false");
        });
        return d;
    }();
    return defs;
}

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

std::string mark_str(const std::string &file, const YAML::Mark &m) {
    if (m.is_null()) return file + ":1:1";
    return fmt::format("{}:{}:{}", file, m.line + 1, m.column + 1);
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
                found[dotted] = value_ref{it.second, where_of(path, it.first, it.second), false};
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
        found[o.key] = value_ref{node, where, true};
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
        const uint64_t largest = uint64_t(s.workload.request_sectors) * 512;
        if (s.controller.config.dram.capacity_bytes && largest > s.controller.config.dram.capacity_bytes)
            throw s.error("controller.dram.capacity_mib", "smaller than one request's buffer",
                          fmt::format("at least {} bytes (workload.request_sectors x 512)", largest));
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
    return s;
}

}  // namespace raidtlm::testbench
