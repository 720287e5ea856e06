#pragma once
// How much of a write's data a drive wants in its buffer before it puts the first sector on the
// media. Pure logic, no kernel.
#include <cstdint>

namespace raidtlm::disks {

// Blocks of a write that must be in the segment before the media write may begin.
//
// Drives with DiskSim's "Extra write disconnect" (among DiskSim's ten validation drives, the HP
// C2247A) do not start a media write as soon as its first block is buffered: DiskSim 4.0's
// disk_buffer_block_available refuses every sector of a write until the segment holds
// min(request, 10) blocks for requests under 45 blocks and 15 blocks for larger ones. Other drives
// write a sector as soon as its own data are in (0 here). `blocks_already_buffered` counts data of
// the same segment still waiting for the media (a write appended to one being written), which
// DiskSim counts towards the threshold.
int64_t blocks_before_media_write(bool extra_write_disconnect, int64_t request_blocks,
                                  int64_t blocks_already_buffered = 0);

}  // namespace raidtlm::disks
