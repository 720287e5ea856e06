// Member identity on the drives (member_superblock.h, member_metadata.h): a drive swapped while
// the controller is off is found at start-up from what it holds (no superblock), never served,
// and rebuilt; a drive replaced while parity logging replays its logs after a power loss is taken
// once the replay is done. Every sector written is read back (the scoreboard and the writer
// check) while the new drive is rebuilt and after.
#include <map>
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

#ifdef RAIDTLM_HAVE_ISS
// The C firmware on the instruction-set simulator (controller/iss/firmware_c/members.c): at boot it
// reads every member's superblock with its own SCSI commands, finds the blank drive and has it
// failed before its recovery; the drive is rebuilt. Before: served as it was (zeros).
TEST(member_identity, the_c_firmware_on_the_iss_rebuilds_a_drive_swapped_while_the_power_is_off_never_serves_it) {
    controller::controller_config c = raid5_config();
    c.cpu.model = rtl_models::cpu_model::iss;
    component_test::controller_bench b(4, c, component_test::cheetah(), member_blocks);
    swap_during_outage(b, 1);
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    ASSERT_TRUE(fw.contains("member_identity")) << fw.dump();
    EXPECT_EQ(fw["member_identity"]["members_not_current"], 1);
}

// A member the C firmware failed while it ran is stale on its drive: its superblock was left at
// the old event count while the others' were rewritten. Put back (the same drive, its old data)
// during an outage, it is found stale at boot and rebuilt, never served.
TEST(member_identity, the_c_firmware_on_the_iss_finds_a_failed_member_put_back_during_an_outage_stale) {
    controller::controller_config c = raid5_config();
    c.cpu.model = rtl_models::cpu_model::iss;
    component_test::controller_bench b(4, c, component_test::cheetah(), member_blocks);
    component_test::host_writer<component_test::controller_bench> w{b};
    const int pulled = 2;
    component_test::run_clean(b, [&] {
        fill(w, b.ctl->capacity_sectors(), 100);
        b.ctl->fail_member(pulled);
        pause_ms(100);  // the superblocks of the others rewritten
        fill(w, b.ctl->capacity_sectors(), 200);  // degraded writes: the pulled drive misses them
        b.ctl->power_fail();
        b.ctl->insert_drive(pulled);
        pause_ms(100);
        b.ctl->power_restore_and_recover();
        EXPECT_NE(b.ctl->members().state(pulled), member_state::optimal) << "the stale drive is served";
        w.check_all();
        wait_for_state(b, pulled, member_state::optimal, 600000);
        for (int other = 0; other < int(b.drives.size()); ++other) {
            if (other != pulled) b.ctl->set_failed_disk(other);
            w.check_all();
        }
        b.ctl->set_failed_disk(-1);
    });
    EXPECT_EQ(b.ctl->statistics().failed_reads, 0u);
}
#endif

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

// RAID 1 with the NVRAM delayed-write table: the power fails while acknowledged writes still have
// their second copy pending (in the table), and the drive those copies were for is swapped for a
// blank one while the controller is off. The start-up check fails the blank member; the table's
// recovery must drop the copies it can never write there (before: it waited for them for ever, the
// "no more events" stall of the explorer's RAID 1 / RAID 10 / SR-Array cases), and the member is
// rebuilt from the other copy, which holds every acknowledged write.
TEST(member_identity, raid1_delayed_copies_to_a_drive_swapped_while_the_power_is_off_do_not_stall_the_recovery) {
    controller::controller_config c = component_test::raid1_config(1);  // copies wait behind the foreground: entries pending at the loss
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    constexpr int writers = 6, writes_each = 40;
    std::map<uint64_t, std::vector<uint64_t>> acknowledged;  // first sector -> its 8 tokens
    for (int k = 0; k < writers; ++k)
        b.host.spawn([&, k] {
            for (int i = 0; i < writes_each; ++i) {
                const uint64_t lbn = uint64_t(k * writes_each + i) * 8;  // every write its own sectors
                std::vector<uint64_t> t = component_test::tokens(uint64_t(k * 1000 + i + 1), 8);
                if (b.host.send(false, lbn, 8, t.data()) != tlm::TLM_OK_RESPONSE) break;
                acknowledged[lbn] = t;
            }
        });
    auto fw = [&] { return b.ctl->firmware_as<controller::replicated_firmware>(); };
    size_t pending_at_loss = 0;
    bool recovered = false;
    component_test::run_clean(b, [&] {
        // Until an acknowledged write has a copy pending, then the power fails.
        while (fw()->delayed_writes()->entries() == 0 || acknowledged.empty()) pause_ms(0.05);
        pending_at_loss = fw()->delayed_writes()->entries();
        b.ctl->power_fail();
        pause_ms(100);
        b.drives[1]->replace_media();
        pause_ms(100);
        b.ctl->power_restore_and_recover();
        recovered = true;
        EXPECT_NE(b.ctl->members().state(1), member_state::optimal) << "the blank drive is served";
        EXPECT_EQ(fw()->delayed_writes()->entries(), 0u);
        auto check_all = [&] {
            for (const auto &[lbn, want] : acknowledged) {
                std::vector<uint64_t> got(8);
                ASSERT_EQ(b.host.send(true, lbn, 8, got.data()), tlm::TLM_OK_RESPONSE) << "lbn " << lbn;
                EXPECT_EQ(got, want) << "lbn " << lbn;
            }
        };
        check_all();
        wait_for_state(b, 1, member_state::optimal, 600000);
        b.ctl->set_failed_disk(0);  // the rebuilt drive alone holds every acknowledged write
        check_all();
        b.ctl->set_failed_disk(-1);
    });
    EXPECT_GT(pending_at_loss, 0u);
    EXPECT_TRUE(recovered) << "the recovery waited for copies to a failed member";
    EXPECT_EQ(b.ctl->statistics().failed_reads, 0u);
}

