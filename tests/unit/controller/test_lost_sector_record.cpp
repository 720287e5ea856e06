// The sectors recorded lost and the losses noted while a read or a write was out
// (controller/kit/lost_sector_record.h; explorer case 161:35).
#include <gtest/gtest.h>

#include "controller/kit/lost_sector_record.h"

using raidtlm::controller::lost_sector_record;

TEST(lost_sector_record, a_write_makes_good_only_what_no_loss_noted_during_it_touches) {
    lost_sector_record lost;
    lost.note(100, 110);
    const uint64_t write_began = lost.mark();
    lost.note(2496, 2518);  // a rebuild step overwrote rows the write had already reached
    lost.written(2400, 2600, write_began);
    EXPECT_FALSE(lost.overlaps(2400, 2496));
    EXPECT_TRUE(lost.covers(2496, 2518));
    EXPECT_FALSE(lost.overlaps(2518, 2600));
    EXPECT_TRUE(lost.covers(100, 110));  // outside the write
    // Written again, with no loss noted since it began: good.
    lost.written(2400, 2600, lost.mark());
    EXPECT_FALSE(lost.overlaps(2400, 2600));
}

TEST(lost_sector_record, a_read_sees_a_loss_noted_while_it_was_out_even_once_written_again) {
    lost_sector_record lost;
    const uint64_t read_began = lost.mark();
    EXPECT_FALSE(lost.noted_since(read_began, 0, 1000));
    lost.note(500, 510);
    lost.written(0, 1000, lost.mark());
    EXPECT_FALSE(lost.overlaps(0, 1000));
    EXPECT_TRUE(lost.noted_since(read_began, 505, 506));
    EXPECT_FALSE(lost.noted_since(read_began, 0, 500));
    EXPECT_FALSE(lost.noted_since(read_began, 510, 1000));
    EXPECT_FALSE(lost.noted_since(lost.mark(), 0, 1000));  // a read begun after it
}
