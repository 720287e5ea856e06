#include "testbench/scenario/fault_schedule.h"

#include <random>

namespace raidtlm::testbench {

const char *to_string(fault_kind k) {
    switch (k) {
    case fault_kind::disk_loss: return "disk_loss";
    case fault_kind::media_error: return "media_error";
    case fault_kind::silent_corruption: return "silent_corruption";
    case fault_kind::power_loss: return "power_loss";
    case fault_kind::controller_loss: return "controller_loss";
    }
    return "?";
}

std::vector<fault_entry> resolve_faults(std::vector<fault_entry> faults, int disks, int64_t disk_sectors,
                                        uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0xfa017ed5c0ffeeULL);  // a stream of its own: the workload's stays as it was
    for (fault_entry &f : faults) {
        if (f.disk < 0) f.disk = int(std::uniform_int_distribution<int>(0, disks - 1)(rng));
        if (on_sectors(f.kind) && f.lbn < 0)
            f.lbn = std::uniform_int_distribution<int64_t>(0, std::max<int64_t>(0, disk_sectors - f.sectors))(rng);
        if (f.at_ms >= 0 && f.at_ms_to > f.at_ms) {
            f.at_ms = std::uniform_real_distribution<double>(f.at_ms, f.at_ms_to)(rng);
            f.at_ms_to = -1;
        }
    }
    return faults;
}

}  // namespace raidtlm::testbench
