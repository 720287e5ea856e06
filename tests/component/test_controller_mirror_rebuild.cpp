// Mirrors rebuilding more than one member at once, and a second loss during a rebuild (EXPERIMENTS
// 19.13): every copy the firmware serves after the rebuilds holds the last acknowledged write.
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "rebuild_load.h"

using namespace raidtlm;
using component_test::pause_ms;
using component_test::wait_for_state;
using controller::member_state;

namespace {

constexpr uint64_t member_blocks = 4096;

}  // namespace

// RAID 1 with three copies: disks 1 and 2 are lost and replaced together, so both rebuilds copy
// unit 0 at once. Disk 2's step is held up (its one tag busy with a long read) after disk 1's is
// done; a host write of the unit then must wait for disk 2's step, as it waits for any step on its
// unit, and include disk 2's copy once the step has written it. Before: the first step to finish
// took the unit out of the "steps under way" set for both members, the write left disk 2 out (not
// rebuilt yet) and did not wait, and disk 2's step then wrote the old data over it: the stale copy
// was served once disks 0 and 1 were gone (the explorer's wrong_data_raid10_21_82, rebuild units in
// flight 1 or 4 alike).
TEST(mirror_rebuild, raid1_a_write_waits_for_every_members_step_on_its_unit_when_two_members_rebuild_it) {
    controller::controller_config c = component_test::raid1_config(1);
    c.firmware.rebuild.units_in_flight = 1;
    component_test::controller_bench b(3, c, component_test::cheetah(), member_blocks);
    auto *fw = b.ctl->firmware_as<controller::replicated_firmware>();
    const std::vector<uint64_t> old_data = component_test::tokens(1, 16), new_data = component_test::tokens(2, 16);
    bool wrote_between_the_steps = false;
    component_test::run_clean(b, [&] {
        std::vector<uint64_t> w = old_data;
        ASSERT_EQ(b.host.send(false, 0, 16, w.data()), tlm::TLM_OK_RESPONSE);
        pause_ms(50);  // on every copy
        ASSERT_EQ(fw->delayed_writes()->entries(), 0u);
        for (int d : {1, 2}) {
            b.ctl->fail_member(d);
            b.drives[size_t(d)]->replace_media();
        }
        ASSERT_TRUE(b.ctl->replace_member(1));
        ASSERT_TRUE(b.ctl->replace_member(2));
        // Disk 2 busy with a long read (its one tag): its step's write of unit 0 waits.
        b.host.spawn([&] {
            std::vector<uint64_t> t(3000);
            b.ctl->raw_disk_io(true, 2, 1000, 3000, t.data());
        });
        while (fw->rebuild().cursor(1)->next() == 0) pause_ms(0.05);
        if (fw->rebuild().cursor(2)->next() == 0) {
            wrote_between_the_steps = true;
            w = new_data;
            ASSERT_EQ(b.host.send(false, 0, 16, w.data()), tlm::TLM_OK_RESPONSE);
        }
        wait_for_state(b, 1, member_state::optimal, 600000);
        wait_for_state(b, 2, member_state::optimal, 600000);
        while (fw->delayed_writes()->entries() > 0) pause_ms(1);
        // Disk 2's copy alone.
        b.ctl->fail_member(0);
        b.ctl->fail_member(1);
        std::vector<uint64_t> r(16);
        ASSERT_EQ(b.host.send(true, 0, 16, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, new_data) << "disk 2's copy of unit 0 is stale";
    });
    EXPECT_TRUE(wrote_between_the_steps) << "disk 2's step was done before disk 1's: the test shows nothing";
    EXPECT_EQ(b.ctl->statistics().failed_reads, 0u);
}

// RAID 1 with two copies, disk 0 lost: a host read of a unit queues behind a long read on disk 1,
// the only copy. Disk 1 is lost too (beyond the promise) and a fresh drive put in its slot: its
// rebuild has no source, records every unit lost and ends at once, the member serving again. The
// read, chosen again after the loss, must fail (its sectors are recorded lost), not be served the
// fresh drive's blank sectors (before: zeros returned as data, the explorer's
// wrong_data_raid1_21_12). A write then gives the sectors new data, which are read back.
TEST(mirror_rebuild, raid1_a_read_waiting_across_the_loss_of_its_last_copy_fails_not_served_blank) {
    controller::controller_config c = component_test::raid1_config(1);
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    const std::vector<uint64_t> data = component_test::tokens(1, 8), newer = component_test::tokens(2, 8);
    const uint64_t far = 100 * 16;
    bool read_done = false, read_ok = false;
    std::vector<uint64_t> got(8, 0);
    component_test::run_clean(b, [&] {
        std::vector<uint64_t> w = data;
        ASSERT_EQ(b.host.send(false, far, 8, w.data()), tlm::TLM_OK_RESPONSE);
        pause_ms(50);  // on both copies
        b.ctl->fail_member(0);
        // Disk 1 busy with a long read (its one tag): the host read waits for it.
        b.host.spawn([&] {
            std::vector<uint64_t> t(3000);
            b.ctl->raw_disk_io(true, 1, 2000, 3000, t.data());
        });
        pause_ms(0.1);
        b.host.spawn([&] {
            read_ok = b.host.send(true, far, 8, got.data()) == tlm::TLM_OK_RESPONSE;
            read_done = true;
        });
        pause_ms(1);
        ASSERT_FALSE(read_done) << "the read did not wait: the test shows nothing";
        b.ctl->fail_member(1);
        b.drives[1]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(1));
        wait_for_state(b, 1, member_state::optimal, 60000);  // nothing to copy from: every unit lost
        while (!read_done) pause_ms(1);
        EXPECT_FALSE(read_ok) << "served: " << got[0] << " (the data were " << data[0] << ")";
        w = newer;
        ASSERT_EQ(b.host.send(false, far, 8, w.data()), tlm::TLM_OK_RESPONSE);
        std::vector<uint64_t> r(8);
        ASSERT_EQ(b.host.send(true, far, 8, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, newer);
    });
}

// RAID 1 with the delayed-write table, disk 1 being rebuilt with no pause between steps: the power
// fails while a step is under way. Its thread is gone with the power, so it never says its unit is
// done; the firmware's record of the steps under way is volatile and must go with it (before: the
// unit stayed "under a step" for good, and a write of it after the rebuild waited for ever).
TEST(mirror_rebuild, raid1_a_rebuild_step_cut_off_by_a_power_loss_does_not_hold_its_unit_for_ever) {
    controller::controller_config c = component_test::raid1_config();
    c.firmware.rebuild.share = 1.0;  // a step always under way
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    auto *fw = b.ctl->firmware_as<controller::replicated_firmware>();
    const std::vector<uint64_t> data = component_test::tokens(1, 8);
    bool written = false;
    component_test::run_clean(b, [&] {
        b.ctl->fail_member(1);
        b.drives[1]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(1));
        while (fw->rebuild().cursor(1)->next() < 10) pause_ms(0.05);
        const uint64_t unit = fw->rebuild().cursor(1)->next();  // its step under way
        b.ctl->power_fail();
        pause_ms(50);
        b.ctl->power_restore_and_recover();
        wait_for_state(b, 1, member_state::optimal, 600000);
        b.host.spawn([&] {
            std::vector<uint64_t> w = data;
            written = b.host.send(false, unit * 16, 8, w.data()) == tlm::TLM_OK_RESPONSE;
        });
        pause_ms(1000);
        EXPECT_TRUE(written) << "the write of unit " << unit << " waits for a step the power cut off";
        if (!written) return;
        b.ctl->fail_member(0);  // the rebuilt drive alone
        std::vector<uint64_t> r(8);
        ASSERT_EQ(b.host.send(true, unit * 16, 8, r.data()), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(r, data);
    });
}