// RAID 1 with the delayed-write table: an acknowledged write whose only copy was on disk 1 (disk 0
// busy, its copy pending) is lost when disk 1 is swapped while the power is off; the sectors written
// before it in the same rebuild unit are on disk 0 and not lost. The rebuild onto the new drive
// must copy that unit all the same: once the cursor has passed it the new drive's copy is served
// (before: the unit was skipped, and with disk 0 gone its sectors not lost read as zeros).
TEST(member_identity, raid1_the_rebuild_copies_a_unit_with_lost_sectors_and_serves_its_other_sectors) {
    controller::controller_config c = component_test::raid1_config(1);
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    const std::vector<uint64_t> old_data = component_test::tokens(1, 16), new_half = component_test::tokens(2, 8);
    auto *fw = b.ctl->firmware_as<controller::replicated_firmware>();
    component_test::run_clean(b, [&] {
        std::vector<uint64_t> w = old_data;
        ASSERT_EQ(b.host.send(false, 0, 16, w.data()), tlm::TLM_OK_RESPONSE);
        pause_ms(50);  // on both copies
        ASSERT_EQ(fw->delayed_writes()->entries(), 0u);
        // Disk 0 busy with a long read (its one tag): the write's first copy goes to disk 1.
        b.host.spawn([&] {
            std::vector<uint64_t> t(3000);
            b.ctl->raw_disk_io(true, 0, 2000, 3000, t.data());
        });
        pause_ms(0.1);
        w = new_half;
        ASSERT_EQ(b.host.send(false, 8, 8, w.data()), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(fw->delayed_writes()->entries(), 1u) << "the copy to disk 0 is not pending: the test shows nothing";
        b.ctl->power_fail();
        pause_ms(100);
        b.drives[1]->replace_media();
        pause_ms(100);
        b.ctl->power_restore_and_recover();
        auto read = [&](uint64_t lbn, uint32_t n, std::vector<uint64_t> &r) {
            r.assign(n, 0);
            return b.host.send(true, lbn, n, r.data()) == tlm::TLM_OK_RESPONSE;
        };
        std::vector<uint64_t> r;
        const std::vector<uint64_t> old_half(old_data.begin(), old_data.begin() + 8);
        EXPECT_FALSE(read(8, 8, r)) << "the lost write's sectors are served";
        ASSERT_TRUE(read(0, 8, r));
        EXPECT_EQ(r, old_half);
        wait_for_state(b, 1, member_state::optimal, 600000);
        b.ctl->set_failed_disk(0);  // the rebuilt drive alone
        ASSERT_TRUE(read(0, 8, r));
        EXPECT_EQ(r, old_half) << "the rebuild skipped the unit with lost sectors";
        EXPECT_FALSE(read(8, 8, r));
        b.ctl->set_failed_disk(-1);
    });
}

// RAID 1 with the delayed-write table: disk 0 is being rebuilt onto a fresh drive when disk 1, the
// only source, is lost (beyond the promise). The rebuild step in flight finds no copy that holds
// the data and none that a propagation could bring up to date: it must give the unit up (lost),
// not wait for a table change that never comes (before: the rebuild hung, and every write to its
// unit behind it: the explorer's stall_raid1_2_94). The rebuild ends with its units lost, and
// reads of them fail.
TEST(member_identity, raid1_a_rebuild_whose_source_is_lost_gives_its_units_up_instead_of_waiting) {
    controller::controller_config c = component_test::raid1_config();
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    component_test::host_writer<component_test::controller_bench> w{b};
    component_test::run_clean(b, [&] {
        fill(w, b.ctl->capacity_sectors(), 50);
        pause_ms(50);
        b.ctl->fail_member(0);
        b.drives[0]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(0));
        pause_ms(5);  // a few units rebuilt, one step in flight
        b.ctl->fail_member(1);
        wait_for_state(b, 0, member_state::optimal, 60000);
        std::vector<uint64_t> r(8);
        EXPECT_NE(b.host.send(true, b.ctl->capacity_sectors() - 8, 8, r.data()), tlm::TLM_OK_RESPONSE)
            << "a unit with no copy left is served";
    });
}

