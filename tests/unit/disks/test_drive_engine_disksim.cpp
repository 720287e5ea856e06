// The drive mechanisms issue 11 aligned with DiskSim 4.0's implementation: read-ahead limits and
// the segment ring, the extra write disconnect and its media write gate, the minimum seek delay,
// the host path's transfer time by direction, a negative write settle. Each test states what
// DiskSim does and checks the engine does the same on a real spec.
#include <gtest/gtest.h>

#include "disk_fixtures.h"
#include "disks/drive_engine.h"

using namespace raidtlm::disks;
using raidtlm::protocol::cache_outcome;

namespace {

// A bus that counts disconnects (releases while the command is still open).
struct counting_bus : bus_port {
    int acquires = 0, releases = 0;
    double acquire(double at) override {
        ++acquires;
        return at;
    }
    void release(double) override { ++releases; }
    double sector_transfer_ms() const override { return 0; }
};

}  // namespace

// "Next track if sequential" (scheme 4): read-ahead to the end of the track holding the block
// after the request, and no further while the segment starts on that track; the maximum
// read-ahead plays no part (DiskSim's disk_buffer_get_max_readahead).
TEST(drive_engine_disksim, scheme_4_reads_ahead_to_the_end_of_the_track_after_the_request) {
    disk_spec s = raidtlm::test::cheetah9lp();
    ASSERT_EQ(s.cache.continuous_read, prefetch_scheme::next_track_if_sequential);
    s.cache.max_read_ahead_blocks = 8;  // would stop read-ahead after 8 blocks if it applied
    s.cache.segment_blocks = 4096;      // keep the ring out of this test
    drive_engine e(s, 0.0);
    free_bus bus;
    const int64_t track = e.layout().track_end_lbn(3'000'000);  // first LBN of a track
    const int64_t track_end = e.layout().track_end_lbn(track);
    auto r = e.serve({false, track, 8}, 0.0, bus);
    ASSERT_EQ(r.cache, cache_outcome::miss);
    // Long after: the whole rest of the track is in the buffer, the next track is not.
    EXPECT_EQ(e.serve({false, track_end - 8, 8}, r.complete_ms + 100, bus).cache, cache_outcome::full_hit);
    EXPECT_EQ(e.serve({false, track_end, 8}, r.complete_ms + 200, bus).cache, cache_outcome::miss);
}

// A request that ends exactly at a track end reads the whole next track ahead (the block after
// the request lies there), where "to the end of the request's last track" would read nothing.
TEST(drive_engine_disksim, scheme_4_request_ending_at_a_track_end_reads_the_next_track) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.segment_blocks = 4096;
    drive_engine e(s, 0.0);
    free_bus bus;
    const int64_t next_track = e.layout().track_end_lbn(3'000'000);
    auto r = e.serve({false, next_track - 8, 8}, 0.0, bus);
    EXPECT_EQ(e.serve({false, next_track + 16, 8}, r.complete_ms + 100, bus).cache, cache_outcome::full_hit);
}

// With a maximum read-ahead (schemes 1-3), DiskSim reads that far past the request whatever
// "Read-ahead over requested" says, and the segment keeps only its last "Segment size" blocks:
// read-ahead longer than the room left pushes the requested data out (the Atlas III's 64-block
// segments, the IBM 18ES's 511), so a re-read misses.
TEST(drive_engine_disksim, read_ahead_past_the_segment_pushes_out_the_requested_data) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.continuous_read = prefetch_scheme::to_segment_full;
    s.cache.read_ahead_over_requested = false;
    s.cache.segment_blocks = 64;
    s.cache.max_read_ahead_blocks = 64;
    drive_engine e(s, 0.0);
    free_bus bus;
    auto r = e.serve({false, 2'000'000, 8}, 0.0, bus);
    // The 64 blocks after the request are read; the requested 8 are gone from the ring.
    EXPECT_EQ(e.serve({false, 2'000'000 + 8 + 56, 8}, r.complete_ms + 100, bus).cache, cache_outcome::full_hit);
    EXPECT_EQ(e.serve({false, 2'000'000, 8}, r.complete_ms + 200, bus).cache, cache_outcome::miss);

    // Read-ahead that fits beside the request keeps it: 24 blocks ahead of 8 in a 64-block ring.
    s.cache.max_read_ahead_blocks = 24;
    drive_engine fits(s, 0.0);
    auto f = fits.serve({false, 2'000'000, 8}, 0.0, bus);
    EXPECT_EQ(fits.serve({false, 2'000'000, 8}, f.complete_ms + 100, bus).cache, cache_outcome::full_hit);
}

