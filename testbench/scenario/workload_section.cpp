// workload.*: the synthetic request stream (or trace replay) and its arrival process.
#include "testbench/scenario/scenario_sections.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {

using config::key_use;
using config::value_ref;

const config::names<arrival_process> arrival_names = {
    {"open", arrival_process::open}, {"closed", arrival_process::closed}, {"trace", arrival_process::trace}};
const config::names<address_pattern> address_names = {
    {"uniform", address_pattern::uniform}, {"sequential", address_pattern::sequential},
    {"local", address_pattern::local},     {"streams", address_pattern::streams},
    {"tracks", address_pattern::tracks},   {"hot_cold", address_pattern::hot_cold}};
const config::names<size_dist> size_names = {{"constant", size_dist::constant},
                                             {"uniform", size_dist::uniform},
                                             {"table", size_dist::table},
                                             {"zipf", size_dist::zipf},
                                             {"exponential", size_dist::exponential}};
const config::names<think_dist> think_names = {
    {"constant", think_dist::constant}, {"exponential", think_dist::exponential}, {"gaussian", think_dist::gaussian}};

std::vector<rate_step> read_rate_schedule(const value_ref &v, const key_use &u) {
    std::vector<rate_step> out;
    const YAML::Node &steps = config::read_list(v, u);
    if (steps.size() > max_rate_steps)
        config::fail(v, u, fmt::format("{} steps, more than the limit of {}", steps.size(), max_rate_steps));
    for (const auto &item : steps) {
        const value_ref iv = config::part_of(v, item);
        if (!item.IsSequence() || item.size() != 2)
            config::fail(iv, u, fmt::format("a step is {}", item.IsSequence() ? "not a pair" : config::kind_of(item)));
        rate_step r;
        r.start_s = config::read_number(config::part_of(v, item[0]), u, 0, false, 1e12, false);
        r.iops = config::read_number(config::part_of(v, item[1]), u, 0, false, 1e12, false);
        if (out.empty() && r.start_s != 0) config::fail(iv, u, "the first step does not start at 0");
        if (!out.empty() && r.start_s <= out.back().start_s) config::fail(iv, u, "steps are not in ascending time");
        out.push_back(r);
    }
    if (!out.empty()) {
        bool any = false;
        for (const auto &r : out) any = any || r.iops > 0;
        if (!any) config::fail(v, u, "every rate is 0");
    }
    return out;
}

std::vector<size_table_entry> read_size_table(const value_ref &v, const key_use &u) {
    if (v.node.IsSequence() && v.node.size() > max_size_table_rows)
        config::fail(v, u, fmt::format("{} rows, more than the limit of {}", v.node.size(), max_size_table_rows));
    if (v.node.IsScalar()) {
        if (v.node.Scalar() == "airline") return airline_size_table();
        config::fail(v, u, fmt::format("'{}' is not a known table", v.node.Scalar()));
    }
    static const config::names<int> direction_names = {{"read", 1}, {"write", 0}};
    std::vector<size_table_entry> out;
    double total = 0;
    for (const auto &item : config::read_list(v, u)) {
        const value_ref iv = config::part_of(v, item);
        if (!item.IsSequence() || item.size() < 2 || item.size() > 3)
            config::fail(iv, u,
                         fmt::format("a row is {}", item.IsSequence() ? "not 2 or 3 items" : config::kind_of(item)));
        size_table_entry r;
        r.weight = config::read_number(config::part_of(v, item[0]), u, 0, false, 1e12, false);
        r.sectors = static_cast<uint32_t>(config::read_integer(config::part_of(v, item[1]), u, 1, 65536));
        if (item.size() == 3) r.direction = config::read_choice(config::part_of(v, item[2]), u, direction_names);
        total += r.weight;
        out.push_back(r);
    }
    if (out.empty() || total <= 0) config::fail(v, u, "no row has a positive weight");
    return out;
}

nlohmann::json size_table_json(const std::vector<size_table_entry> &table) {
    nlohmann::json t = nlohmann::json::array();
    for (const auto &e : table) {
        nlohmann::json row = {e.weight, e.sectors};
        if (e.direction >= 0) row.push_back(e.direction ? "read" : "write");
        t.push_back(row);
    }
    return t;
}

}  // namespace

const char *to_string(arrival_process v) { return config::name_of(arrival_names, v); }
const char *to_string(address_pattern v) { return config::name_of(address_names, v); }
const char *to_string(size_dist v) { return config::name_of(size_names, v); }
const char *to_string(think_dist v) { return config::name_of(think_names, v); }

const std::vector<size_table_entry> &airline_size_table() {
    // Fig 26: % of the workload, direction, size in KB (1 KB = 2 sectors).
    static const std::vector<size_table_entry> t = {
        {20, 2, 1}, {20, 4, 1}, {33, 8, 1}, {9, 48, 1}, {9, 2, 0}, {7, 16, 0}, {2, 48, 0},
    };
    return t;
}