// RAID 1 with the delayed-write table: an acknowledged write's first copy is on disk 0, its copy to
// disk 1 pending (disk 1 busy). Disk 0 is lost and a fresh drive put in its slot (rebuilding), then
// the power fails before the copy is written: the write's data were in the lost buffer DRAM and on
// the lost drive only. The table's recovery must not copy "the first write's location" from the
// fresh drive (blank there) over disk 1 (before: zeros served as the write's data, the explorer's
// stall_raid1_2_94): the sectors are recorded lost and their reads fail until rewritten.
TEST(member_identity, raid1_a_pending_copy_whose_source_drive_was_replaced_is_lost_at_recovery_not_copied_from_the_blank_drive) {
    controller::controller_config c = component_test::raid1_config(1);
    component_test::controller_bench b(2, c, component_test::cheetah(), member_blocks);
    const std::vector<uint64_t> old_data = component_test::tokens(1, 16), new_half = component_test::tokens(2, 8);
    auto *fw = b.ctl->firmware_as<controller::replicated_firmware>();
    const uint64_t far = 100 * 16;  // a unit the rebuild is far from reaching before the power loss
    component_test::run_clean(b, [&] {
        std::vector<uint64_t> w = old_data;
        ASSERT_EQ(b.host.send(false, far, 16, w.data()), tlm::TLM_OK_RESPONSE);
        pause_ms(50);  // on both copies
        ASSERT_EQ(fw->delayed_writes()->entries(), 0u);
        // Disk 1 busy with a long read (its one tag): the write's first copy goes to disk 0.
        b.host.spawn([&] {
            std::vector<uint64_t> t(3000);
            b.ctl->raw_disk_io(true, 1, 2000, 3000, t.data());
        });
        pause_ms(0.1);
        w = new_half;
        ASSERT_EQ(b.host.send(false, far + 8, 8, w.data()), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(fw->delayed_writes()->entries(), 1u) << "the copy to disk 1 is not pending: the test shows nothing";
        b.ctl->fail_member(0);
        b.drives[0]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(0));
        pause_ms(10);  // the new member's superblock written: the start-up check takes it as the member
        ASSERT_EQ(fw->delayed_writes()->entries(), 1u) << "the copy was written before the power loss";
        b.ctl->power_fail();
        pause_ms(100);
        b.ctl->power_restore_and_recover();
        auto read = [&](uint64_t lbn, uint32_t n, std::vector<uint64_t> &r) {
            r.assign(n, 0);
            return b.host.send(true, lbn, n, r.data()) == tlm::TLM_OK_RESPONSE;
        };
        std::vector<uint64_t> r;
        const std::vector<uint64_t> old_half(old_data.begin(), old_data.begin() + 8);
        EXPECT_FALSE(read(far + 8, 8, r)) << "the lost write's sectors are served";
        ASSERT_TRUE(read(far, 8, r));
        EXPECT_EQ(r, old_half);
        wait_for_state(b, 0, member_state::optimal, 600000);
        EXPECT_FALSE(read(far + 8, 8, r)) << "the lost write's sectors are served after the rebuild";
        b.ctl->set_failed_disk(1);  // the rebuilt drive alone
        ASSERT_TRUE(read(far, 8, r));
        EXPECT_EQ(r, old_half);
        b.ctl->set_failed_disk(-1);
    });
}
