#include "controller/kit/queues/queued_request.h"

namespace raidtlm::controller {

std::vector<placement> placements_on_disk(const chunk &c, int disk, const disks::disk_layout &geometry) {
    std::vector<placement> out;
    for (const replica &r : c.replicas) {
        if (r.disk != disk || r.extents.empty()) continue;
        placement p;
        p.copy = r.copy;
        p.extents = r.extents;
        p.sectors = r.sectors();
        p.first = geometry.to_physical(r.extents.front().drive_lbn);
        p.last = geometry.to_physical(r.extents.back().drive_lbn + r.extents.back().sectors - 1);
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace raidtlm::controller
