// Member identity on the drives (member_superblock.h, member_metadata.h): a drive swapped while
// the controller is off is found at start-up from what it holds (no superblock), never served,
// and rebuilt; a drive replaced while parity logging replays its logs after a power loss is taken
// once the replay is done. Every sector written is read back (the scoreboard and the writer
// check) while the new drive is rebuilt and after.
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "parity_logging_bench.h"
#include "rebuild_load.h"

using namespace raidtlm;
using component_test::pause_ms;
using component_test::wait_for_state;
using controller::member_state;

namespace {

constexpr uint64_t member_blocks = 4096;

controller::controller_config raid5_config() {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.array = controller::array_kind::raid5;
    c.firmware.stripe_unit_sectors = 16;
    return c;
}

controller::controller_config plog_config() { return component_test::small_parity_logging_config(1); }

// Writes spread over the whole array in small pieces (parity logging logs them).
template <class Writer>
void fill(Writer &w, uint64_t capacity, int writes) {
    for (int k = 0; k < writes; ++k) w.write((uint64_t(k) * 7919) % (capacity - 4), 3);
}

// The power fails, disk `swapped` is swapped for a blank drive halfway through the outage, the
// power comes back; everything is read back at once (the new drive not yet rebuilt) and after
// its rebuild.
template <class Bench>
void swap_during_outage(Bench &b, int swapped) {
    component_test::host_writer<Bench> w{b};
    component_test::run_clean(b, [&] {
        fill(w, b.ctl->capacity_sectors(), 300);
        b.ctl->power_fail();
        pause_ms(150);
        b.drives[size_t(swapped)]->replace_media();
        pause_ms(150);
        b.ctl->power_restore_and_recover();
        EXPECT_NE(b.ctl->members().state(swapped), member_state::optimal) << "the blank drive is served";
        w.check_all();
        wait_for_state(b, swapped, member_state::optimal, 600000);
        w.check_all();
        // The rebuilt drive holds its member's data: every other disk can go in turn.
        for (int other = 0; other < int(b.drives.size()); ++other) {
            if (other == swapped) continue;
            b.ctl->set_failed_disk(other);
            w.check_all();
        }
        b.ctl->set_failed_disk(-1);
    });
    EXPECT_EQ(b.ctl->statistics().failed_reads, 0u);
}

}  // namespace

TEST(member_identity, raid5_a_drive_swapped_while_the_power_is_off_is_rebuilt_not_served) {
    component_test::controller_bench b(4, raid5_config(), component_test::cheetah(), member_blocks);
    swap_during_outage(b, 1);
}

TEST(member_identity, parity_logging_a_drive_swapped_while_the_power_is_off_is_rebuilt_not_served) {
    component_test::plog_bench b(6, plog_config(), member_blocks);
    swap_during_outage(b, 2);
}

namespace {

// The power fails with logs to replay; `loss_after_ms` into the recovery (its start-up check of
// the members, or its log replay) disk `lost` is lost, and a fresh drive is put in its slot 2 ms
// later. The replacement is taken (its rebuild started) once the recovery is done; every sector
// reads back right meanwhile, after the rebuild, and with each other disk lost in turn.
void replace_during_recovery(double loss_after_ms) {
    component_test::plog_bench b(6, plog_config(), member_blocks);
    component_test::host_writer<component_test::plog_bench> w{b};
    const int lost = 2;
    bool replay_running_at_replacement = false;
    component_test::run_clean(b, [&] {
        fill(w, b.ctl->capacity_sectors(), 300);
        ASSERT_GT(b.firmware().statistics().small_writes, 0u);
        b.ctl->power_fail();
        pause_ms(100);
        bool recovered = false;
        sc_core::sc_spawn([&] {
            b.ctl->power_restore_and_recover();
            recovered = true;
        });
        pause_ms(loss_after_ms);
        b.ctl->fail_member(lost);
        pause_ms(2);
        replay_running_at_replacement = !recovered;
        b.drives[size_t(lost)]->replace_media();
        // Taken once the replay is done (by this call, or by the start-up's check if it read the
        // blank drive's superblock first): the member is rebuilding, not served as it is.
        b.ctl->replace_member(lost);
        EXPECT_TRUE(recovered);
        EXPECT_EQ(b.ctl->members().state(lost), member_state::rebuilding);
        while (!recovered) pause_ms(1);
        w.check_all();
        wait_for_state(b, lost, member_state::optimal, 600000);
        w.check_all();
        for (int other = 0; other < int(b.drives.size()); ++other) {
            if (other == lost) continue;
            b.ctl->set_failed_disk(other);
            w.check_all();
        }
        b.ctl->set_failed_disk(-1);
    });
    EXPECT_TRUE(replay_running_at_replacement) << "the replacement came after the replay: the test shows nothing";
    EXPECT_EQ(b.ctl->statistics().failed_reads, 0u);
}

}  // namespace

// Lost during the start-up check of the members: the check found no drive in the slot and, once
// it was done, marked the slot empty after the replacement had been put in; the rebuild's writes
// to it were then dropped and the member came back optimal with nothing on it (1,500 wrong or
// failed reads before; controller_top::fail_members_not_current).
TEST(member_identity, parity_logging_a_drive_replaced_during_the_log_replay_is_rebuilt_after_it) {
    replace_during_recovery(1);
}

// Lost while the recovery replays the logs: a reintegration's reads out to the lost drive failed,
// and its log was truncated all the same, its records never applied to the parity the rebuild
// then solved the new drive from (511 wrong reads before; reintegrate decides its reads again).
TEST(member_identity, parity_logging_a_drive_lost_and_replaced_in_the_middle_of_the_log_replay_is_rebuilt_after_it) {
    replace_during_recovery(15);
}
