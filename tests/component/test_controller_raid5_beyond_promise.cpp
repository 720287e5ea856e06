// RAID 5 beyond its promise (issue 27, explorer cases 41:132 and 41:149): a second member lost
// while the first one's replacement is being rebuilt. The stripes the rebuild had not reached
// have lost their data; requests to them may fail, but no read may return wrong data. The
// rebuild goes on past the lost stripes (nothing to rebuild there) and the replacement ends up
// optimal though it holds none of them: a read planned before the second loss and served after
// it must not take the replacement's unit of such a stripe as its data.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "rebuild_load.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::controller_bench;
using component_test::host_writer;
using component_test::pause_ms;
using controller::member_state;

namespace {

constexpr uint64_t unit_sectors = 16;
constexpr uint64_t member_blocks = 96 * unit_sectors + controller::superblock_end_reserve_sectors;

struct second_loss_outcome {
    uint64_t reads = 0, failed_reads = 0;
    uint64_t in_flight_at_loss = 0;
    uint64_t integrity_errors = 0, reads_checked = 0;
    int64_t lost_stripes = 0;
    member_state first_replacement = member_state::failed;
};

// Writes the whole array, loses disk 3 and puts a fresh drive in its slot (its rebuild held back
// by a small share), then `clients` readers keep reads of the whole array outstanding (a deep
// queue: most wait for a drive tag) and disk 0 is lost `loss_after_ms` into them, never replaced.
second_loss_outcome second_loss_under_deep_reads(int clients, double loss_after_ms) {
    controller::controller_config config;
    config.channels = 2;
    config.firmware.stripe_unit_sectors = unit_sectors;
    config.firmware.array = controller::array_kind::raid5;
    config.firmware.tags_per_disk = 2;
    config.firmware.rebuild.share = 1.0;
    controller_bench b(4, config, component_test::cheetah(), member_blocks);
    host_writer<controller_bench> w{b, {}};
    const uint64_t capacity = b.ctl->capacity_sectors();
    second_loss_outcome out;
    uint64_t outstanding = 0;
    int running = 0;
    const auto *fw = b.ctl->firmware_as<controller::raid_firmware>();
    component_test::run_to_end(b, [&] {
        for (uint64_t lbn = 0; lbn < capacity; lbn += unit_sectors) w.write(lbn, uint32_t(unit_sectors));
        b.ctl->fail_member(3);
        b.drives[3]->replace_media();
        ASSERT_TRUE(b.ctl->replace_member(3));
        bool stop = false;
        for (int k = 0; k < clients; ++k) {
            ++running;
            b.host.spawn([&, k] {
                uint64_t x = 99991 + uint64_t(k) * 7919;
                while (!stop) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    const uint64_t lbn = ((x >> 20) % (capacity / unit_sectors)) * unit_sectors;
                    std::vector<uint64_t> t(unit_sectors);
                    ++outstanding;
                    ++out.reads;
                    if (b.host.send(true, lbn, uint32_t(unit_sectors), t.data()) != tlm::TLM_OK_RESPONSE)
                        ++out.failed_reads;
                    --outstanding;
                }
                --running;
            });
        }
        pause_ms(loss_after_ms);
        out.in_flight_at_loss = outstanding;
        b.ctl->fail_member(0);
        pause_ms(200);  // the first replacement's rebuild runs past the stripes the loss took
        stop = true;
        while (running > 0) pause_ms(1);
    });
    out.integrity_errors = b.ctl->integrity().integrity_errors();
    out.reads_checked = b.ctl->integrity().reads_checked();
    out.lost_stripes = fw->lost_stripes().stripes();
    out.first_replacement = b.ctl->members().state(3);
    return out;
}

}  // namespace

// Reads planned around the first replacement (its data rebuilt from the others) that wait past
// the second loss find the replacement optimal when they are served: the lost stripes' units on
// it must still count as absent (the reads fail), never be read as data (before: zeros served).
TEST(raid5_beyond_promise, reads_waiting_across_a_second_loss_never_take_an_empty_replacement_as_data) {
    const second_loss_outcome o = second_loss_under_deep_reads(48, 20);
    EXPECT_GT(o.in_flight_at_loss, 16u) << "too few reads waiting at the loss: the case shows nothing";
    EXPECT_GT(o.lost_stripes, 0) << "the second loss lost no stripe: the case shows nothing";
    EXPECT_EQ(o.first_replacement, member_state::optimal) << "the rebuild must have run past the lost stripes";
    EXPECT_GT(o.failed_reads, 0u);  // beyond the promise: reads of lost stripes fail
    EXPECT_GT(o.reads_checked, 1000u);
    EXPECT_EQ(o.integrity_errors, 0u);
}
