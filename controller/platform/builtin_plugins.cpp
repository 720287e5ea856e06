// raidtlm's own plug-ins, registered explicitly (registry.h says why), and the look-ups the
// platform uses to build a firmware from a scenario.
#include <algorithm>
#include <mutex>

#include "controller/families/adaptraid5/adaptraid5_keys.h"
#include "controller/families/bricks/brick_firmware.h"
#include "controller/families/floating/floating_firmware.h"
#include "controller/families/floating/floating_raid6_firmware.h"
#include "controller/iss/iss_firmware.h"
#include "controller/layouts/make_layout.h"
#include "controller/firmware_api/member_superblock.h"
#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/layouts/parity_logging_layout.h"
#include "controller/firmware_api/plugins.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/families/raid/raid_firmware.h"
#include "controller/families/streams/stream_engine_config.h"
#include "controller/families/streams/stream_firmware.h"
#include "controller/families/replicated/replicated_firmware.h"

namespace raidtlm::controller {

namespace {

std::vector<int64_t> disk_sizes(const std::vector<disk_info> &disks) {
    std::vector<int64_t> sizes;
    for (const auto &d : disks) sizes.push_back(int64_t(d.capacity_blocks));
    return sizes;
}

layout_config common_layout(const firmware_config &fw, const std::string &kind) {
    layout_config lc;
    lc.kind = kind;
    lc.sr.ds = fw.sr_ds;
    lc.sr.dr = fw.sr_dr;
    lc.sr.dm = fw.sr_dm;
    lc.unit_sectors = int64_t(fw.stripe_unit_sectors);
    lc.mirror_copies = fw.mirror_copies;
    lc.placement = fw.parity_rotation;
    lc.checks = fw.array == array_kind::floating ? fw.floating_checks : fw.raid6_checks;
    return lc;
}

// A layout make_layout builds under `kind`, of the scheme of its registered name.
layout_factory standard(const std::string &help, array_kind scheme, const std::string &kind) {
    return {help, scheme, [kind](const controller_config &c, const std::vector<disk_info> &disks) {
                return make_layout(common_layout(c.firmware, kind), disk_sizes(disks), disks.front().geometry);
            }};
}

std::unique_ptr<layout> parity_logging_array(const controller_config &cc, const std::vector<disk_info> &disks) {
    const firmware_config &fw = cc.firmware;
    const parity_logging_config &c = fw.parity_logging;
    parity_logging_params p;
    p.track_sectors = c.track_sectors;
    if (p.track_sectors == 0 && disks.front().geometry)  // the outermost zone's track
        p.track_sectors = disks::disk_layout(*disks.front().geometry).sectors_per_track(0);
    p.unit_sectors = int64_t(fw.stripe_unit_sectors);
    p.log_stripes = c.log_stripes;
    p.checks = c.checks;
    p.log_to_parity = c.log_to_parity;
    p.regions_per_disk = c.regions_per_disk;
    p.log_write_tracks = c.log_write_tracks;
    return std::make_unique<parity_logging_layout>(disk_sizes(disks), p);
}

void register_layouts() {
    layout_registry &r = layout_registry::instance();
    r.add("raid0", {"striping (host.layout jbod: the disks concatenated, no array map)", array_kind::raid0,
                    [](const controller_config &c, const std::vector<disk_info> &disks) -> std::unique_ptr<layout> {
                        if (c.firmware.layout == host_layout::jbod) return nullptr;  // host_address_map does it
                        return make_layout(common_layout(c.firmware, "raid0"), disk_sizes(disks), disks.front().geometry);
                    }});
    r.add("raid1", standard("every disk a full copy", array_kind::raid1, "raid1"));
    r.add("raid10", standard("striped mirrors (controller.mirror_copies)", array_kind::raid10, "raid10"));
    r.add("raid4", standard("striping with a dedicated parity disk", array_kind::raid4, "raid4"));
    r.add("raid5", standard("striping with rotating parity (controller.parity_rotation)", array_kind::raid5, "raid5"));
    r.add("raid6", standard("striping with rotating P and Q (Reed-Solomon over GF(2^8)): two failures survived "
                            "(controller.raid6_checks 3: P, Q and R, three)",
                            array_kind::raid6, "raid6"));
    r.add("sr_array", standard("SR-Mirror Ds x Dr x Dm (Yu et al.)", array_kind::sr_array, "sr-mirror"));
    r.add("floating", {"RAID 5 (controller.floating_checks 2 or 3: RAID 6 with P+Q or P+Q+R) over what floating "
                       "data and check leave: one track per cylinder free",
                       array_kind::floating,
                       [](const controller_config &c, const std::vector<disk_info> &disks) {
                           std::vector<int64_t> sizes = disk_sizes(disks);
                           for (auto &s : sizes)
                               s = floating_logical_sectors(disks.front(), int(c.firmware.stripe_unit_sectors));
                           const char *kind = c.firmware.floating_checks >= 2 ? "raid6" : "raid5";
                           return make_layout(common_layout(c.firmware, kind), sizes, disks.front().geometry);
                       }});
    r.add("parity_logging",
          {"parity logging regions and sublogs (Stodolsky et al.)", array_kind::parity_logging, parity_logging_array});
    r.add("adaptraid5", {"heterogeneous RAID 5 (Cortes and Labarta): controller.adaptraid5.uf and .sip",
                         array_kind::adaptraid5,
                         [](const controller_config &c, const std::vector<disk_info> &disks) -> std::unique_ptr<layout> {
                             std::vector<std::string> names;
                             for (const auto &d : disks) names.push_back(d.geometry ? d.geometry->name : std::string());
                             return make_adaptraid5_layout(adaptraid5_settings(c.plugins),
                                                           int64_t(c.firmware.stripe_unit_sectors), disk_sizes(disks),
                                                           names);
                         }});
}

template <class F>
firmware_factory family(const std::string &help, std::vector<std::string> layouts) {
    return {help, std::move(layouts), [](firmware_platform &p) -> std::unique_ptr<firmware> { return std::make_unique<F>(p); }};
}

void register_firmware() {
    firmware_registry &r = firmware_registry::instance();
    r.add("raid", family<raid_firmware>("RAID 0 / JBOD, RAID 4, RAID 5, AdaptRaid5: degraded paths, "
                                        "read-rotate-write",
                                        {"raid0", "raid4", "raid5", "adaptraid5"}));
    r.add("raid6", family<raid6_firmware>("RAID 6 (P+Q, or P+Q+R with controller.raid6_checks 3): Q and R on the "
                                          "XOR engine's GF mode, degraded paths with up to as many members lost as "
                                          "checks, media-error repair from the checks",
                                          {"raid6"}));
    r.add("replicated", family<replicated_firmware>("RAID 1, RAID 10, SR-Array: mirror reads, delayed writes, "
                                                    "power-loss recovery",
                                                    {"raid1", "raid10", "sr_array"}));
    r.add("parity_logging", family<parity_logging_firmware>("parity logging (Stodolsky et al.)", {"parity_logging"}));
    // One family for both check counts: controller.floating_checks picks RAID 5 or RAID 6 below.
    r.add("floating", {"floating data and parity (Menon and Kasson); controller.floating_checks 2 or 3: over RAID 6 "
                       "(P+Q or P+Q+R)",
                       {"floating"},
                       [](firmware_platform &p) -> std::unique_ptr<firmware> {
                           if (p.config().firmware.floating_checks >= 2)
                               return std::make_unique<floating_raid6_firmware>(p);
                           return std::make_unique<floating_firmware>(p);
                       }});
    r.add("streams", family<stream_firmware>("RAID 0 / JBOD with the stream engine for many sequential streams "
                                             "(Panagiotakis; keys controller.streams.*)",
                                             {"raid0"}));
    // Storage bricks (Lumb): one disk each, on the network of the bricks topology.
    auto brick = [](const std::string &help, distribution_policy policy) {
        return firmware_factory{help, {"raid0"}, [policy](firmware_platform &p) -> std::unique_ptr<firmware> {
                                    return std::make_unique<brick_firmware>(p, policy);
                                }};
    };
    r.add("dsptf", brick("storage brick, D-SPTF: reads at every replica, CLAIM on selection", distribution_policy::dsptf));
    r.add("brick_lard", brick("storage brick, LARD: replica 0 routes reads by load and block (bricks.lard_low, .lard_high)",
                               distribution_policy::lard));
    r.add("brick_hashing", brick("storage brick, reads to the replica hash(block) mod replicas", distribution_policy::hashing));
    r.add("brick_weighted_hashing", brick("storage brick, reads hashed in proportion to bricks.replica_weights",
                                          distribution_policy::weighted_hashing));
}

scheduler_factory policy_scheduler(const std::string &help, scheduling_policy p) {
    scheduler_factory f;
    f.help = help;
    f.needs_predictor = p == scheduling_policy::satf || is_replica_aware(p);
    f.replica_aware = is_replica_aware(p);
    f.make = [](const disk_scheduler::config &c) { return std::make_unique<disk_scheduler>(c); };
    return f;
}

void register_schedulers() {
    scheduler_registry &r = scheduler_registry::instance();
    r.add("fcfs", scheduler_factory{"first come, first served (the queue's own order)", false, false, nullptr});
    r.add("sstf", policy_scheduler("shortest seek first", scheduling_policy::sstf));
    r.add("look", policy_scheduler("elevator", scheduling_policy::look));
    r.add("c-look", policy_scheduler("one-way elevator", scheduling_policy::c_look));
    r.add("cvscan", policy_scheduler("V-SCAN(R) (controller.cvscan_r)", scheduling_policy::cvscan));
    r.add("satf", policy_scheduler("shortest predicted access time first", scheduling_policy::satf));
    r.add("rlook", policy_scheduler("LOOK over every rotational replica", scheduling_policy::rlook));
    r.add("rsatf", policy_scheduler("SATF over every rotational replica", scheduling_policy::rsatf));
}

void register_predictors() {
    predictor_registry::instance().add(
        "head_position", {"the firmware's head-position predictor (head_position_predictor.h)",
                          [](const disks::disk_spec &spec, const head_position_predictor::config &c,
                             const drive_latency &latency) {
                              return std::make_unique<head_position_predictor>(spec, c, latency);
                          }});
}

}  // namespace

void register_builtin_plugins() {
    static std::once_flag once;
    std::call_once(once, [] {
        register_layouts();
        register_firmware();
        register_schedulers();
        register_predictors();
        register_stream_engine_keys();
        register_adaptraid5_keys();
    });
}

std::string layout_name(const firmware_config &fw) {
    return fw.array_layout.empty() ? to_string(fw.array) : fw.array_layout;
}

const layout_factory *find_layout(const std::string &name) {
    register_builtin_plugins();
    return layout_registry::instance().find(name);
}

std::string scheduler_name(const firmware_config &fw) {
    return fw.scheduler_plugin.empty() ? to_string(fw.scheduler) : fw.scheduler_plugin;
}

std::string firmware_name(const firmware_config &fw) {
    register_builtin_plugins();
    const firmware_registry &r = firmware_registry::instance();
    const std::string lay = layout_name(fw), scheme = to_string(fw.array);
    // By the layout's name, or by its scheme (a layout plug-in of a scheme a family serves).
    auto serves = [&](const firmware_factory &f) {
        return std::find(f.layouts.begin(), f.layouts.end(), lay) != f.layouts.end() ||
               std::find(f.layouts.begin(), f.layouts.end(), scheme) != f.layouts.end();
    };
    if (fw.firmware.empty()) {
        // raidtlm's own family of the layout first, then any other that serves it.
        for (const char *name : {"raid", "replicated", "parity_logging", "floating"})
            if (const firmware_factory *f = r.find(name); f && serves(*f)) return name;
        for (const auto &[name, f] : r.entries())
            if (serves(f)) return name;
        throw std::invalid_argument("no registered firmware serves controller.layout " + lay + "; registered: " +
                                    join_names(r.names()));
    }
    const firmware_factory *f = r.find(fw.firmware);
    if (!f)
        throw std::invalid_argument("no firmware named '" + fw.firmware + "' is registered (" + join_names(r.names()) + ")");
    if (!serves(*f))
        throw std::invalid_argument("firmware '" + fw.firmware + "' does not serve controller.layout " + lay +
                                    " (it serves " + join_names(f->layouts) + ")");
    return fw.firmware;
}

std::unique_ptr<firmware> make_firmware(firmware_platform &platform) {
    if (platform.config().cpu.model == rtl_models::cpu_model::iss) return make_iss_firmware(platform);
    const std::string name = firmware_name(platform.config().firmware);
    return firmware_registry::instance().find(name)->make(platform);
}

std::unique_ptr<layout> make_array_layout(const controller_config &c, const std::vector<disk_info> &disks) {
    register_builtin_plugins();
    const std::string name = layout_name(c.firmware);
    const layout_factory *f = layout_registry::instance().find(name);
    if (!f)
        throw layout_error("unknown layout '" + name + "'; expected one of " +
                           join_names(layout_registry::instance().names()));
    // Each member's last sectors hold its superblock (member_superblock.h): the array's data end before.
    std::vector<disk_info> members = disks;
    if (layout_keeps_member_identity(c.firmware.array))
        for (disk_info &d : members) d.capacity_blocks = member_data_sectors(d.capacity_blocks);
    return f->make(c, members);
}

std::unique_ptr<layout> make_array_layout(const firmware_platform &platform) {
    std::vector<disk_info> disks;
    for (int d = 0; d < platform.disk_count(); ++d) disks.push_back(platform.drive_info(d));
    return make_array_layout(platform.config(), disks);
}

const scheduler_factory &scheduler_plugin(const firmware_config &fw) {
    register_builtin_plugins();
    const std::string name = scheduler_name(fw);
    const scheduler_factory *f = scheduler_registry::instance().find(name);
    if (!f)
        throw std::invalid_argument("unknown scheduler '" + name + "'; expected one of " +
                                    join_names(scheduler_registry::instance().names()));
    return *f;
}

}  // namespace raidtlm::controller
