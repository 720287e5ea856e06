// faults: the fault schedule (testbench/scenario/fault_schedule.h), a list of maps:
//   faults:
//     - {kind: disk_loss, at_request: 10000, disk: 1, replace_after_ms: 100}
//     - {kind: media_error, at_ms: [100, 2000], disk: -1, sectors: 8}
//     - {kind: silent_corruption, at_request: 500, disk: 0, lbn: 0, sectors: 64}
//     - {kind: power_loss, at_ms: 1500, restore_after_ms: 200}
//     - {kind: controller_loss, at_request: 50000, restore_after_ms: 2000}
#include "testbench/scenario/scenario_sections.h"

#include <set>

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {

using config::key_use;
using config::value_ref;

const config::names<fault_kind> kind_names = {{"disk_loss", fault_kind::disk_loss},
                                              {"media_error", fault_kind::media_error},
                                              {"silent_corruption", fault_kind::silent_corruption},
                                              {"power_loss", fault_kind::power_loss},
                                              {"controller_loss", fault_kind::controller_loss}};

const char *form =
    "a list of maps {kind: disk_loss|media_error|silent_corruption|power_loss|controller_loss, at_ms: T or [FROM, TO] "
    "| at_request: N, disk: D (-1 random), lbn: L (media_error, silent_corruption; -1 random), sectors: N "
    "(media_error, silent_corruption), restore_after_ms: T "
    "(power_loss, controller_loss), replace_after_ms: T (disk_loss)}";

fault_entry read_entry(const value_ref &v, const YAML::Node &item, const key_use &u) {
    const value_ref iv = config::part_of(v, item);
    if (!item.IsMap()) config::fail(iv, u, fmt::format("an entry is {}", config::kind_of(item)));
    fault_entry f;
    f.where = iv.where;
    static const std::set<std::string> known = {"kind", "at_ms", "at_request", "disk", "lbn", "sectors",
                                                "restore_after_ms", "replace_after_ms"};
    for (const auto &kv : item) {
        const std::string name = kv.first.as<std::string>();
        if (!known.count(name)) config::fail(config::part_of(v, kv.first), u, fmt::format("unknown field '{}'", name));
    }
    if (!item["kind"]) config::fail(iv, u, "an entry has no kind");
    f.kind = config::read_choice(config::part_of(v, item["kind"]), u, kind_names);
    if (item["at_ms"] && item["at_request"]) config::fail(iv, u, "an entry has both at_ms and at_request");
    if (!item["at_ms"] && !item["at_request"]) config::fail(iv, u, "an entry has neither at_ms nor at_request");
    if (const YAML::Node t = item["at_ms"]) {
        const value_ref tv = config::part_of(v, t);
        if (t.IsSequence()) {
            if (t.size() != 2) config::fail(tv, u, "at_ms is a list but not [FROM, TO]");
            f.at_ms = config::read_number(config::part_of(v, t[0]), u, 0, false, 1e12, false);
            f.at_ms_to = config::read_number(config::part_of(v, t[1]), u, 0, false, 1e12, false);
            if (f.at_ms_to <= f.at_ms) config::fail(tv, u, "at_ms [FROM, TO] with TO not after FROM");
        } else {
            f.at_ms = config::read_number(tv, u, 0, false, 1e12, false);
        }
    }
    if (const YAML::Node n = item["at_request"])
        f.at_request = config::read_integer(config::part_of(v, n), u, 0, 1000000000000LL);
    if (const YAML::Node n = item["disk"]) f.disk = int(config::read_integer(config::part_of(v, n), u, -1, 255));
    if (const YAML::Node n = item["lbn"]) f.lbn = config::read_integer(config::part_of(v, n), u, -1, 1LL << 40);
    if (const YAML::Node n = item["sectors"]) f.sectors = int32_t(config::read_integer(config::part_of(v, n), u, 1, 65536));
    if (const YAML::Node n = item["restore_after_ms"])
        f.restore_after_ms = config::read_number(config::part_of(v, n), u, 0, true, 1e9, false);
    if (const YAML::Node n = item["replace_after_ms"])
        f.replace_after_ms = config::read_number(config::part_of(v, n), u, 0, true, 1e9, false);
    auto only_for = [&](const char *field, fault_kind k) {
        if (item[field] && f.kind != k)
            config::fail(config::part_of(v, item[field]), u, fmt::format("{} given for a {}", field, to_string(f.kind)));
    };
    auto only_on_sectors = [&](const char *field) {
        if (item[field] && !on_sectors(f.kind))
            config::fail(config::part_of(v, item[field]), u, fmt::format("{} given for a {}", field, to_string(f.kind)));
    };
    only_on_sectors("lbn");
    only_on_sectors("sectors");
    only_for("replace_after_ms", fault_kind::disk_loss);
    if (item["restore_after_ms"] && !stops_controller(f.kind))
        config::fail(config::part_of(v, item["restore_after_ms"]), u,
                     fmt::format("restore_after_ms given for a {}", to_string(f.kind)));
    if (item["disk"] && stops_controller(f.kind))
        config::fail(config::part_of(v, item["disk"]), u, fmt::format("disk given for a {}", to_string(f.kind)));
    return f;
}

nlohmann::json entry_json(const fault_entry &f) {
    nlohmann::json j = {{"kind", to_string(f.kind)}};
    if (f.at_request >= 0) j["at_request"] = f.at_request;
    else if (f.at_ms_to > f.at_ms) j["at_ms"] = {f.at_ms, f.at_ms_to};
    else j["at_ms"] = f.at_ms;
    if (!stops_controller(f.kind)) j["disk"] = f.disk;
    if (on_sectors(f.kind)) {
        j["lbn"] = f.lbn;
        j["sectors"] = f.sectors;
    }
    if (stops_controller(f.kind)) j["restore_after_ms"] = f.restore_after_ms;
    if (f.kind == fault_kind::disk_loss && f.replace_after_ms >= 0) j["replace_after_ms"] = f.replace_after_ms;
    return j;
}

}  // namespace

void declare_faults_section(scenario_keys_t &root) {
    root.custom(
        "faults", "[]", form,
        [](scenario &s, const value_ref &v, const key_use &u) {
            s.faults.clear();
            for (const auto &item : config::read_list(v, u)) s.faults.push_back(read_entry(v, item, u));
        },
        [](const scenario &s) {
            nlohmann::json list = nlohmann::json::array();
            for (const fault_entry &f : s.faults) list.push_back(entry_json(f));
            return list;
        });
    root.check([](const scenario &s, const config::key_checks &k) {
        if (s.faults.empty()) return;
        if (!s.controller.enabled)
            k.fail("faults", "given with the controller disabled (nothing would inject them)",
                   "controller.enabled: true, or no faults");
        for (const fault_entry &f : s.faults)
            if (f.disk >= s.disks.count)
                config::fail_at(f.where, "faults", fmt::format("disk {} of {} disks", f.disk, s.disks.count),
                                "a disk number below disks.count, or -1 (drawn from the seed)");
    });
}

}  // namespace raidtlm::testbench
