// Every firmware key of the scenario (controller.*: layout, scheduler, predictor, parity logging,
// delayed writes, ...) and the checks across them, in one file so that a change of the firmware's
// structures is re-pointed here. Defaults are the ones documented in controller_config.h.
#include "controller/platform/controller_keys.h"

#include <fmt/format.h>

#include "controller/firmware_api/plugins.h"

namespace raidtlm::controller {

namespace {

const config::names<buffer_policy> buffer_policy_names = {{"global", buffer_policy::global},
                                                          {"static", buffer_policy::static_per_region}};
const config::names<scheduling_policy> scheduler_names = {
    {"fcfs", scheduling_policy::fcfs},     {"sstf", scheduling_policy::sstf},   {"look", scheduling_policy::look},
    {"c-look", scheduling_policy::c_look}, {"cvscan", scheduling_policy::cvscan}, {"satf", scheduling_policy::satf},
    {"rlook", scheduling_policy::rlook},   {"rsatf", scheduling_policy::rsatf}};
const config::names<bool> rmw_names = {{"separate", false}, {"read_rotate_write", true}};
const config::names<bool> rrw_order_names = {{"together", false}, {"parity_after_data", true}};
const config::names<bool> old_data_names = {{"preread", false}, {"cached", true}};
const config::names<parity_placement> rotation_names = {{"left-symmetric", parity_placement::left_symmetric},
                                                        {"left-asymmetric", parity_placement::left_asymmetric},
                                                        {"right-symmetric", parity_placement::right_symmetric},
                                                        {"right-asymmetric", parity_placement::right_asymmetric}};

using fw_t = firmware_config;

// controller.layout's accepted values: every registered layout, raidtlm's and plug-ins'.
std::string layout_expected() {
    register_builtin_plugins();
    std::string out;
    for (const auto &[name, f] : layout_registry::instance().entries()) {
        const std::string scheme = to_string(f.scheme);
        out += (out.empty() ? "" : ", ") + name + (name == scheme ? "" : " (" + scheme + ")");
    }
    return "a registered layout: " + out;
}

// controller.firmware's accepted values: the registered firmware families and the layouts each serves.
std::string firmware_expected() {
    register_builtin_plugins();
    std::string families;
    for (const auto &[name, f] : firmware_registry::instance().entries())
        families += (families.empty() ? "" : ", ") + name + " (" + join_names(f.layouts) + ")";
    return "a registered firmware family: " + families + "; \"\": the family that serves controller.layout";
}

// controller.scheduler's accepted values: the built-in policies, then every registered plug-in.
std::string scheduler_expected() {
    register_builtin_plugins();
    std::vector<std::string> plugins;
    for (const std::string &name : scheduler_registry::instance().names()) {
        bool builtin = false;
        for (const auto &b : scheduler_names) builtin = builtin || name == b.first;
        if (!builtin) plugins.push_back(name);
    }
    return config::one_of(scheduler_names) +
           (plugins.empty() ? std::string() : ", or a registered plug-in: " + join_names(plugins));
}
template <class F>
using field_ref = std::function<F &(fw_t &)>;

void declare_parity_logging_keys(config::declarations<parity_logging_config> &k) {
    // Stodolsky et al. 1993; the defaults are the paper's (controller_config.h).
    using p = parity_logging_config;
    k.integer("regions_per_disk", &p::regions_per_disk, "0", 0, 1000000)
        .note("B; 0: the paper's search within 10% of sqrt(tracks per disk / K)");
    k.integer("log_stripes", &p::log_stripes, "4", 1, 64).note("L: sublogs per region");
    k.integer("checks", &p::checks, "1", 1, 3)
        .note("check images per big row and log copies: 1 = parity (one log), 2 = P and Q with the log on two "
              "copies, 3 = P, Q and R with the log on three (the paper's Section 9; a region takes checks x L log "
              "disks; up to `checks` lost disks are served)");
    k.number("log_to_parity_ratio", &p::log_to_parity, "1")
        .above(0)
        .max(100)
        .note("A = log / parity space per region; the paper's C_L = C_P is 1");
    k.integer("log_write_tracks", &p::log_write_tracks, "1", 1, 64)
        .note("K: tracks buffered per region before a log write");
    k.integer("buffer_tracks", &p::buffer_tracks, "0", 0, 1000000)
        .note("track buffers in NVRAM; 0: K x regions, the paper's KB");
    k.choice("buffer_policy", &p::policy, "global", buffer_policy_names);
    k.boolean("preread", &p::preread, "true");
    k.integer("reintegration_buffer_sectors", &p::reintegration_buffer_sectors, "0", 0, 1000000000)
        .form("an integer in [0, 1000000000]")
        .note("0: one region's parity, the paper's VT/B tracks");
    k.integer("track_sectors", &p::track_sectors, "0", 0, 100000)
        .note("sectors per track for region sizing; 0: the drives' outermost zone");
    // Steady state at once: each region's log starts at a uniformly random whole-track fill
    // (the stationary fill level under uniform writes; steady_state_log_fill.h), seeded from
    // workload.seed. The pre-filled log holds no records, only timed sublog reads.
    k.boolean("steady_state_start", &p::steady_state_start, "false");
}

}  // namespace

void declare_keys(config::declarations<firmware_config> &k) {
    k.integer("tags_per_disk", &fw_t::tags_per_disk, "0", 0, 256).note("0: the drive's Max queue length");
    k.custom(
        "layout", "raid0", layout_expected(),
        [](fw_t &f, const config::value_ref &v, const config::key_use &u) {
            const std::string name = config::read_scalar(v, u);
            const layout_factory *l = find_layout(name);
            if (!l) config::fail(v, u, "'" + name + "' is not a registered layout");
            f.array_layout = name;
            f.array = l->scheme;
        },
        [](const fw_t &f) { return nlohmann::json(layout_name(f)); });
    k.custom(
        "firmware", "\"\"", firmware_expected(),
        [](fw_t &f, const config::value_ref &v, const config::key_use &u) {
            f.firmware = v.node.IsNull() ? std::string() : config::read_scalar(v, u);
        },
        [](const fw_t &f) { return nlohmann::json(f.firmware); });
    k.choice("parity_rotation", &fw_t::parity_rotation, "left-symmetric", rotation_names);
    k.integer("floating_checks", &fw_t::floating_checks, "1", 1, 3)
        .note("floating: check units per stripe; 1: P (RAID 5), 2: P and Q (RAID 6, two failures survived; the "
              "parity logging paper's Section 9 \"floating data and check\"), 3: P, Q and R (three)");
    k.integer("raid6_checks", &fw_t::raid6_checks, "2", 2, 3)
        .note("raid6: check units per stripe; 2: P and Q, 3: P, Q and R = sum g^(2j) D_j (three failures "
              "survived)");
    k.integer("mirror_copies", &fw_t::mirror_copies, "2", 2, 16).note("raid10 only");
    k.integer("sr.ds", &fw_t::sr_ds, "1", 1, 256).note("sr_array: seek reduction, the outer 1/Ds");
    k.integer("sr.dr", &fw_t::sr_dr, "1", 1, 64).note("sr_array: rotational replicas per disk");
    k.integer("sr.dm", &fw_t::sr_dm, "1", 1, 256).note("sr_array: copies on other disks");
    k.number<double>("reconstruct_write_fraction",
                     [](fw_t &f) -> double & { return f.parity_writes.reconstruct_write_fraction; }, "0.5")
        .min(0)
        .cap(1e6)
        .note("raid4/raid5: reconstruct-write when a write covers at least this fraction of the stripe's data "
              "units");
    k.choice<bool>("rmw", [](fw_t &f) -> bool & { return f.parity_writes.read_rotate_write; }, "separate",
                   rmw_names);
    k.choice("rrw_order", &fw_t::rrw_parity_after_data, "together", rrw_order_names);
    k.choice("old_data", &fw_t::old_data_cached, "preread", old_data_names)
        .note("read-rotate-write stripes: cached = the old data in the controller's cache, a plain data write");

    config::declarations<parity_logging_config> parity_logging;
    declare_parity_logging_keys(parity_logging);
    k.mount("parity_logging", parity_logging, &fw_t::parity_logging);

    k.number<double>("rebuild_share", [](fw_t &f) -> double & { return f.rebuild.share; }, "0.3")
        .min(0.001)
        .cap(1)
        .note("a rebuild onto a replacement drive keeps at most this fraction of its time busy (MegaRAID's "
              "default rebuild rate, 30%)");
    k.number<double>("rebuild_rate_mb_s", [](fw_t &f) -> double & { return f.rebuild.rate_mb_s; }, "0")
        .min(0)
        .cap(1e6)
        .note("a rebuild reconstructs at most this many MB per second; 0: no cap (Linux md's speed_limit_max)");
    k.integer<int>("rebuild_units_in_flight", [](fw_t &f) -> int & { return f.rebuild.units_in_flight; }, "1", 1, 64)
        .note("rebuild steps (units) under way at once, each paced on its own; 1: one at a time");
    k.integer("fail_disk", &fw_t::fail_disk, "-1", -1, 255).note("a disk marked lost mid-run; -1: none");
    k.integer("fail_after_requests", &fw_t::fail_after_requests, "0", 0, 1000000000000LL)
        .note("the host request, counted from 0, at which fail_disk is lost");
    k.custom(
        "scheduler", "fcfs", scheduler_expected(),
        [](fw_t &f, const config::value_ref &v, const config::key_use &u) {
            // A built-in policy, else a scheduler plug-in registered by name.
            const std::string name = config::read_scalar(v, u);
            f.scheduler_plugin.clear();
            for (const auto &[n, policy] : scheduler_names)
                if (n == name) {
                    f.scheduler = policy;
                    return;
                }
            if (!scheduler_registry::instance().find(name)) config::fail(v, u, fmt::format("'{}' is not a valid choice", name));
            f.scheduler = scheduling_policy::fcfs;
            f.scheduler_plugin = name;
        },
        [](const fw_t &f) { return nlohmann::json(scheduler_name(f)); });
    k.number("cvscan_r", &fw_t::cvscan_r, "0.2").range(0, 1).note("cvscan only");
    k.boolean("predictor.feedback", [](fw_t &f) -> bool & { return f.predictor.slack.feedback; }, "true");
    k.number<double>("predictor.slack_sectors",
                     [](fw_t &f) -> double & { return f.predictor.slack.initial_sectors; }, "2")
        .range(0, 64)
        .note("satf: the initial k-sector slack");
    k.number<double>("predictor.target_miss_rate",
                     [](fw_t &f) -> double & { return f.predictor.slack.target_miss_rate; }, "0.01")
        .above(0)
        .max(1)
        .note("satf: the feedback's target");
    k.number<double>("predictor.reference_read_interval_ms",
                     [](fw_t &f) -> double & { return f.predictor.calibration.interval_ms; }, "120000")
        .min(0)
        .cap(1e9)
        .unit("ms")
        .note("the predictor re-calibrates on reference reads at intervals doubling from 250 ms up to this; 0: at "
              "start-up only; Yu et al.: two minutes");
    k.boolean("delayed_writes.foreground_propagation",
              [](fw_t &f) -> bool & { return f.delayed_writes.foreground_propagation; }, "false");
    k.integer<size_t>("delayed_writes.threshold_entries",
                      [](fw_t &f) -> size_t & { return f.delayed_writes.threshold_entries; }, "10000", 1, 1000000)
        .note("delayed-write table entries before they are forced to the foreground; Yu et al. 3.4: 10,000");
    k.integer<size_t>("delayed_writes.foreground_copies_per_disk",
                      [](fw_t &f) -> size_t & { return f.delayed_writes.foreground_copies_per_disk; }, "32", 1, 100000)
        .note("delayed copies queued towards one disk at once when they cannot wait for it to be idle (after a "
              "power loss, the table's stale copies, each reading its first write's copy first; past "
              "threshold_entries, every delayed write); the scheduler picks among them; our choice: recovery "
              "time within 5% of an unbounded start in EXPERIMENTS 19.32, which held the whole table's "
              "buffers and queued commands at once");
    k.boolean("write_intent_log", &fw_t::write_intent_log, "true");
    k.integer("table_entry_bytes", &fw_t::table_entry_bytes, "64", 0, 65536);
}

void check_firmware_keys(const firmware_config &fw, const firmware_context &ctx, const config::key_checks &k) {
    const int n = ctx.disk_count;
    const std::string kind = layout_name(fw);
    const std::string layout = k.key("layout"), scheduler = k.key("scheduler");
    const std::string scheduler_name = controller::scheduler_name(fw);
    const scheduler_factory &sched = scheduler_plugin(fw);
    const auto set_while_layout = [&](const std::string &name, const std::string &expected,
                                      const std::string &detail = "") {
        k.fail(name, fmt::format("set while {} is {}{}", layout, kind, detail), expected);
    };
    // A layout plug-in places its units itself, with its own keys (controller.<its name>.*): the
    // built-in layouts' placement keys would be silently ignored by it.
    if (kind != to_string(fw.array))
        for (const char *name : {"parity_rotation", "mirror_copies", "sr.ds", "sr.dr", "sr.dm"})
            if (k.given(name))
                set_while_layout(name, fmt::format("it only with a built-in layout ({}'s own keys: controller.{}.*)", kind, kind),
                                 fmt::format(", a layout plug-in of the {} scheme", to_string(fw.array)));
    // The layouts the RAID firmware writes with parity (raid_parity_paths.cpp).
    const bool raid45 = fw.array == array_kind::raid5 || fw.array == array_kind::raid4 ||
                        fw.array == array_kind::adaptraid5 || fw.array == array_kind::raid6;

    if (fw.array != array_kind::raid0 && fw.layout == host_layout::jbod)
        k.fail("layout", fmt::format("{} while host.layout is jbod", kind),
               "raid0 with host.layout: jbod (the other layouts stripe)");
    if (k.given("parity_rotation") && fw.array != array_kind::raid5 && fw.array != array_kind::floating)
        set_while_layout("parity_rotation", fmt::format("it only with {}: raid5", layout));
    if (k.given("floating_checks") && fw.array != array_kind::floating)
        set_while_layout("floating_checks", fmt::format("it only with {}: floating", layout));
    if (k.given("raid6_checks") && fw.array != array_kind::raid6)
        set_while_layout("raid6_checks",
                         fmt::format("it only with {}: raid6 (floating: {})", layout, k.key("floating_checks")));
    // Floating over RAID 6 uses raid6_layout, whose checks rotate one way only.
    if (k.given("parity_rotation") && fw.array == array_kind::floating && fw.floating_checks >= 2)
        k.fail("parity_rotation", fmt::format("set while {} is {}", k.key("floating_checks"), fw.floating_checks),
               fmt::format("it only with {}: 1 (P and Q rotate as raid6's)", k.key("floating_checks")));
    if (k.given("mirror_copies") && fw.array != array_kind::raid10)
        set_while_layout("mirror_copies", fmt::format("it only with {}: raid10", layout));
    if (k.given("reconstruct_write_fraction") && !raid45 && fw.array != array_kind::floating)
        set_while_layout("reconstruct_write_fraction", fmt::format("it only with {}: raid4, raid5, raid6 or adaptraid5", layout));
    if (k.given("rrw_order") && fw.array != array_kind::floating &&
        !(raid45 && fw.parity_writes.read_rotate_write))
        set_while_layout("rrw_order",
                         fmt::format("it only with {}: floating, or raid4/raid5/raid6/adaptraid5 with {}: read_rotate_write", layout,
                                     k.key("rmw")),
                         raid45 ? fmt::format(" with {}: separate", k.key("rmw")) : "");
    if (k.given("old_data") && fw.array != array_kind::floating && !(raid45 && fw.parity_writes.read_rotate_write))
        set_while_layout("old_data",
                         fmt::format("it only with {}: floating, or raid4/raid5/raid6/adaptraid5 with {}: read_rotate_write "
                                     "(parity_logging: {})",
                                     layout, k.key("rmw"), k.key("parity_logging.preread")),
                         raid45 ? fmt::format(" with {}: separate", k.key("rmw")) : "");
    if (k.given("rmw") && !raid45 && fw.array != array_kind::parity_logging)
        set_while_layout("rmw", fmt::format("it only with {}: raid4, raid5, raid6, adaptraid5 or parity_logging (its data preread)", layout));
    if (k.given("cvscan_r") && scheduler_name != "cvscan")
        k.fail("cvscan_r", fmt::format("set while {} is {}", scheduler, scheduler_name),
               fmt::format("it only with {}: cvscan", scheduler));
    for (const char *name : {"sr.ds", "sr.dr", "sr.dm"})
        if (k.given(name) && fw.array != array_kind::sr_array)
            set_while_layout(name, fmt::format("it only with {}: sr_array", layout));
    if (fw.array == array_kind::sr_array && fw.sr_ds * fw.sr_dr * fw.sr_dm != n)
        k.fail("layout",
               fmt::format("sr_array {}x{}x{} needs Ds*Dr*Dm = {} disks; disks.count is {}", fw.sr_ds, fw.sr_dr,
                           fw.sr_dm, fw.sr_ds * fw.sr_dr * fw.sr_dm, n),
               fmt::format("{} * {} * {} = disks.count", k.key("sr.ds"), k.key("sr.dr"), k.key("sr.dm")));
    if (sched.replica_aware && fw.array != array_kind::sr_array)
        k.fail("scheduler", fmt::format("{} while {} is {}", scheduler_name, layout, kind),
               fmt::format("rlook or rsatf only with {}: sr_array", layout));
    for (const char *name : {"predictor.feedback", "predictor.slack_sectors", "predictor.target_miss_rate",
                             "predictor.reference_read_interval_ms"})
        if (k.given(name) && !sched.needs_predictor)
            k.fail(name, fmt::format("set while {} is {}", scheduler, scheduler_name),
                   fmt::format("it only with {}: satf", scheduler));
    for (const char *name : {"regions_per_disk", "log_stripes", "log_to_parity_ratio", "log_write_tracks",
                             "buffer_tracks", "buffer_policy", "preread", "reintegration_buffer_sectors",
                             "track_sectors", "steady_state_start", "checks"})
        if (k.given(std::string("parity_logging.") + name) && fw.array != array_kind::parity_logging)
            set_while_layout(std::string("parity_logging.") + name, fmt::format("it only with {}: parity_logging", layout));
    const int log_stripes = fw.parity_logging.log_stripes;
    const int checks = fw.parity_logging.checks;
    if (fw.array == array_kind::parity_logging && checks == 1 && n < log_stripes + 2)
        k.fail("layout",
               fmt::format("parity_logging with {} sublogs needs at least {} disks (a region's sublogs may not share "
                           "a disk with its data or parity); disks.count is {}",
                           log_stripes, log_stripes + 2, n),
               fmt::format("disks.count >= {} + 2", k.key("parity_logging.log_stripes")));
    // P+Q (+R): C copies of the L sublogs on C*L distinct disks, and rows of C checks and at least one datum.
    if (fw.array == array_kind::parity_logging && checks > 1 && n < checks * log_stripes + checks + 1)
        k.fail("parity_logging.checks",
               fmt::format("parity_logging with {} checks and {} sublogs needs at least {} disks ({} copies of the "
                           "log on distinct disks, then {} check members and a data member); disks.count is {}",
                           checks, log_stripes, checks * log_stripes + checks + 1, checks, checks, n),
               fmt::format("disks.count >= {0} x {1} + {0} + 1", k.key("parity_logging.checks"),
                           k.key("parity_logging.log_stripes")));
    if (k.given("firmware")) try {
            firmware_name(fw);
        } catch (const std::invalid_argument &e) {
            k.fail("firmware", e.what(), firmware_expected());
        }
    if (fw.fail_disk >= n)
        k.fail("fail_disk", fmt::format("disk {} of {} disks", fw.fail_disk, n), "a disk number below disks.count, or -1");
    const bool replicated = fw.array == array_kind::raid1 || fw.array == array_kind::raid10 ||
                            (fw.array == array_kind::sr_array && fw.sr_dr * fw.sr_dm > 1);
    for (const char *name : {"delayed_writes.foreground_propagation", "delayed_writes.threshold_entries",
                             "delayed_writes.foreground_copies_per_disk"})
        if (k.given(name) && !replicated)
            set_while_layout(name, "it only with a replicated layout: raid1, raid10, or sr_array with Dr*Dm > 1",
                             fw.array == array_kind::sr_array ? " with Dr*Dm = 1" : "");
    const auto &dw = fw.delayed_writes;
    const uint64_t table_bytes = uint64_t(dw.threshold_entries) * uint64_t(dw.entry_bytes);
    if (replicated && !dw.foreground_propagation && table_bytes > ctx.nvram_bytes)
        k.fail(k.given("delayed_writes.threshold_entries") ? "delayed_writes.threshold_entries" : "layout",
               fmt::format("a table of {} entries of {} bytes needs {} bytes of NVRAM; the NVRAM has {}",
                           dw.threshold_entries, dw.entry_bytes, table_bytes, ctx.nvram_bytes),
               fmt::format("fewer entries or a larger {}", k.key("nvram.capacity_kib")));
    if (fw.array == array_kind::raid1 && n < 2)
        k.fail("layout", fmt::format("raid1 needs at least 2 disks; disks.count is {}", n),
               "disks.count >= 2 or another layout");
    if (fw.array == array_kind::adaptraid5 && n < 2)
        k.fail("layout", fmt::format("adaptraid5 needs at least 2 disks; disks.count is {}", n),
               "disks.count >= 2 or another layout");
    if (((raid45 && fw.array != array_kind::adaptraid5) || fw.array == array_kind::floating) && n < 3)
        k.fail("layout", fmt::format("{} needs at least 3 disks; disks.count is {}", kind, n),
               "disks.count >= 3 or another layout");
    if (fw.array == array_kind::floating && fw.floating_checks == 2 && n < 4)
        k.fail("floating_checks", fmt::format("2 (P and Q) needs at least 4 disks; disks.count is {}", n),
               "disks.count >= 4 or floating_checks 1");
    if (fw.array == array_kind::floating && fw.floating_checks == 3 && n < 5)
        k.fail("floating_checks", fmt::format("3 (P, Q and R) needs at least 5 disks; disks.count is {}", n),
               "disks.count >= 5 or floating_checks 1 or 2");
    if (fw.array == array_kind::raid6 && n < 4)
        k.fail("layout", fmt::format("raid6 needs at least 4 disks (two data units, P and Q); disks.count is {}", n),
               "disks.count >= 4 or another layout");
    else if (fw.array == array_kind::raid6 && fw.raid6_checks == 3 && n < 5)
        k.fail("raid6_checks", fmt::format("3 (P, Q and R) needs at least 5 disks (two data units); disks.count is {}", n),
               "disks.count >= 5 or raid6_checks 2");
    if (fw.array == array_kind::raid10 && (n < fw.mirror_copies || n % fw.mirror_copies != 0))
        k.fail("layout",
               fmt::format("raid10 with {}-way mirrors needs a multiple of {} disks; disks.count is {}",
                           fw.mirror_copies, fw.mirror_copies, n),
               fmt::format("disks.count a multiple of {}", k.key("mirror_copies")));
}

}  // namespace raidtlm::controller
