// controller.*: whether the controller sits between host and disks, and its own keys
// (controller/platform/controller_keys.h: the platform, the hardware blocks and the firmware).
#include "testbench/scenario/scenario_sections.h"

#include <fmt/format.h>

#include "config/plugin_keys.h"
#include "controller/platform/controller_keys.h"
#include "controller/firmware_api/plugins.h"

namespace raidtlm::testbench {

namespace {

// A plug-in's own keys (controller.<its name>.*) only while it is what `what` (controller.firmware,
// controller.layout) names: `running`; `of_kind` says which plug-in sections are of that kind.
void refuse_keys_of_idle_plugins(const scenario &s, const config::key_checks &k, const std::string &what,
                                 const std::string &running, bool (*of_kind)(const std::string &)) {
    for (const config::plugin_section &p : config::plugin_sections()) {
        const std::string name = p.prefix.rfind("controller.", 0) == 0 ? p.prefix.substr(11) : "";
        if (name.empty() || name == running || !of_kind(name)) continue;
        for (const auto &[key, where] : s.origin)
            if (key.rfind(p.prefix + ".", 0) == 0)
                k.fail(key, fmt::format("set while {} is {}", what, running), fmt::format("it only with {}: {}", what, name));
    }
}

}  // namespace

void declare_controller_section(scenario_keys_t &root) {
    // The firmware's checks come before the hardware blocks' (the order of the errors when a
    // scenario has several).
    root.check([](const scenario &s, const config::key_checks &k) {
        controller::check_firmware_keys(s.controller.config.firmware,
                                        {s.disks.count, s.controller.config.nvram.capacity_bytes},
                                        k.under("controller"));
    });

    // A firmware plug-in's own keys only with that firmware running; a layout's (e.g.
    // controller.adaptraid5.*) only with that layout.
    root.check([](const scenario &s, const config::key_checks &k) {
        refuse_keys_of_idle_plugins(s, k, "controller.firmware", controller::firmware_name(s.controller.config.firmware),
                                    [](const std::string &n) { return controller::firmware_registry::instance().find(n) != nullptr; });
        refuse_keys_of_idle_plugins(s, k, "controller.layout", controller::layout_name(s.controller.config.firmware),
                                    [](const std::string &n) { return controller::find_layout(n) != nullptr; });
    });

    config::declarations<controller_scenario> k;
    k.boolean("enabled", &controller_scenario::enabled, "false");
    config::declarations<controller::controller_config> own;
    controller::declare_keys(own);
    k.mount("", own, &controller_scenario::config);
    root.mount("controller", k, &scenario::controller);

    // What only the controller does must not be asked of the minimal host adapter: it would be
    // silently ignored (issue 13).
    root.check([](const scenario &s, const config::key_checks &k) {
        if (s.controller.enabled) return;
        if (s.controller.config.firmware.fail_disk >= 0)
            k.fail("controller.fail_disk",
                   fmt::format("disk {} is to fail, but controller.enabled is false (the minimal host adapter "
                               "injects no faults)",
                               s.controller.config.firmware.fail_disk),
                   "controller.enabled: true, or fail_disk -1");
        if (s.workload.data_tokens)
            k.fail("workload.data_tokens",
                   "true, but controller.enabled is false (the scoreboard that checks the tokens is the controller's)",
                   "controller.enabled: true, or data_tokens false");
    });

    root.check([](const scenario &s, const config::key_checks &k) {
        if (!s.controller.enabled) return;
        const controller::controller_config &c = s.controller.config;
        const int per_channel = (s.disks.count + c.channels - 1) / c.channels;
        const int fit = controller::max_targets(c.bus.width_bits);
        if (per_channel > fit)
            k.fail("disks.count",
                   fmt::format("{} drives on {} channel(s) put {} on a {}-bit bus, which has IDs for {}", s.disks.count,
                               c.channels, per_channel, c.bus.width_bits, fit),
                   fmt::format("at most {} drives per channel (more controller.channels)", fit));
        // A request larger than the DRAM is moved in pieces (controller/kit/host_pieces.h); a DRAM that
        // cannot hold a piece beside a stripe's work buffer is refused once the array is known.
    });
}

}  // namespace raidtlm::testbench
