// controller.host_link.*: the controller's link to the host (PCI-X, PCIe or unlimited).
#include "rtl_models/buses/host_link_keys.h"

#include <fmt/format.h>

namespace raidtlm::rtl_models {

namespace {
const config::names<host_link_kind> kind_names = {
    {"pcix", host_link_kind::pcix}, {"pcie", host_link_kind::pcie}, {"unlimited", host_link_kind::unlimited}};
}  // namespace

void declare_keys(config::declarations<host_link_config> &k) {
    // Defaults: host_link_timing.h.
    k.choice("preset", &host_link_config::kind, "pcix", kind_names);
    k.custom(
        "lanes", "8", "1, 2, 4, 8 or 16 (pcie only)",
        [](host_link_config &h, const config::value_ref &v, const config::key_use &u) {
            const int n = int(config::read_integer(v, u, 1, 16));
            if (n & (n - 1)) config::fail(v, u, fmt::format("{} is not a PCIe link width", n));
            h.lanes = n;
        },
        [](const host_link_config &h) { return nlohmann::json(h.lanes); });
    k.integer("generation", &host_link_config::generation, "1", 1, 4).note("pcie only");
    k.number("dma_latency_us", &host_link_config::dma_latency_us, "1").min(0).cap(1e6).unit("us");

    k.check([](const host_link_config &h, const config::key_checks &c) {
        for (const char *name : {"lanes", "generation"})
            if (c.given(name) && h.kind != host_link_kind::pcie)
                c.fail(name, fmt::format("set while {} is {}", c.key("preset"), to_string(h.kind)),
                       fmt::format("it only with {}: pcie", c.key("preset")));
    });
}

}  // namespace raidtlm::rtl_models
