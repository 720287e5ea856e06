#include "testbench/scenario/array_specs.h"

#include <algorithm>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "controller/families/adaptraid5/adaptraid5_keys.h"
#include "controller/families/floating/floating_map.h"
#include "controller/kit/host_address_map.h"
#include "controller/iss/iss_device.h"
#include "controller/layouts/layout.h"
#include "controller/layouts/parity_logging_layout.h"
#include "disks/disk_layout.h"
#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "tlm/scsi_command.h"
#include "testbench/commands/commands.h"
#include "testbench/workloads/distributions.h"
#include "testbench/commands/drive_interface_time.h"

namespace raidtlm::testbench {

disks::disk_spec load_drive_spec(const std::string &path, const std::string &name, disks::drive_use use) {
    disks::disk_spec spec = disks::load_diskspec(path, name);
    const std::string lowered = disks::fit_block_count(spec);
    if (!lowered.empty()) std::cerr << "raidtlm: warning: " << lowered << "\n";
    disks::check_supported(spec, use);  // refuse what the drive does not model before elaborating
    return spec;
}

namespace {

// The scenario's overrides of the drive's own parameters (disks.*: interface time, cache).
void apply_disk_overrides(const scenario &s, disks::disk_spec &spec) {
    spec.interface.bulk_sector_transfer_ms =
        choose_drive_interface_time(s, spec.interface.bulk_sector_transfer_ms).bulk_sector_transfer_ms;
    if (s.disks.cache_segments > 0) spec.cache.segments = s.disks.cache_segments;
    if (s.disks.segment_sectors > 0) spec.cache.segment_blocks = s.disks.segment_sectors;
    if (s.disks.min_read_ahead_sectors >= 0) spec.cache.min_read_ahead_blocks = s.disks.min_read_ahead_sectors;
    spec.interface.held_scheduling = s.disks.host_queue_policy;
}

// AdaptRaid5 over these disks, built as the controller will, so that an error names its key.
void check_adaptraid5_fits(const scenario &s, const std::vector<disks::disk_spec> &specs) {
    if (!s.controller.enabled || s.controller.config.firmware.array != controller::array_kind::adaptraid5) return;
    std::vector<int64_t> sizes;
    std::vector<std::string> names;
    for (const auto &spec : specs) sizes.push_back(spec.block_count), names.push_back(spec.name);
    try {
        controller::make_adaptraid5_layout(controller::adaptraid5_settings(s.controller.config.plugins),
                                           int64_t(s.host.stripe_unit_sectors), sizes, names);
    } catch (const controller::adaptraid5_key_error &e) {
        const std::string what = e.what();
        const size_t cut = what.find("; expected ");
        throw s.error(e.key(), what.substr(0, cut),
                      cut == std::string::npos ? "an AdaptRaid5 layout that fits the disks" : what.substr(cut + 11));
    }
}

// Parity logging: the layout (regions, whole tracks) and the NVRAM log buffers must fit; the
// same checks the controller makes at construction, here so the error names the key.
void check_parity_logging_fits(const scenario &s, const disks::disk_spec &spec) {
    const controller::firmware_config &fw = s.controller.config.firmware;
    if (!s.controller.enabled || fw.array != controller::array_kind::parity_logging) return;
    const controller::parity_logging_config &c = fw.parity_logging;
    controller::parity_logging_params p;
    p.track_sectors = c.track_sectors > 0 ? c.track_sectors : disks::disk_layout(spec).sectors_per_track(0);
    p.unit_sectors = int64_t(fw.stripe_unit_sectors);
    p.log_stripes = c.log_stripes;
    p.checks = c.checks;
    p.log_to_parity = c.log_to_parity;
    p.regions_per_disk = c.regions_per_disk;
    p.log_write_tracks = c.log_write_tracks;
    const std::vector<int64_t> sizes(size_t(s.disks.count), spec.block_count);
    std::unique_ptr<controller::parity_logging_layout> l;
    try {
        l = std::make_unique<controller::parity_logging_layout>(sizes, p);
    } catch (const controller::layout_error &e) {
        throw s.error(c.regions_per_disk > 0 ? "controller.parity_logging.regions_per_disk" : "controller.layout",
                      e.what(), "a parity logging shape that fits the disks");
    }
    const int buffers = c.policy == controller::buffer_policy::static_per_region ? c.log_write_tracks * l->regions()
                        : c.buffer_tracks > 0                                    ? c.buffer_tracks
                                                                                 : c.log_write_tracks * l->regions();
    // Room is left for the write-intent records (40 bytes per write in flight): 64 KiB, ~1600.
    const uint64_t intents = fw.write_intent_log ? 64 * 1024 : 0;
    const uint64_t bytes = uint64_t(buffers) * uint64_t(p.track_sectors) * protocol::sector_bytes + intents;
    if (bytes > s.controller.config.nvram.capacity_bytes)
        throw s.error("controller.nvram.capacity_kib",
                      fmt::format("{} KiB cannot hold the parity log buffers: {} tracks of {} sectors ({} regions) "
                                  "need {} KiB{}",
                                  s.controller.config.nvram.capacity_bytes / 1024, buffers, p.track_sectors,
                                  l->regions(), (bytes + 1023) / 1024,
                                  intents ? " with 64 KiB for write-intent records" : ""),
                      "a larger NVRAM, or fewer controller.parity_logging.buffer_tracks");
    if (c.reintegration_buffer_sectors > 0 && c.reintegration_buffer_sectors < l->parity_sectors())
        throw s.error("controller.parity_logging.reintegration_buffer_sectors",
                      fmt::format("{} sectors cannot hold a region's parity ({} sectors)",
                                  c.reintegration_buffer_sectors, l->parity_sectors()),
                      fmt::format("0 or at least {}", l->parity_sectors()));
}

}  // namespace

// Every disk's drive: disks.specs, else disks.spec for each; the disks.* overrides for all.
std::vector<disks::disk_spec> load_array_specs(const scenario &s) {
    std::vector<disks::disk_spec> specs;
    const auto use = disks::drive_use::queued_commands;
    if (s.disks.spec_paths.empty())
        specs.assign(size_t(s.disks.count), load_drive_spec(s.disks.spec_path, s.disks.spec_name, use));
    for (const std::string &path : s.disks.spec_paths) specs.push_back(load_drive_spec(path, "", use));
    std::set<std::string> warned;  // a heterogeneous array's drives may each contradict the bus
    for (auto &spec : specs) {
        const std::string warning = choose_drive_interface_time(s, spec.interface.bulk_sector_transfer_ms).warning;
        if (!warning.empty() && warned.insert(warning).second) std::cerr << "raidtlm: warning: " << warning << "\n";
        apply_disk_overrides(s, spec);
    }
    return specs;
}

// "A, B" for the report: the array's drive models, each once.
std::string drive_models(const std::vector<disks::disk_spec> &specs) {
    std::vector<std::string> names;
    for (const auto &spec : specs)
        if (std::find(names.begin(), names.end(), spec.name) == names.end()) names.push_back(spec.name);
    std::string out;
    for (const auto &n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Checks, before elaboration, that the workload fits on the disks, so the error names the key.
void check_fits(const scenario &s, const std::vector<disks::disk_spec> &specs) {
    // The smallest drive bounds what the host map and a homogeneous layout can use.
    const disks::disk_spec &spec = *std::min_element(
        specs.begin(), specs.end(), [](const auto &a, const auto &b) { return a.block_count < b.block_count; });
    if (spec.block_count <= 0)
        throw s.error("disks.spec", fmt::format("disk '{}' has no blocks", spec.name),
                      "a disk spec with a positive block count");
    const uint64_t blocks = static_cast<uint64_t>(spec.block_count);
    if (s.host.layout == host_layout::stripe && s.host.stripe_unit_sectors > blocks)
        throw s.error("host.stripe_unit_sectors",
                      fmt::format("{} is larger than a disk ({} blocks)", s.host.stripe_unit_sectors, blocks),
                      fmt::format("at most {}", blocks));
    if (s.controller.enabled && s.controller.config.firmware.array == controller::array_kind::floating) {
        try {  // floating needs tracks of whole stripe units and no spares: say so before elaborating
            const disks::disk_layout geometry(spec);
            controller::floating_map(geometry, int(s.host.stripe_unit_sectors), spec.mech.head_switch_ms, 1.0);
        } catch (const controller::layout_error &e) {
            throw s.error("controller.layout", e.what(),
                          "floating on a drive whose tracks all hold a whole number of stripe units (no zones, "
                          "spares or slips; e.g. scenarios/disks/ibm0661.diskspecs with a 4-sector unit)");
        }
    }
    if (s.controller.enabled && s.controller.config.bus.point_to_point() && s.disks.count > s.controller.config.channels)
        throw s.error("controller.channels",
                      fmt::format("{} channels for {} disks on {} links", s.controller.config.channels, s.disks.count,
                                  rtl_models::to_string(s.controller.config.bus.preset)),
                      fmt::format("at least {} (a {} link is point-to-point: one drive per channel)", s.disks.count,
                                  rtl_models::to_string(s.controller.config.bus.preset)));
    const controller::host_address_map map(s.host.layout, s.host.stripe_unit_sectors,
                               std::vector<uint64_t>(static_cast<size_t>(s.disks.count), blocks));
    const uint32_t largest = size_sampler(s.workload).max_sectors();
    const char *key = s.workload.size_distribution == size_dist::constant ? "workload.request_sectors"
                      : s.workload.size_distribution == size_dist::table  ? "workload.size_table"
                                                                          : "workload.size_max_sectors";
    if (s.workload.arrival != arrival_process::trace && largest > map.capacity_sectors())
        throw s.error(key,
                      fmt::format("a request of {} sectors is larger than the host capacity of {} sectors", largest,
                                  map.capacity_sectors()),
                      fmt::format("requests of at most {} sectors", map.capacity_sectors()));
    if (s.controller.enabled && s.controller.config.cpu.model == rtl_models::cpu_model::iss &&
        s.workload.arrival != arrival_process::trace) {
        const uint64_t most =
            controller::iss_largest_request_sectors(s.disks.count, s.controller.config.dram.capacity_bytes);
        if (largest > most)
            throw s.error(key,
                          fmt::format("a request of {} sectors is larger than the C firmware on the ISS serves ({} "
                                      "sectors: one buffer of up to {} times the request, at most 65535 sectors and "
                                      "within controller.dram.capacity_mib)",
                                      largest, most, s.disks.count),
                          fmt::format("requests of at most {} sectors, or controller.cpu.model: cost_table", most));
    }
    check_parity_logging_fits(s, spec);
    check_adaptraid5_fits(s, specs);
}

}  // namespace raidtlm::testbench
