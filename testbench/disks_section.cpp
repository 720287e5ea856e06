// disks.*: which drive, how many, and the drive's own interface time.
#include "testbench/scenario_sections.h"

namespace raidtlm::testbench {

void declare_disks_section(scenario_keys_t &root) {
    using config::key_use;
    using config::value_ref;
    config::declarations<disks_config> k;
    k.custom(
        "spec", "", "a path to a DiskSim .diskspecs file, relative to the scenario file or the repo root",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            d.spec_path = config::read_file_path(config::read_scalar(v, u), v, u);
        },
        [](const disks_config &d) { return nlohmann::json(d.spec_path); });
    k.custom(
        "name", "\"\"", "the name of a disksim_disk block in the spec file, or \"\" when it holds one",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            key_use short_form = u;
            short_form.expected = "a disk name or \"\"";
            d.spec_name = v.node.IsNull() ? std::string() : config::read_scalar(v, short_form);
        },
        [](const disks_config &d) { return nlohmann::json(d.spec_name); });
    k.integer("count", &disks_config::count, "4", 1, 256);
    k.boolean("spindle_sync", &disks_config::spindle_sync, "false");
    k.custom(
        "bulk_sector_transfer_ms", "auto",
        "auto (behind a controller: the SCSI bus's rate; else the spec's), spec (the spec's Bulk sector transfer "
        "time) or a number >= 0 (ms per sector)",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            const std::string given = config::read_scalar(v, u);
            if (given == "spec") d.bulk_sector_transfer_ms = disks_config::interface_spec;
            else if (given == "auto") d.bulk_sector_transfer_ms = disks_config::interface_auto;
            else d.bulk_sector_transfer_ms = config::read_number(v, u, 0, false, 1e6, false);
        },
        [](const disks_config &d) {
            if (d.bulk_sector_transfer_ms == disks_config::interface_spec) return nlohmann::json("spec");
            if (d.bulk_sector_transfer_ms == disks_config::interface_auto) return nlohmann::json("auto");
            return nlohmann::json(d.bulk_sector_transfer_ms);
        });
    root.mount("disks", k, &scenario::disks);
}

}  // namespace raidtlm::testbench
