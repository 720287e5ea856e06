// Real drive specs for tests: DiskSim's validated drives from ../shared/reference/disksim.
#pragma once

#include <string>

#include "disks/diskspec_loader.h"

namespace raidtlm::test {

inline std::string disksim_file(const std::string &rel) {
    return std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/" + rel;
}

inline const disks::disk_spec &cheetah9lp() {
    static const disks::disk_spec s = disks::load_diskspec(disksim_file("validation/cheetah9LP.diskspecs"));
    return s;
}
inline const disks::disk_spec &atlas10k() {
    static const disks::disk_spec s = disks::load_diskspec(disksim_file("validation/atlas10k.diskspecs"));
    return s;
}
inline const disks::disk_spec &hp_c2247a() {
    static const disks::disk_spec s = disks::load_diskspec(disksim_file("validation/hp_c2247a.diskspecs"));
    return s;
}
inline const disks::disk_spec &barracuda() {
    static const disks::disk_spec s = disks::load_diskspec(disksim_file("specs/barracuda.diskspecs"));
    return s;
}
inline const disks::disk_spec &cheetah4lp() {
    static const disks::disk_spec s = disks::load_diskspec(disksim_file("specs/cheetah4LP.diskspecs"));
    return s;
}

}  // namespace raidtlm::test
