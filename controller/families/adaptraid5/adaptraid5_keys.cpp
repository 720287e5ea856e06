#include "controller/families/adaptraid5/adaptraid5_keys.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "controller/layouts/layout.h"

namespace raidtlm::controller {

namespace {

const char *uf_form = "capacity, a list of one UF in (0, 1] per disk, or a map {DISK_SPEC_NAME: UF}";

void read_uf(adaptraid5_config &c, const config::value_ref &v, const config::key_use &u) {
    c.uf_per_disk.clear();
    c.uf_per_class.clear();
    if (v.node.IsSequence()) {
        for (const YAML::Node &item : v.node) c.uf_per_disk.push_back(config::read_number(config::part_of(v, item), u, 0, true, 1, false));
        if (c.uf_per_disk.empty()) config::fail(v, u, "an empty list");
        return;
    }
    if (v.node.IsMap()) {
        for (const auto &kv : v.node) {
            const std::string name = kv.first.as<std::string>();
            c.uf_per_class.emplace_back(name, config::read_number(config::part_of(v, kv.second), u, 0, true, 1, false));
        }
        if (c.uf_per_class.empty()) config::fail(v, u, "an empty map");
        return;
    }
    const std::string word = config::read_scalar(v, u);
    if (word != "capacity") config::fail(v, u, fmt::format("'{}' is not a valid value", word));
}

nlohmann::json echo_uf(const adaptraid5_config &c) {
    if (!c.uf_per_disk.empty()) return c.uf_per_disk;
    if (c.uf_per_class.empty()) return "capacity";
    nlohmann::json j = nlohmann::json::object();
    for (const auto &[name, uf] : c.uf_per_class) j[name] = uf;
    return j;
}

}  // namespace

void register_adaptraid5_keys() {
    static std::once_flag once;
    std::call_once(once, [] {
        config::register_plugin_keys<adaptraid5_config>(
            adaptraid5_prefix, "layout adaptraid5", [](config::declarations<adaptraid5_config> &k) {
                k.custom("uf", "capacity", uf_form, read_uf, echo_uf)
                    .note("AdaptRaid5 utilisation factors (Cortes and Labarta 4.1); capacity: each disk's size / "
                          "the largest's");
                k.integer("sip", &adaptraid5_config::sip, "19", 1, 100000)
                    .note("AdaptRaid5 stripes in the pattern; every disk needs UF x SIP >= 1");
            });
    });
}

adaptraid5_config adaptraid5_settings(const config::plugin_values &plugins) {
    if (!plugins.contains(adaptraid5_prefix)) return {};
    return plugins.get<adaptraid5_config>(adaptraid5_prefix);
}

std::vector<double> utilisation_factors(const adaptraid5_config &c, const std::vector<int64_t> &disk_sectors,
                                        const std::vector<std::string> &spec_names) {
    const std::string key = adaptraid5_prefix + ".uf";
    const size_t n = disk_sectors.size();
    if (!c.uf_per_disk.empty()) {
        if (c.uf_per_disk.size() != n)
            throw adaptraid5_key_error(key, fmt::format("{} utilisation factors for {} disks; expected one per disk",
                                                        c.uf_per_disk.size(), n));
        return c.uf_per_disk;
    }
    std::vector<double> uf;
    if (!c.uf_per_class.empty()) {
        for (size_t d = 0; d < n; ++d) {
            const std::string &name = d < spec_names.size() ? spec_names[d] : std::string();
            auto it = std::find_if(c.uf_per_class.begin(), c.uf_per_class.end(),
                                   [&](const auto &e) { return e.first == name; });
            if (it == c.uf_per_class.end())
                throw adaptraid5_key_error(key, fmt::format("no entry for disk {}'s drive '{}'; expected a UF for "
                                                            "every drive model of the array",
                                                            d, name));
            uf.push_back(it->second);
        }
        return uf;
    }
    const int64_t largest = n ? *std::max_element(disk_sectors.begin(), disk_sectors.end()) : 0;
    for (int64_t s : disk_sectors) uf.push_back(largest > 0 ? double(s) / double(largest) : 1.0);
    return uf;
}

std::unique_ptr<adaptraid5_layout> make_adaptraid5_layout(const adaptraid5_config &c, int64_t unit_sectors,
                                                          const std::vector<int64_t> &disk_sectors,
                                                          const std::vector<std::string> &spec_names) {
    const size_t n = disk_sectors.size();
    if (n < 2)
        throw adaptraid5_key_error("controller.layout",
                                   fmt::format("adaptraid5 over {} disk; expected at least 2 disks", n));
    const std::vector<double> uf = utilisation_factors(c, disk_sectors, spec_names);
    const std::string uf_key = adaptraid5_prefix + ".uf", sip_key = adaptraid5_prefix + ".sip";
    for (size_t d = 0; d < n; ++d) {
        if (!(uf[d] > 0 && uf[d] <= 1))
            throw adaptraid5_key_error(uf_key, fmt::format("disk {} has UF {}; expected a value in (0, 1]", d, uf[d]));
        // As adaptraid5_pattern::from_utilisation: UF x SIP blocks, floored.
        if (std::floor(uf[d] * c.sip + 1e-9) < 1)
            throw adaptraid5_key_error(sip_key, fmt::format("SIP {} gives disk {} (UF {}) no block of the pattern; "
                                                            "expected SIP >= {}",
                                                            c.sip, d, uf[d], std::ceil(1.0 / uf[d] - 1e-9)));
    }
    const int64_t smallest = *std::min_element(disk_sectors.begin(), disk_sectors.end());
    if (unit_sectors > smallest)
        throw adaptraid5_key_error("host.stripe_unit_sectors",
                                   fmt::format("a stripe unit of {} sectors is larger than the smallest disk ({} "
                                               "sectors)",
                                               unit_sectors, smallest));
    try {
        return std::make_unique<adaptraid5_layout>(disk_sectors, unit_sectors, uf, c.sip);
    } catch (const layout_error &e) {  // a disk too small for one repetition of the pattern
        throw adaptraid5_key_error(sip_key, e.what());
    }
}

}  // namespace raidtlm::controller
