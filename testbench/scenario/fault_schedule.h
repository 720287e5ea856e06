// The scenario's fault schedule (`faults:`, testbench/scenario/faults_section.cpp reads it): what goes
// wrong, and when, during a run. Plain C++; testbench/bench/fault_injector.h carries it out.
//
//   disk_loss    disk `disk` is lost (a failed member; the firmware serves degraded); with
//                `replace_after_ms`, a fresh drive of the same model takes its slot that much later
//                (a hot spare, or a replacement) and the firmware rebuilds the member onto it
//   media_error  disk `disk` returns MEDIUM ERROR for reads of drive LBNs [lbn, lbn + sectors)
//                until they are rewritten (the firmware rebuilds them from redundancy and rewrites)
//   silent_corruption  disk `disk`'s media change under drive LBNs [lbn, lbn + sectors) and the
//                drive returns the changed data with no error (bit rot the drive's ECC missed, a
//                misdirected or torn write): a physically real fault that RAID without checksums
//                cannot detect, so the run's scoreboard (workload.data_tokens) must catch it as
//                integrity errors when the host reads them before writing them again
//   power_loss   the controller loses power (requests in flight are lost, the buffer DRAM's
//                contents too, NVRAM survives), and gets it back `restore_after_ms` later: the
//                firmware recovers from NVRAM before serving (delayed-write replay, parity resync)
//   controller_loss  the controller fails and is replaced `restore_after_ms` later: its volatile
//                state, the requests in flight and the buffer DRAM's contents are lost; the NVRAM
//                is a battery-backed module moved to the replacement (a transportable cache module,
//                EXPERIMENTS.md 9), so the replacement recovers from NVRAM and the drives as after
//                a power loss (parity logging: the logs reintegrated from the sublogs first)
//
// Each entry happens at a simulated time (`at_ms`) or when host request number `at_request`
// (counted from 0) arrives. A disk of -1 and an lbn of -1 are drawn from the run's seed, as is a
// time given as a [from, to] range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::testbench {

enum class fault_kind { disk_loss, media_error, silent_corruption, power_loss, controller_loss };
// Faults on a range of a drive's sectors (lbn, sectors).
inline bool on_sectors(fault_kind k) { return k == fault_kind::media_error || k == fault_kind::silent_corruption; }
// Faults that stop the controller and restart it (restore_after_ms, recovery).
inline bool stops_controller(fault_kind k) { return k == fault_kind::power_loss || k == fault_kind::controller_loss; }
const char *to_string(fault_kind k);

struct fault_entry {
    fault_kind kind = fault_kind::disk_loss;
    double at_ms = -1;          // >= 0: at this simulated time
    double at_ms_to = -1;       // > at_ms: a time drawn uniformly in [at_ms, at_ms_to]
    int64_t at_request = -1;    // >= 0: when this host request arrives
    int disk = -1;              // disk_loss, media_error, silent_corruption; -1: drawn from the seed
    int64_t lbn = -1;           // media_error, silent_corruption: first drive LBN; -1: drawn from the seed
    int32_t sectors = 8;        // media_error, silent_corruption: sectors from lbn
    double restore_after_ms = 500;  // power_loss: the outage; controller_loss: until the replacement runs
    double replace_after_ms = -1;   // disk_loss: a fresh drive in the slot this much later (-1: never)
    std::string where;          // FILE:LINE of the entry, for errors found later
};

// The schedule with every drawn value fixed: disks below `disks`, LBNs below `disk_sectors`
// (minus the range), times within their ranges; the same seed gives the same schedule.
std::vector<fault_entry> resolve_faults(std::vector<fault_entry> faults, int disks, int64_t disk_sectors,
                                        uint64_t seed);

}  // namespace raidtlm::testbench
