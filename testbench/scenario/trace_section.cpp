// trace.*: the trace replayed when workload.arrival is trace.
#include "testbench/scenario/scenario_sections.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

void declare_trace_section(scenario_keys_t &root) {
    using config::key_use;
    using config::value_ref;
    static const config::names<trace_format> format_names = {{"disksim", trace_format::disksim},
                                                             {"spc", trace_format::spc},
                                                             {"msr", trace_format::msr},
                                                             {"blkparse", trace_format::blkparse}};
    static const config::names<beyond_capacity_policy> beyond_names = {{"error", beyond_capacity_policy::error},
                                                                       {"wrap", beyond_capacity_policy::wrap},
                                                                       {"skip", beyond_capacity_policy::skip}};
    static const config::names<char> action_names = {{"D", 'D'}, {"Q", 'Q'}};
    using t = trace_config;
    config::declarations<t> k;
    k.custom(
        "file", "\"\"", "a path to a trace file, relative to the scenario file or the repo root",
        [](t &x, const value_ref &v, const key_use &u) {
            const std::string given = v.node.IsNull() ? std::string() : config::read_scalar(v, u);
            x.file = given.empty() ? given : config::read_file_path(given, v, u);
        },
        [](const t &x) { return nlohmann::json(x.file); });
    k.choice("format", &t::format, "disksim", format_names);
    k.number("time_scale", &t::time_scale, "1").above(0).cap(1e12);
    k.custom(
        "device_map", "{}", "a map from trace device name to the first host sector of its slice",
        [](t &x, const value_ref &v, const key_use &u) {
            if (!v.node.IsNull() && !v.node.IsMap())
                config::fail(v, u, fmt::format("value is {}", config::kind_of(v.node)));
            std::vector<std::pair<std::string, uint64_t>> out;
            for (const auto &it : v.node) {
                if (!it.first.IsScalar()) config::fail(config::part_of(v, it.first), u, "a device name is not a scalar");
                const std::string dev = it.first.Scalar();
                for (const auto &o : out)
                    if (o.first == dev)
                        config::fail(config::part_of(v, it.first), u, fmt::format("device '{}' given twice", dev));
                out.emplace_back(dev, config::read_unsigned(config::part_of(v, it.second), u));
            }
            x.device_map = out;
        },
        [](const t &x) {
            nlohmann::json map = nlohmann::json::object();
            for (const auto &[dev, offset] : x.device_map) map[dev] = offset;
            return map;
        });
    k.choice("beyond_capacity", &t::beyond_capacity, "error", beyond_names);
    k.choice("blkparse_action", &t::blkparse_action, "D", action_names);
    root.mount("trace", k, &scenario::trace);
}

}  // namespace raidtlm::testbench