void declare_workload_section(scenario_keys_t &root) {
    using w = workload_config;
    config::declarations<w> k;
    k.choice("arrival", &w::arrival, "closed", arrival_names);
    k.number("mean_interarrival_ms", &w::mean_interarrival_ms, "10").above(0).cap(1e12);
    k.custom(
        "rate_schedule", "[]",
        fmt::format("a list of [start_s, iops] steps (at most {}), the first at 0, in ascending time, e.g. "
                    "[[0, 50], [60, 100]]",
                    max_rate_steps),
        [](w &x, const value_ref &v, const key_use &u) { x.rate_schedule = read_rate_schedule(v, u); },
        [](const w &x) {
            nlohmann::json schedule = nlohmann::json::array();
            for (const auto &r : x.rate_schedule) schedule.push_back({r.start_s, r.iops});
            return schedule;
        });
    k.integer("outstanding", &w::outstanding, "8", 1, 100000);
    k.number("think_time_ms", &w::think_time_ms, "0").min(0).cap(1e12);
    k.choice("think_time_distribution", &w::think_time_distribution, "constant", think_names);
    k.number("think_time_cv", &w::think_time_cv, "0.25").range(0, 10);
    k.number("target_iops", &w::target_iops, "0").min(0).cap(1e12);
    k.boolean("data_tokens", &w::data_tokens, "false");
    k.number("read_fraction", &w::read_fraction, "0.67").range(0, 1);
    k.choice("size_distribution", &w::size_distribution, "constant", size_names);
    k.integer("request_sectors", &w::request_sectors, "8", 1, 65536);
    k.integer("size_min_sectors", &w::size_min_sectors, "1", 1, 65536);
    k.integer("size_max_sectors", &w::size_max_sectors, "256", 1, 65536);
    k.number("size_mean_sectors", &w::size_mean_sectors, "8").above(1).cap(65536);
    k.custom(
        "size_table", "airline", fmt::format("airline, or a list of [weight, sectors] or [weight, sectors, read|write] rows (at most {})",
                    max_size_table_rows),
        [](w &x, const value_ref &v, const key_use &u) { x.size_table = read_size_table(v, u); },
        [](const w &x) { return size_table_json(x.size_table); });
    k.integer("alignment_sectors", &w::alignment_sectors, "8", 0, INT32_MAX).note("0: the request's own size");
    k.choice("address", &w::address, "uniform", address_names);
    k.number("local_stddev_sectors", &w::local_stddev_sectors, "10000").min(0).cap(1e15);
    k.number("locality_tracks", &w::locality_tracks, "1").min(0).cap(1e9);
    k.number("hot_space_fraction", &w::hot_space_fraction, "0.2").above(0).max(1);
    k.number("hot_access_fraction", &w::hot_access_fraction, "0.8").range(0, 1);
    k.number("random_fraction", &w::random_fraction, "1").range(0, 1);
    k.integer("requests", &w::requests, "20000", 0, 1000000000000LL)
        .form("an integer in [1, 10^12]")
        .note("0: to the end of the trace");
    k.integer("warmup_requests", &w::warmup_requests, "500", 0, 1000000000000LL);
    k.natural("seed", &w::seed, "1");

    k.check([](const w &x, const config::key_checks &c) {
        if (x.size_distribution == size_dist::uniform && x.size_min_sectors > x.size_max_sectors)
            c.fail("size_min_sectors",
                   fmt::format("{} is above {} ({})", x.size_min_sectors, c.key("size_max_sectors"),
                               x.size_max_sectors),
                   "a minimum no larger than the maximum");
        if (x.size_distribution == size_dist::zipf && !(x.size_mean_sectors < (x.size_max_sectors + 1) / 2.0))
            c.fail("size_mean_sectors",
                   fmt::format("a Zipf mean of {} over sizes 1..{} would need a rising distribution",
                               x.size_mean_sectors, x.size_max_sectors),
                   fmt::format("a mean below (size_max_sectors + 1) / 2 = {}", (x.size_max_sectors + 1) / 2.0));
    });
    root.mount("workload", k, &scenario::workload);

    root.check([](const scenario &s, const config::key_checks &c) {
        const workload_config &x = s.workload;
        if (x.arrival == arrival_process::trace && s.trace.file.empty())
            c.fail("trace.file", "missing while workload.arrival is trace", "a path to a trace file");
        if (x.requests == 0 && x.arrival != arrival_process::trace)
            c.fail("workload.requests", "0 is only for trace replay", "an integer in [1, 10^12]");
        if (x.target_iops > 0 && x.arrival != arrival_process::closed)
            c.fail("workload.target_iops", fmt::format("set while workload.arrival is {}", to_string(x.arrival)),
                   "0, or workload.arrival closed (the think time is what is tuned)");
    });
}

}  // namespace raidtlm::testbench
