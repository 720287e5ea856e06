// A MEDIUM ERROR while the array is not all optimal, in a stripe that misses no member (issue 27,
// explorer case 51:246): RAID 5 rebuilding a replaced member, whose rebuild has already passed the
// stripe, answers MEDIUM ERROR on that stripe (a media error that arrived on the new drive after
// its rebuild wrote it). One fault in the stripe: within the promise, so the read is served from
// the rest of the stripe and the sectors rewritten, as when every member is optimal.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "rebuild_load.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/layouts/parity_stripe_layout.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::controller_bench;
using component_test::host_writer;
using component_test::pause_ms;
using component_test::wait_for_state;
using controller::member_state;

namespace {

constexpr uint64_t unit_sectors = 16;
constexpr uint64_t stripes = 96;
constexpr uint64_t member_blocks = stripes * unit_sectors + controller::superblock_end_reserve_sectors;

}  // namespace

// Before: the degraded read path read the unit from its own drive, took the MEDIUM ERROR for a
// member lost meanwhile, found none and failed the host read.
TEST(raid_media_while_rebuilding, a_medium_error_in_a_stripe_the_rebuild_has_passed_is_repaired_not_failed) {
    controller::controller_config config;
    config.channels = 2;
    config.firmware.stripe_unit_sectors = unit_sectors;
    config.firmware.array = controller::array_kind::raid5;
    config.firmware.tags_per_disk = 2;
    controller_bench b(4, config, component_test::cheetah(), member_blocks);
    host_writer<controller_bench> w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    int repaired_stripe = -1;
    component_test::run_clean(b, [&] {
        for (uint64_t lbn = 0; lbn < capacity; lbn += unit_sectors) w.write(lbn, uint32_t(unit_sectors));
        const auto *l = dynamic_cast<const controller::parity_stripe_layout *>(b.ctl->running_firmware().array_layout());
        ASSERT_NE(l, nullptr);
        b.ctl->fail_member(1);
        b.drives[1]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(1));
        // Wait until the rebuild has passed the first stripes, but is not done.
        while (b.ctl->members().state(1) == member_state::rebuilding && b.ctl->members().progress(1) < 0.25) pause_ms(0.5);
        ASSERT_EQ(b.ctl->members().state(1), member_state::rebuilding) << "the rebuild ended before the test read";
        for (int64_t s = 0; s < 4 && repaired_stripe < 0; ++s)
            if (l->unit_on_disk(s, 1) >= 0) repaired_stripe = int(s);
        ASSERT_GE(repaired_stripe, 0);
        const int j = l->unit_on_disk(repaired_stripe, 1);
        b.drives[1]->inject_media_error(int64_t(repaired_stripe) * int64_t(unit_sectors) + 3, 6);
        const uint64_t unit_lbn = uint64_t(l->stripe_first_lbn(repaired_stripe) + j * int64_t(unit_sectors));
        w.check(unit_lbn, uint32_t(unit_sectors));  // served, and right
        ASSERT_EQ(b.ctl->members().state(1), member_state::rebuilding);
        w.check(unit_lbn, uint32_t(unit_sectors));  // the rewrite made the sectors readable
        wait_for_state(b, 1, member_state::optimal, 60000);
        w.check_all();
    });
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    EXPECT_EQ(fw.value("lost_sectors", int64_t(-1)), 0);
    EXPECT_GE(fw.value("media_repairs", int64_t(0)), 1);
}
