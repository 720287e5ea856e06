// Builds any layout from a plain description, for scenario loading: one entry point, one error
// type (layout_error) whose message says what does not fit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/layouts/layout.h"
#include "controller/layouts/parity_layout.h"
#include "controller/layouts/sr_mirror_layout.h"
#include "disks/disk_spec.h"

namespace raidtlm::controller {

struct layout_config {
    std::string kind = "raid5";  // raid0, raid1, raid10, raid4, raid5, raid6, sr-mirror
    int64_t unit_sectors = 128;  // stripe unit (every striped kind)
    int mirror_copies = 2;       // raid10
    parity_placement placement = parity_placement::left_symmetric;  // raid5
    int checks = 2;              // raid6: check units per stripe (2: P+Q, 3: P+Q+R)
    sr_mirror_shape sr;          // sr-mirror: Ds, Dr, Dm, cylinders (its unit is unit_sectors)
};

// `disk_sectors`: each disk's exported capacity. `geometry`: the drives' spec, needed by
// sr-mirror (all disks alike), ignored otherwise.
std::unique_ptr<layout> make_layout(const layout_config &cfg, const std::vector<int64_t> &disk_sectors,
                                    const disks::disk_spec *geometry);

}  // namespace raidtlm::controller
