// controller.bus.*: a SCSI bus (one per channel), its preset and phase times.
#include "rtl_models/buses/scsi_bus_keys.h"

#include <fmt/format.h>

namespace raidtlm::rtl_models {

namespace {
const config::names<scsi_preset> preset_names = {{"fast20", scsi_preset::fast20},
                                                 {"ultra2", scsi_preset::ultra2},
                                                 {"ultra160", scsi_preset::ultra160},
                                                 {"ultra320", scsi_preset::ultra320},
                                                 {"sata150", scsi_preset::sata150},
                                                 {"sas3g", scsi_preset::sas3g},
                                                 {"sas6g", scsi_preset::sas6g},
                                                 {"sas12g", scsi_preset::sas12g},
                                                 {"custom", scsi_preset::custom}};
}  // namespace

void declare_keys(config::declarations<scsi_bus_config> &k) {
    using config::value_ref;
    using config::key_use;
    // A preset fixes width and rate; custom keeps what width_bits and mtransfers_per_s say.
    k.custom(
        "preset", "ultra160", config::one_of(preset_names),
        [](scsi_bus_config &b, const value_ref &v, const key_use &u) {
            const scsi_preset p = config::read_choice(v, u, preset_names);
            b.preset = p;
            if (p != scsi_preset::custom) {
                const scsi_bus_config preset = scsi_bus_config::with_preset(p);
                b.width_bits = preset.width_bits;
                b.mtransfers_per_s = preset.mtransfers_per_s;
                if (preset.point_to_point()) b.phases = preset.phases;
            }
        },
        [](const scsi_bus_config &b) { return nlohmann::json(to_string(b.preset)); })
        .note("MB/s: fast20 20, ultra2 80, ultra160 160, ultra320 320; point-to-point, one drive per channel: "
              "sata150 150, sas3g 300, sas6g 600, sas12g 1200");
    k.custom(
        "width_bits", "16", "8 or 16 (custom preset only)",
        [](scsi_bus_config &b, const value_ref &v, const key_use &u) {
            const int w = int(config::read_integer(v, u, 8, 16));
            if (w != 8 && w != 16) config::fail(v, u, fmt::format("{} is not a SCSI width", w));
            b.width_bits = w;
        },
        [](const scsi_bus_config &b) { return nlohmann::json(b.width_bits); });
    k.number("mtransfers_per_s", &scsi_bus_config::mtransfers_per_s, "80")
        .min(0)
        .cap(1e6)
        .form("a number >= 0 (MT/s, custom preset only; 0 = unlimited)");
    k.boolean("fairness", &scsi_bus_config::fairness, "false");
    // Phase times: scsi_bus_timing.h (SCSI-2 timing where the standard gives one).
    using phases = scsi_phase_costs;
    const std::pair<const char *, double phases::*> phase_keys[] = {
        {"arbitration_us", &phases::arbitration_us}, {"bus_free_us", &phases::bus_free_us},
        {"selection_us", &phases::selection_us},     {"reselection_us", &phases::reselection_us},
        {"message_us", &phases::message_us},         {"command_us", &phases::command_us},
        {"status_us", &phases::status_us}};
    const scsi_phase_costs defaults;
    for (const auto &[name, field] : phase_keys)
        k.number<double>(name, [field = field](scsi_bus_config &b) -> double & { return b.phases.*field; },
                         fmt::format("{}", defaults.*field))
            .min(0)
            .cap(1e6)
            .unit("us");

    k.check([phase_keys](const scsi_bus_config &b, const config::key_checks &c) {
        if (b.point_to_point())
            for (const auto &[name, field] : phase_keys)
                if (c.given(name))
                    c.fail(name, fmt::format("set while {} is {}", c.key("preset"), to_string(b.preset)),
                           "no bus phase times on a point-to-point SATA or SAS link (it has no arbitration or selection)");
        if (b.point_to_point() && c.given("fairness") && b.fairness)
            c.fail("fairness", fmt::format("set on a point-to-point {} link", to_string(b.preset)),
                   "false (nothing to arbitrate)");
        for (const char *name : {"width_bits", "mtransfers_per_s"})
            if (c.given(name) && b.preset != scsi_preset::custom)
                c.fail(name, fmt::format("set while {} is {}", c.key("preset"), to_string(b.preset)),
                       fmt::format("it only with {}: custom (a preset fixes width and rate)", c.key("preset")));
    });
}

}  // namespace raidtlm::rtl_models
