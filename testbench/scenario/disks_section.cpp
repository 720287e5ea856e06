// disks.*: which drive, how many, and the drive's own interface time.
#include "testbench/scenario/scenario_sections.h"

#include <fmt/format.h>

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
    k.custom(
        "specs", "[]",
        "a list of DiskSim .diskspecs paths, one per disk in disk order (each file's first disk block); [] = "
        "disks.spec for every disk",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            d.spec_paths.clear();
            for (const YAML::Node &item : config::read_list(v, u)) {
                const value_ref one = config::part_of(v, item);
                d.spec_paths.push_back(config::read_file_path(config::read_scalar(one, u), one, u));
            }
        },
        [](const disks_config &d) { return nlohmann::json(d.spec_paths); });
    k.integer("count", &disks_config::count, "4", 1, 256).note("with disks.specs: its length");
    k.check([](const disks_config &d, const config::key_checks &c) {
        if (!d.spec_paths.empty() && c.given("count") && size_t(d.count) != d.spec_paths.size())
            c.fail("count", fmt::format("{} while disks.specs names {} disks", d.count, d.spec_paths.size()),
                   "the length of disks.specs (or leave disks.count out)");
        if (d.spec_paths.size() > 256) c.fail("specs", fmt::format("{} disks", d.spec_paths.size()), "at most 256 disks");
    });
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
    // The drive's segment cache (sweeps of segment count and size, paper 002 Figs 3.4-3.5).
    auto spec_or_count = [&k](const char *name, int disks_config::*field, int hi, const char *what) {
        k.custom(
            name, "spec", fmt::format("spec (the spec's {}) or an integer in [1, {}]", what, hi),
            [field, hi](disks_config &d, const value_ref &v, const key_use &u) {
                if (config::read_scalar(v, u) == "spec") d.*field = 0;
                else d.*field = int(config::read_integer(v, u, 1, hi));
            },
            [field](const disks_config &d) { return d.*field == 0 ? nlohmann::json("spec") : nlohmann::json(d.*field); });
    };
    spec_or_count("cache_segments", &disks_config::cache_segments, 1024, "Number of buffer segments");
    spec_or_count("segment_sectors", &disks_config::segment_sectors, 1 << 22, "Segment size (in blks)");
    k.custom(
        "min_read_ahead_sectors", "spec", "spec (the spec's Minimum read-ahead) or an integer in [0, 4194304]",
        [](disks_config &d, const value_ref &v, const key_use &u) {
            if (config::read_scalar(v, u) == "spec") d.min_read_ahead_sectors = -1;
            else d.min_read_ahead_sectors = int(config::read_integer(v, u, 0, 1 << 22));
        },
        [](const disks_config &d) {
            return d.min_read_ahead_sectors < 0 ? nlohmann::json("spec") : nlohmann::json(d.min_read_ahead_sectors);
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
