// The layout plug-in `declustered_raid5`: its keys (controller.declustered_raid5.*) and its
// registration. It implements the raid5 scheme, so raidtlm's RAID firmware serves it (reads,
// read-modify-write and full-stripe writes, degraded reads, rebuild onto a fresh drive), and the
// scenario's RAID 5 keys (rmw, reconstruct_write_fraction, ...) apply to it.
#include <memory>

#include "config/plugin_keys.h"
#include "controller/firmware_api/plugins.h"
#include "declustered_raid5_layout.h"

namespace declustered_raid5 {

namespace rc = raidtlm::controller;

struct layout_config {
    int stripe_width = 4;  // G: units per stripe, parity included (a documented default)
};

const bool keys_registered = raidtlm::config::register_plugin_keys<layout_config>(
    "controller.declustered_raid5", "layout declustered_raid5", [](raidtlm::config::declarations<layout_config> &k) {
        k.integer("stripe_width", &layout_config::stripe_width, "4", 3, 256)
            .note("G: units per stripe, parity included; 3 .. disks.count (G = disks.count is RAID 5)");
    });

const rc::registration<rc::layout_factory> registered{
    "declustered_raid5",
    {"declustered RAID 5 (pseudo-random rows): stripes of controller.declustered_raid5.stripe_width units over more disks "
     "(examples/declustered_raid5)",
     rc::array_kind::raid5,
     [](const rc::controller_config &c, const std::vector<rc::disk_info> &disks) -> std::unique_ptr<rc::layout> {
         std::vector<int64_t> sizes;
         for (const rc::disk_info &d : disks) sizes.push_back(int64_t(d.capacity_blocks));
         const layout_config &k = c.plugins.get<layout_config>("controller.declustered_raid5");
         return std::make_unique<declustered_raid5_layout>(sizes, int64_t(c.firmware.stripe_unit_sectors),
                                                           k.stripe_width);
     }}};

}  // namespace declustered_raid5