// No maximum read-ahead and read-ahead may not overwrite the returned data: fill the segment
// behind the request, as DiskSim does (blkno + segment size).
TEST(drive_engine_disksim, without_a_maximum_read_ahead_fills_the_segment) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.continuous_read = prefetch_scheme::to_segment_full;
    s.cache.read_ahead_over_requested = false;
    s.cache.segment_blocks = 64;
    s.cache.max_read_ahead_blocks = 0;
    drive_engine e(s, 0.0);
    free_bus bus;
    auto r = e.serve({false, 2'000'000, 8}, 0.0, bus);
    EXPECT_EQ(e.serve({false, 2'000'000 + 56, 8}, r.complete_ms + 100, bus).cache, cache_outcome::full_hit);
    EXPECT_EQ(e.serve({false, 2'000'000, 8}, r.complete_ms + 200, bus).cache, cache_outcome::full_hit);
    EXPECT_EQ(e.serve({false, 2'000'000 + 64, 8}, r.complete_ms + 300, bus).cache, cache_outcome::miss);
}

// DiskSim disconnects right after the command only for a write that follows a write it does not
// continue (disk_buffer_select_segment); the HP C2247A trace flags exactly those writes with an
// extra bus disconnect ("Trip" against "Doub").
TEST(drive_engine_disksim, extra_write_disconnect_only_after_a_write_it_does_not_continue) {
    const disk_spec &s = raidtlm::test::hp_c2247a();
    ASSERT_TRUE(s.overheads.extra_write_disconnect);
    drive_engine e(s, 0.0);
    auto disconnects = [&](drive_request req, double at) {
        counting_bus bus;
        const auto r = e.serve(req, at, bus);
        return std::make_pair(bus.releases, r.complete_ms);
    };
    const auto read = disconnects({false, 100'000, 8}, 0.0);
    const auto after_read = disconnects({true, 900'000, 8}, read.second + 30);
    const auto sequential = disconnects({true, 900'008, 8}, after_read.second + 30);
    const auto random = disconnects({true, 300'000, 8}, sequential.second + 30);
    // Releases: one while the media works, one at the end; the extra disconnect adds one.
    EXPECT_EQ(after_read.first, 2);
    EXPECT_EQ(sequential.first, 2);
    EXPECT_EQ(random.first, 3);
}

// DiskSim lets a write skip the minimum seek delay only when it appends to a write the mechanism
// is still putting on the media; a sequential write after an idle gap waits like any other.
TEST(drive_engine_disksim, minimum_seek_delay_holds_a_sequential_write_after_an_idle_gap) {
    disk_spec s = raidtlm::test::hp_c2247a();
    s.overheads.extra_write_disconnect = false;
    s.overheads.minimum_seek_delay_ms = 3.0;  // longer than everything before the media write
    drive_engine e(s, 0.0);
    free_bus bus;
    const auto w1 = e.serve({true, 500'000, 8}, 0.0, bus);
    const double t = w1.complete_ms + 20;
    const auto w2 = e.serve({true, 500'008, 8}, t, bus);
    const double command_done = t + s.overheads.write_miss_after_write_ms;
    // The first sector is written no earlier than command processing plus the minimum delay.
    EXPECT_GE(w2.media_end_ms - w2.transfer_ms, command_done + 3.0 - 1e-9);
}

// A drive with extra write disconnects (the HP C2247A) starts a media write only once
// min(request, 10) blocks are buffered (DiskSim's disk_buffer_block_available): a 20-block
// sequential write never writes its first sector before its tenth block is in, whatever the
// idle gap before it, while the same drive without the rule does at some phases.
TEST(drive_engine_disksim, extra_write_disconnect_drive_buffers_ten_blocks_before_the_media_write) {
    disk_spec s = raidtlm::test::hp_c2247a();
    ASSERT_TRUE(s.overheads.extra_write_disconnect);
    s.overheads.minimum_seek_delay_ms = 0.0;  // isolate the buffering rule
    s.interface.host_write_sector_ms = 0.1;   // slower than nothing, faster than the media
    const double beta = 0.1;
    auto earliest_margin_ms = [&](const disk_spec &spec) {
        double worst = 1e9;
        for (int k = 0; k < 24; ++k) {
            drive_engine e(spec, 0.0);
            free_bus bus;
            const auto w1 = e.serve({true, 500'000, 20}, 0.0, bus);
            // Idle gaps spread over one revolution: the next sector under the head at every phase.
            const double t = w1.complete_ms + 20 + k * e.mech().period_ms() / 24;
            const auto w2 = e.serve({true, 500'020, 20}, t, bus);
            const double data_start =
                t + spec.overheads.write_miss_after_write_ms + spec.overheads.data_preparation_ms;
            const double first_sector = w2.media_end_ms - w2.transfer_ms;
            worst = std::min(worst, first_sector - (data_start + 10 * beta));
        }
        return worst;
    };
    EXPECT_GE(earliest_margin_ms(s), -1e-9);
    disk_spec ungated = s;
    ungated.overheads.extra_write_disconnect = false;
    EXPECT_LT(earliest_margin_ms(ungated), -beta);
}

// The host path's block transfer times differ by direction in some .parv files (HP C2247A: read
// 0.17010, write 0.18686 ms); the drive moves data at the slowest of them and its own rate.
TEST(drive_engine_disksim, host_path_sector_time_by_direction) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.interface.bulk_sector_transfer_ms = 0.05;
    s.interface.host_read_sector_ms = 0.2;
    s.interface.host_write_sector_ms = 0.3;
    drive_engine e(s, 0.0);
    free_bus bus;
    const auto r1 = e.serve({false, 5000, 8}, 0.0, bus);
    const double t = r1.complete_ms + 100;
    const auto hit = e.serve({false, 5008, 8}, t, bus);  // read-ahead has it: overhead + transfer
    ASSERT_EQ(hit.cache, cache_outcome::full_hit);
    EXPECT_NEAR(hit.complete_ms - t, s.overheads.read_hit_after_read_ms + 8 * 0.2, 1e-9);
    const double t2 = hit.complete_ms + 100;
    const auto w = e.serve({true, 900'000, 8}, t2, bus);  // write-back: acknowledged once the data are in
    ASSERT_TRUE(w.write_back);
    EXPECT_NEAR(w.complete_ms - t2, s.overheads.write_hit_after_read_ms + 8 * 0.3, 1e-9);
}

// A .parv bus's "Arbitration time" is paid for the command and for every reselection.
TEST(drive_engine_disksim, host_arbitration_for_the_command_and_each_reselection) {
    disk_spec s = raidtlm::test::cheetah9lp();
    drive_engine plain(s, 0.0);
    s.interface.host_arbitration_ms = 0.25;
    drive_engine arbitrating(s, 0.0);
    counting_bus a, b;
    const auto r0 = plain.serve({false, 2'000'000, 8}, 0.0, a);
    const auto r1 = arbitrating.serve({false, 2'000'000, 8}, 0.0, b);
    ASSERT_EQ(a.acquires, b.acquires);
    ASSERT_GE(b.acquires, 1);  // a miss disconnects and reselects
    // The rotational wait absorbs part of a later start; the reselection after the media does not.
    EXPECT_GE(r1.complete_ms, r0.complete_ms + 0.25 - 1e-9);
    // A full hit: no reselection, only the command's arbitration.
    const double t = r0.complete_ms + 100;
    const auto h0 = plain.serve({false, 2'000'008, 8}, t, a);
    const auto h1 = arbitrating.serve({false, 2'000'008, 8}, t, b);
    ASSERT_EQ(h1.cache, cache_outcome::full_hit);
    EXPECT_NEAR(h1.complete_ms - h0.complete_ms, 0.25, 1e-9);
}
