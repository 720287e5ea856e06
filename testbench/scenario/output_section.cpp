// output.*: what a run writes besides stats.json.
#include "testbench/scenario/scenario_sections.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "waveforms/wave_groups.h"

namespace raidtlm::testbench {

namespace {
const config::names<wave_file_format> wave_format_names = {{"vcd", wave_file_format::vcd}, {"fst", wave_file_format::fst}};
}  // namespace

void declare_output_section(scenario_keys_t &root) {
    using o = output_config;
    config::declarations<o> k;
    k.number("histogram_bucket_ms", &o::histogram_bucket_ms, "0.5").above(0).cap(1e9);
    k.number("histogram_max_ms", &o::histogram_max_ms, "200")
        .above(0)
        .cap(1e12)
        .form("a number > 0, at most 100000 buckets");
    k.boolean("waves", &o::waves, "true");
    k.number("waves_from_ms", &o::waves_from_ms, "0").min(0).cap(1e15);
    k.number("waves_to_ms", &o::waves_to_ms, "0").min(0).cap(1e15).note("0: the end of the run");
    k.custom(
        "wave_groups", "[\"all\"]",
        fmt::format("a list of signal groups from all, {}", fmt::join(waveforms::wave_group_names(), ", ")),
        [](o &x, const config::value_ref &v, const config::key_use &u) {
            std::vector<std::string> names;
            for (const auto &item : config::read_list(v, u)) {
                const config::value_ref iv = config::part_of(v, item);
                const std::string n = item.IsScalar() ? item.Scalar() : std::string();
                const auto &known = waveforms::wave_group_names();
                if (n != "all" && std::find(known.begin(), known.end(), n) == known.end())
                    config::fail(iv, u, fmt::format("'{}' is not a signal group", item.IsScalar() ? n : config::kind_of(item)));
                names.push_back(n);
            }
            if (names.empty()) config::fail(v, u, "no group given (output.waves: false traces none)");
            x.wave_groups = names;
        },
        [](const o &x) { return nlohmann::json(x.wave_groups); });
    k.choice("wave_format", &o::wave_format, "vcd", wave_format_names);
    k.boolean("requests_csv", &o::requests_csv, "false");
    k.boolean("timeline", &o::timeline, "true");
    k.check([](const o &x, const config::key_checks &c) {
        // Bounded so that a typo cannot allocate gigabytes of histogram.
        const double buckets = x.histogram_max_ms / x.histogram_bucket_ms;
        if (buckets > 100000)
            c.fail("histogram_max_ms",
                   fmt::format("{} ms in buckets of {} ms is {:.0f} buckets", x.histogram_max_ms,
                               x.histogram_bucket_ms, buckets),
                   fmt::format("at most 100000 buckets (raise {})", c.key("histogram_bucket_ms")));
        if (x.waves_to_ms > 0 && x.waves_to_ms <= x.waves_from_ms)
            c.fail("waves_to_ms", fmt::format("{} ms is not after {} ({} ms)", x.waves_to_ms, c.key("waves_from_ms"),
                                              x.waves_from_ms),
                   fmt::format("0 (the end of the run) or a time after {}", c.key("waves_from_ms")));
        if (x.histogram_max_ms < x.histogram_bucket_ms)
            c.fail("histogram_max_ms", fmt::format("smaller than {}", c.key("histogram_bucket_ms")),
                   fmt::format("a number >= {}", c.key("histogram_bucket_ms")));
    });
    root.mount("output", k, &scenario::output);
}

}  // namespace raidtlm::testbench
