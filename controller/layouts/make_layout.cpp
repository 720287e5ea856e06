#include "controller/layouts/make_layout.h"

#include "controller/layouts/raid10_layout.h"
#include "controller/layouts/raid6_layout.h"

namespace raidtlm::controller {

std::unique_ptr<layout> make_layout(const layout_config &cfg, const std::vector<int64_t> &disk_sectors,
                                    const disks::disk_spec *geometry) {
    const std::string &k = cfg.kind;
    if (k == "raid0") return std::make_unique<raid10_layout>(raid10_layout::raid0(disk_sectors, cfg.unit_sectors));
    if (k == "raid1") return std::make_unique<raid10_layout>(raid10_layout::raid1(disk_sectors));
    if (k == "raid10")
        return std::make_unique<raid10_layout>(raid10_layout::raid10(disk_sectors, cfg.mirror_copies, cfg.unit_sectors));
    if (k == "raid6") return std::make_unique<raid6_layout>(disk_sectors, cfg.unit_sectors, cfg.checks);
    if (k == "raid4") return std::make_unique<parity_layout>(disk_sectors, cfg.unit_sectors, parity_placement::dedicated);
    if (k == "raid5") {
        if (cfg.placement == parity_placement::dedicated)
            throw layout_error("RAID 5 rotates its parity; 'dedicated' parity is RAID 4");
        return std::make_unique<parity_layout>(disk_sectors, cfg.unit_sectors, cfg.placement);
    }
    if (k == "sr-mirror") {
        if (!geometry) throw layout_error("sr-mirror places replicas by angle and needs the drives' geometry");
        sr_mirror_shape shape = cfg.sr;
        shape.unit_sectors = cfg.unit_sectors;
        return std::make_unique<sr_mirror_layout>(*geometry, int(disk_sectors.size()), shape);
    }
    throw layout_error("unknown layout '" + k + "'; expected one of raid0, raid1, raid10, raid4, raid5, raid6, sr-mirror");
}

}  // namespace raidtlm::controller
