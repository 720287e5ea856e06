// DiskSim's LBN-ordered queue policies (ioqueue "Scheduling policy" 1-4) as one choice function,
// shared by the drive's own queue and the initiator's queue in front of it (DiskSim's iodriver
// queue, which holds what the drive's "Max queue length" does not take). Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "disks/disk_spec.h"

namespace raidtlm::disks {

// The index in [0, n) of the request to take next; lbn_of(i) is request i's first LBN, `position`
// the LBN after the last request taken. ELEVATOR reverses `ascending` at the end of a sweep;
// CYCLE (C-LOOK) wraps to the lowest LBN instead. Requests are in arrival order (FCFS: index 0;
// ties go to the earlier arrival).
template <typename LbnOf>
size_t pick_by_policy(size_t n, LbnOf lbn_of, drive_scheduling policy, int64_t position, bool &ascending) {
    auto distance = [&](size_t i) { return std::llabs(int64_t(lbn_of(i)) - position); };
    switch (policy) {
    case drive_scheduling::fcfs: return 0;
    case drive_scheduling::sstf_lbn: {
        size_t best = 0;
        for (size_t i = 1; i < n; ++i)
            if (distance(i) < distance(best)) best = i;
        return best;
    }
    case drive_scheduling::elevator_lbn:
    case drive_scheduling::cycle_lbn: {
        auto ahead = [&](size_t i) {
            return ascending ? int64_t(lbn_of(i)) >= position : int64_t(lbn_of(i)) <= position;
        };
        size_t best = n;
        for (size_t i = 0; i < n; ++i)
            if (ahead(i) && (best == n || distance(i) < distance(best))) best = i;
        if (best != n) return best;
        if (policy == drive_scheduling::cycle_lbn) {
            best = 0;
            for (size_t i = 1; i < n; ++i)
                if (lbn_of(i) < lbn_of(best)) best = i;
            return best;
        }
        ascending = !ascending;
        best = 0;
        for (size_t i = 1; i < n; ++i)
            if (distance(i) < distance(best)) best = i;
        return best;
    }
    }
    return 0;
}

}  // namespace raidtlm::disks
