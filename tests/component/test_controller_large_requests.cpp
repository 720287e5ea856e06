// Host requests larger than the buffer DRAM: moved in pieces through bounded buffers
// (controller/kit/host_pieces.h), with the data read back as written; and what failed requests leave
// behind once they are done (nothing held). Real Cheetah 9LP drives, a 1 MiB buffer DRAM.
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/families/raid/raid_firmware.h"

using namespace raidtlm;
using component_test::controller_bench;

namespace {

constexpr uint64_t dram_bytes = 1 << 20;
// 4 MiB: four times the DRAM (a piece is at most a quarter of it: 16 pieces or more).
constexpr uint32_t big_sectors = 8192;

controller::controller_config small_dram(controller::array_kind kind, uint64_t unit = 16) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.stripe_unit_sectors = unit;
    c.firmware.array = kind;
    c.dram.capacity_bytes = dram_bytes;
    return c;
}

// Writes big requests (one starting off a stripe boundary), reads them back whole and in small
// overlapping pieces; every request completes, the data are the host's, and no buffer is held
// at the end.
void large_requests_read_back(controller::array_kind kind) {
    controller_bench b(4, small_dram(kind));
    using writer = component_test::host_writer<controller_bench>;
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(5, big_sectors);                      // unaligned start and end
        w.write(big_sectors + 7, big_sectors / 2);    // beside it
        w.write(1000, 3000);                          // over both pieces' boundary, smaller than DRAM
        w.check(0, 2 * big_sectors);                  // one read of 8 MiB
        for (uint64_t lbn = 0; lbn < 2 * big_sectors; lbn += 997) w.check(lbn, 61);
    });
    EXPECT_EQ(b.ctl->outstanding(), 0);
    EXPECT_EQ(b.ctl->integrity().reads_checked(), 2 * uint64_t(big_sectors) + 61 * ((2 * big_sectors + 996) / 997));
    EXPECT_EQ(controller::kit_of(*b.ctl).host_bytes_held(), 0u);
    EXPECT_GT(controller::kit_of(*b.ctl).host_piece_sectors(), 0u);
    EXPECT_LE(controller::kit_of(*b.ctl).host_piece_sectors() * protocol::sector_bytes, dram_bytes / 4);
}

}  // namespace

TEST(controller_large_requests, raid5_requests_larger_than_the_dram_are_served_in_pieces) {
    large_requests_read_back(controller::array_kind::raid5);
}

TEST(controller_large_requests, raid1_requests_larger_than_the_dram_are_served_in_pieces) {
    large_requests_read_back(controller::array_kind::raid1);
}

TEST(controller_large_requests, raid0_requests_larger_than_the_dram_are_served_in_pieces) {
    large_requests_read_back(controller::array_kind::raid0);
}

// Several huge requests at once (each holds a piece while its stripes need work buffers): none
// waits for itself or for another's piece.
TEST(controller_large_requests, raid5_concurrent_large_requests_do_not_deadlock) {
    controller_bench b(4, small_dram(controller::array_kind::raid5));
    int done = 0;
    for (int k = 0; k < 6; ++k)
        b.host.spawn([&, k] {
            std::vector<uint64_t> t = component_test::tokens(uint64_t(k + 1), big_sectors);
            const bool read = k % 2 == 1;
            EXPECT_EQ(b.host.send(read, uint64_t(k) * 1000, big_sectors, t.data()), tlm::TLM_OK_RESPONSE);
            ++done;
        });
    sc_core::sc_start();
    EXPECT_EQ(done, 6);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_EQ(controller::kit_of(*b.ctl).host_bytes_held(), 0u);
}

// A RAID 5 that lost two disks: the requests that touch lost stripes fail and leave nothing:
// no host buffer held, the lost stripes kept as one run (not one entry per stripe or sector).
TEST(controller_large_requests, raid5_failed_requests_hold_no_memory) {
    controller_bench b(4, small_dram(controller::array_kind::raid5), component_test::cheetah(), 64 * 1024);
    using writer = component_test::host_writer<controller_bench>;
    int failed = 0;
    run_to_end(b, [&] {
        writer w{b, {}};
        for (uint64_t lbn = 0; lbn < 4096; lbn += 512) w.write(lbn, 512);
        b.ctl->fail_member(1);
        b.ctl->fail_member(2);
        for (int k = 0; k < 40; ++k) {
            std::vector<uint64_t> t = component_test::tokens(uint64_t(100 + k), big_sectors);
            failed += b.host.send(k % 2 == 0, uint64_t(k) * 97, big_sectors, t.data()) != tlm::TLM_OK_RESPONSE;
        }
    });
    EXPECT_EQ(failed, 40);
    EXPECT_EQ(b.ctl->outstanding(), 0);
    EXPECT_EQ(controller::kit_of(*b.ctl).host_bytes_held(), 0u);
    const auto &fw = *b.ctl->firmware_as<controller::raid_firmware>();
    ASSERT_FALSE(fw.lost_stripes().empty());
    // Every stripe lost the same two members: one run, and no range noted sector by sector.
    EXPECT_EQ(fw.lost_stripes().runs(), 1u);
    EXPECT_TRUE(fw.lost_sectors().empty());
}
