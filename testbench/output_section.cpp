// output.*: what a run writes besides stats.json.
#include "testbench/scenario_sections.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

void declare_output_section(scenario_keys_t &root) {
    using o = output_config;
    config::declarations<o> k;
    k.number("histogram_bucket_ms", &o::histogram_bucket_ms, "0.5").above(0).cap(1e9);
    k.number("histogram_max_ms", &o::histogram_max_ms, "200")
        .above(0)
        .cap(1e12)
        .form("a number > 0, at most 100000 buckets");
    k.boolean("waves", &o::waves, "true");
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
        if (x.histogram_max_ms < x.histogram_bucket_ms)
            c.fail("histogram_max_ms", fmt::format("smaller than {}", c.key("histogram_bucket_ms")),
                   fmt::format("a number >= {}", c.key("histogram_bucket_ms")));
    });
    root.mount("output", k, &scenario::output);
}

}  // namespace raidtlm::testbench
