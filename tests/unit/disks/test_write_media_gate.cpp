// How many blocks of a write a drive buffers before its media write may begin (DiskSim 4.0's
// disk_buffer_block_available for drives with extra write disconnects).
#include <gtest/gtest.h>

#include "disks/write_media_gate.h"

using namespace raidtlm::disks;

TEST(write_media_gate, drives_without_extra_write_disconnects_write_the_first_buffered_block) {
    for (int64_t n : {1, 8, 44, 45, 300}) EXPECT_EQ(blocks_before_media_write(false, n), 0);
}

TEST(write_media_gate, small_writes_wait_for_all_their_data_up_to_ten_blocks) {
    EXPECT_EQ(blocks_before_media_write(true, 1), 1);
    EXPECT_EQ(blocks_before_media_write(true, 8), 8);
    EXPECT_EQ(blocks_before_media_write(true, 10), 10);
    EXPECT_EQ(blocks_before_media_write(true, 11), 10);
    EXPECT_EQ(blocks_before_media_write(true, 44), 10);
}

TEST(write_media_gate, writes_of_45_blocks_or_more_wait_for_fifteen) {
    EXPECT_EQ(blocks_before_media_write(true, 45), 15);
    EXPECT_EQ(blocks_before_media_write(true, 256), 15);
}

TEST(write_media_gate, data_already_in_the_segment_count_towards_the_threshold) {
    EXPECT_EQ(blocks_before_media_write(true, 20, 4), 6);
    EXPECT_EQ(blocks_before_media_write(true, 20, 30), 0);
    EXPECT_EQ(blocks_before_media_write(true, 0), 0);
}
