// How a region's log is reintegrated into its parity (paper sec. 2.5): the parity (one run per
// member) and every sublog read in parallel, records applied as they arrive (parity_reintegrator),
// the parity written back. The parallel reads deliver each sublog's log writes in order, the
// sublogs at the same pace (round t: the t-th log write of every sublog). Records that must wait
// for earlier ones (only when the log holds overwrite records) take reintegration buffer beyond
// the parity image; when parity + that peak exceeds the buffer the plan falls back to serial:
// the log writes are read one after another in the order they were written, so records arrive in
// sequence order and nothing is held. In the parallel order the sublogs' t-th log writes stream
// in together, sector by sector (sublog 0's sector k, sublog 1's sector k, ...), so a later
// write's updates arrive before an earlier write's overwrite. Records still in the NVRAM buffers (never written) are
// applied last, from memory. Pure C++.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/families/parity_logging/parity_log_records.h"

namespace raidtlm::controller {

// One log write as it lies in a sublog: its records in order.
struct logged_write {
    int sublog = 0;
    int64_t offset_sectors = 0;  // from the sublog's start
    std::vector<log_record> records;
};

struct reintegration_plan {
    bool parallel = true;
    int64_t held_sectors = 0;  // extra buffer the parallel order needs (peak held updates)
    // Log writes in the order they are read: parallel: round by round over the sublogs
    // (informative: all issued at once); serial: in the order written (one at a time).
    std::vector<const logged_write *> read_order;
    // The records in the order they reach the reintegration buffer (without the in-memory ones).
    std::vector<log_record> arrival;
};

// `writes`: the region's log writes in the order they were written. `buffer_sectors`: the
// reintegration buffer (at least parity_sectors).
reintegration_plan plan_reintegration(int64_t parity_sectors, int64_t buffer_sectors,
                                      const std::vector<logged_write> &writes, const std::vector<log_record> &in_memory);

// Applies the region's log as the plan reads it: the parity image (from disk) first, then every
// record in the plan's order, then the in-memory records. Returns the new parity image.
std::vector<uint64_t> reintegrate(const std::vector<uint64_t> &parity_from_disk, const reintegration_plan &plan,
                                  const std::vector<log_record> &in_memory);

}  // namespace raidtlm::controller
