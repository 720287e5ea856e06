#include "disks/write_media_gate.h"

#include <algorithm>

namespace raidtlm::disks {

namespace {
// DiskSim 4.0, disk_buffer_block_available (disksim_diskcache.c): the request size at which the
// threshold switches, and the thresholds below and above it, in blocks.
constexpr int64_t large_request_blocks = 45;
constexpr int64_t small_request_threshold_blocks = 10;
constexpr int64_t large_request_threshold_blocks = 15;
}  // namespace

int64_t blocks_before_media_write(bool extra_write_disconnect, int64_t request_blocks,
                                  int64_t blocks_already_buffered) {
    if (!extra_write_disconnect || request_blocks <= 0) return 0;
    const int64_t threshold = request_blocks < large_request_blocks
                                  ? std::min(request_blocks, small_request_threshold_blocks)
                                  : large_request_threshold_blocks;
    return std::max<int64_t>(0, threshold - std::max<int64_t>(0, blocks_already_buffered));
}

}  // namespace raidtlm::disks
