// controller.adaptraid5.*: the AdaptRaid5 layout's parameters (controller.layout: adaptraid5), as
// plug-in keys (config/plugin_keys.h), and turning them into one utilisation factor per disk.
//
//   uf   capacity                     UF[d] = disk d's capacity / the largest disk's (the paper's
//                                     "values that reflect the size of the disks")
//        [1, 1, 0.46, ...]            one per disk, in disk order
//        {SPEC_NAME: UF, ...}         per disk class: every disk whose DiskSim disk block is
//                                     SPEC_NAME (disks.spec / disks.specs) gets UF
//   sip  19                           stripes in the pattern (the paper's section 5.3 value)
//
// Each UF lies in (0, 1]; the paper's convention is that the most loaded disk has 1.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <cstdint>
#include <memory>

#include "config/plugin_keys.h"
#include "controller/layouts/adaptraid5_layout.h"

namespace raidtlm::controller {

struct adaptraid5_config {
    std::vector<double> uf_per_disk;                          // not empty: one per disk
    std::vector<std::pair<std::string, double>> uf_per_class;  // not empty: by drive spec name
    int sip = 19;
};

inline const std::string adaptraid5_prefix = "controller.adaptraid5";

// Registers the keys under adaptraid5_prefix (once; register_builtin_plugins calls it).
void register_adaptraid5_keys();

// The scenario's values, or the defaults when the keys were never registered in this process.
adaptraid5_config adaptraid5_settings(const config::plugin_values &plugins);

// One UF per disk. Throws layout_error naming controller.adaptraid5.uf when a per-disk list has
// the wrong length or a disk's spec has no entry in a per-class map.
// `spec_names[d]`: disk d's DiskSim disk block name.
std::vector<double> utilisation_factors(const adaptraid5_config &c, const std::vector<int64_t> &disk_sectors,
                                        const std::vector<std::string> &spec_names);

// A layout that cannot be built, with the scenario key at fault (controller.layout,
// controller.adaptraid5.uf or .sip, host.stripe_unit_sectors).
class adaptraid5_key_error : public layout_error {
public:
    adaptraid5_key_error(std::string key, const std::string &message) : layout_error(message), m_key(std::move(key)) {}
    const std::string &key() const { return m_key; }

private:
    std::string m_key;
};

// The layout over disks of these sizes and spec names; throws adaptraid5_key_error.
std::unique_ptr<adaptraid5_layout> make_adaptraid5_layout(const adaptraid5_config &c, int64_t unit_sectors,
                                                          const std::vector<int64_t> &disk_sectors,
                                                          const std::vector<std::string> &spec_names);

}  // namespace raidtlm::controller
