// The parity tokens a RAID 4/5 or AdaptRaid5 write path writes, from the write's new data tokens and the
// tokens its reads returned: the token-level work of the XOR engine for one stripe plan.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "controller/kit/parity_write_plan.h"

namespace raidtlm::controller {

// New data token of logical sector lbn (only asked for sectors the write covers).
using new_data_tokens = std::function<uint64_t(int64_t lbn)>;
// What a read of the plan returned for (disk, drive LBN): the old contents.
using read_tokens = std::function<uint64_t(int disk, int64_t drive_lbn)>;

// Tokens for the plan's parity write, one per sector of plan.parity_write(), row by row:
//   full_stripe, reconstruct_write: XOR over the data units of (new data if written, else read)
//   read_modify_write:              read parity ^ XOR over written units of (read old ^ new)
// Only sectors the plan reads are asked of `read`.
std::vector<uint64_t> new_parity_tokens(const parity_stripe_layout &layout, const stripe_write_plan &plan,
                                        const new_data_tokens &new_data, const read_tokens &read);

}  // namespace raidtlm::controller
