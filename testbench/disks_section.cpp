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
        "bulk_sector_transfer_ms", "spec",
        "spec (the spec's Bulk sector transfer time) or a number >= 0 (ms per sector)",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            if (config::read_scalar(v, u) == "spec") d.bulk_sector_transfer_ms = -1;
            else d.bulk_sector_transfer_ms = config::read_number(v, u, 0, false, 1e6, false);
        },
        [](const disks_config &d) {
            return d.bulk_sector_transfer_ms < 0 ? nlohmann::json("spec") : nlohmann::json(d.bulk_sector_transfer_ms);
        });
    static const config::names<disks::drive_scheduling> policies = {
        {"fcfs", disks::drive_scheduling::fcfs},
        {"elevator_lbn", disks::drive_scheduling::elevator_lbn},
        {"cycle_lbn", disks::drive_scheduling::cycle_lbn},
        {"sstf_lbn", disks::drive_scheduling::sstf_lbn}};
    k.choice("host_queue_policy", &disks_config::host_queue_policy, "fcfs", policies);
    root.mount("disks", k, &scenario::disks);
}

}  // namespace raidtlm::testbench
