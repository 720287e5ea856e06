#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "disk_fixtures.h"
#include "disks/drive_engine.h"

using namespace raidtlm::disks;
using raidtlm::protocol::cache_outcome;

namespace {
// A bus that records when the drive held it.
struct recording_bus : bus_port {
    double beta = 0;
    int acquires = 0, releases = 0;
    double acquire(double at) override { ++acquires; return at; }
    void release(double) override { ++releases; }
    double sector_transfer_ms() const override { return beta; }
};
}  // namespace

TEST(drive_engine, read_miss_then_sequential_read_hits_read_ahead) {
    drive_engine e(raidtlm::test::cheetah9lp(), 0.0);
    free_bus bus;
    auto r1 = e.serve({false, 5000, 8}, 0.0, bus);
    EXPECT_EQ(r1.cache, cache_outcome::miss);
    // Long after: the read-ahead to the end of the track has completed.
    auto r2 = e.serve({false, 5008, 8}, r1.complete_ms + 50.0, bus);
    EXPECT_EQ(r2.cache, cache_outcome::full_hit);
    const auto &o = raidtlm::test::cheetah9lp().overheads;
    const double bulk = raidtlm::test::cheetah9lp().interface.bulk_sector_transfer_ms;
    EXPECT_NEAR(r2.complete_ms - (r1.complete_ms + 50.0), o.read_hit_after_read_ms + 8 * bulk, 1e-9);
}

TEST(drive_engine, read_miss_costs_overhead_seek_rotation_and_transfer) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    drive_engine e(s, 0.0);
    free_bus bus;
    // Start on a track boundary so the 8 sectors stay on one track.
    const int64_t lbn = e.layout().track_end_lbn(10'000'000);
    auto r = e.serve({false, lbn, 8}, 1.0, bus);
    EXPECT_EQ(r.cache, cache_outcome::miss);
    EXPECT_GT(r.seek_distance_cyl, 0);
    EXPECT_GT(r.seek_ms, 0.0);
    // Bus (0.105 ms/sector) is slower than the media: the data leave at bus rate once the first
    // sector is in.
    const double expected = 1.0 + s.overheads.read_miss_after_read_ms + r.seek_ms + r.rotation_ms +
                            e.mech().sector_ms(e.head().cyl) + 8 * s.interface.bulk_sector_transfer_ms;
    EXPECT_NEAR(r.complete_ms, expected, 1e-6);
}

TEST(drive_engine, fast_write_level_2_acknowledges_from_the_buffer) {
    const disk_spec &s = raidtlm::test::cheetah9lp();
    drive_engine e(s, 0.0);
    recording_bus bus;
    auto r = e.serve({true, 123456, 8}, 0.0, bus);
    EXPECT_TRUE(r.write_back);
    EXPECT_NEAR(r.complete_ms, s.overheads.write_hit_after_read_ms + 8 * s.interface.bulk_sector_transfer_ms, 1e-9);
    EXPECT_GT(e.mechanism_free_ms(), r.complete_ms);  // the media write goes on after the ack
    // A read of the written data hits (read hits on write data = 1).
    auto rd = e.serve({false, 123456, 8}, 100.0, bus);
    EXPECT_EQ(rd.cache, cache_outcome::full_hit);
}

TEST(drive_engine, write_through_waits_for_the_media) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.fast_write_level = 0;
    drive_engine e(s, 0.0);
    free_bus bus;
    auto r = e.serve({true, 123456, 8}, 0.0, bus);
    EXPECT_FALSE(r.write_back);
    EXPECT_NEAR(r.complete_ms, e.mechanism_free_ms(), 1e-9);
}

// DiskSim 4.0's implementation acknowledges every write from the buffer at any non-zero level
// (the Barracuda's and Cheetah 4LP's measured writes, level 1, agree); level 1 restricts only
// appending to a segment being written while other commands wait in the drive.
TEST(drive_engine, fast_write_level_1_acknowledges_any_write_from_the_buffer) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.fast_write_level = 1;
    drive_engine e(s, 0.0);
    free_bus bus;
    auto r = e.serve({false, 5000, 8}, 0.0, bus);
    auto w1 = e.serve({true, 1000, 8}, r.complete_ms + 1, bus);  // after a read, not sequential
    auto w2 = e.serve({true, 1008, 8}, w1.complete_ms + 1, bus);
    auto w3 = e.serve({true, 900000, 8}, w2.complete_ms + 50, bus);
    for (const auto *w : {&w1, &w2, &w3}) {
        EXPECT_TRUE(w->write_back);
        EXPECT_LT(w->complete_ms, e.mechanism_free_ms() + 1e-9);
    }
    // Acknowledged once the data are in: overhead plus 8 sector transfers, not the media write.
    EXPECT_NEAR(w3.complete_ms - (w2.complete_ms + 50),
                s.overheads.write_hit_after_write_ms + 8 * s.interface.bulk_sector_transfer_ms, 1e-9);
    s.cache.fast_write_level = 0;
    drive_engine through(s, 0.0);
    EXPECT_FALSE(through.serve({true, 1000, 8}, 0.0, bus).write_back);
}

TEST(drive_engine, new_miss_aborts_read_ahead_where_the_head_is) {
    drive_engine e(raidtlm::test::cheetah9lp(), 0.0);
    free_bus bus;
    auto r1 = e.serve({false, 2000, 8}, 0.0, bus);
    // Arrive immediately: the read-ahead is under way; a far request must not wait for it.
    auto r2 = e.serve({false, 15'000'000, 8}, r1.complete_ms, bus);
    EXPECT_EQ(r2.cache, cache_outcome::miss);
    EXPECT_LT(r2.complete_ms - r1.complete_ms, 30.0);
}

TEST(drive_engine, disconnects_during_media_and_reselects_for_data) {
    drive_engine e(raidtlm::test::hp_c2247a(), 0.0);
    recording_bus bus;
    bus.beta = 0.17;
    e.serve({false, 500000, 16}, 0.0, bus);
    EXPECT_EQ(bus.acquires, 1);  // one reselection (hold bus entire read xfer)
    EXPECT_EQ(bus.releases, 2);  // disconnect for the seek, bus free after status
}

TEST(drive_engine, hp_write_with_extra_disconnect_reselects_twice) {
    // The extra disconnect belongs to a write after a write it does not continue.
    drive_engine e(raidtlm::test::hp_c2247a(), 0.0);
    free_bus first;
    const double t0 = e.serve({true, 100000, 4}, 0.0, first).complete_ms + 30;
    recording_bus bus;
    auto r = e.serve({true, 500000, 4}, t0, bus);
    EXPECT_FALSE(r.write_back);  // fast write level 0
    EXPECT_EQ(bus.acquires, 2);  // for the data, then for status
    const auto &o = raidtlm::test::hp_c2247a().overheads;
    EXPECT_GT(r.complete_ms - t0, o.extradisc_command_ms + o.extradisc_inter_disconnect_ms + o.write_completion_ms);
}

TEST(drive_engine, almost_read_hit_rides_the_read_ahead_in_progress) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.cache.allow_almost_read_hits = true;
    drive_engine e(s, 0.0);
    free_bus bus;
    const int64_t lbn = e.layout().track_end_lbn(3'000'000);  // start of a track
    auto r1 = e.serve({false, lbn, 8}, 0.0, bus);
    // Right after completion the read-ahead is still a few sectors in; ask for what comes next
    // beyond what it has read so far.
    auto r2 = e.serve({false, lbn + 8 + 60, 8}, r1.complete_ms, bus);
    // Without the switch the same request is a miss.
    drive_engine plain(raidtlm::test::cheetah9lp(), 0.0);
    auto p1 = plain.serve({false, lbn, 8}, 0.0, bus);
    auto p2 = plain.serve({false, lbn + 8 + 60, 8}, p1.complete_ms, bus);
    EXPECT_EQ(p2.cache, cache_outcome::miss);
    EXPECT_NE(r2.cache, cache_outcome::miss);
}

TEST(drive_engine, write_back_waits_for_read_ahead_unless_writes_stop_it) {
    disk_spec keep = raidtlm::test::cheetah9lp();
    keep.cache.write_hit_stop_prefetch = false;
    drive_engine stops(raidtlm::test::cheetah9lp(), 0.0), waits(keep, 0.0);
    free_bus bus;
    const int64_t lbn = stops.layout().track_end_lbn(4'000'000);
    for (drive_engine *e : {&stops, &waits}) {
        auto r = e->serve({false, lbn, 8}, 0.0, bus);
        e->serve({true, 12'000'000, 8}, r.complete_ms, bus);
    }
    EXPECT_GT(waits.mechanism_free_ms(), stops.mechanism_free_ms());
}

TEST(drive_engine, back_to_back_sequential_reads_stream_without_losing_revolutions) {
    // With an infinitely fast interface, a stream of 64-sector reads issued back to back must
    // run at the media rate (sectors plus track-switch skews), never a revolution per request.
    disk_spec s = raidtlm::test::cheetah9lp();
    s.interface.bulk_sector_transfer_ms = 0;
    drive_engine e(s, 0.0);
    free_bus bus;
    const int64_t start = e.layout().track_end_lbn(100'000);
    double t = 0;
    const int n = 200;
    drive_result first{};
    for (int i = 0; i < n; ++i) {
        auto r = e.serve({false, start + 64 * i, 64}, t, bus);
        if (i == 0) first = r;
        t = r.complete_ms;
    }
    const double tau = e.mech().sector_ms(e.head().cyl);
    const auto &z = s.layout.zones[0];
    // Media time per sector including the skew paid at every track switch.
    const double per_sector = tau * (z.sectors_per_track + z.track_skew_sectors) / z.sectors_per_track;
    const double streaming_ms = t - first.complete_ms;
    EXPECT_LT(streaming_ms, 1.15 * (n - 1) * 64 * per_sector + (n - 1) * s.overheads.read_hit_after_read_ms);
}

TEST(drive_engine, write_back_is_bounded_by_the_cache_segments) {
    // Back-to-back random writes: the first few are acknowledged from the buffer at once; once
    // every write segment holds data still on its way to the media, a new write waits for one to
    // be written out, so the stream runs at the mechanism's pace.
    const disk_spec &s = raidtlm::test::cheetah9lp();
    drive_engine e(s, 0.0);
    free_bus bus;
    double t = 0;
    std::vector<double> service;
    for (int i = 0; i < 12; ++i) {
        auto r = e.serve({true, int64_t(1'000'000 + 1'234'567 * i) % 17'000'000, 8}, t, bus);
        EXPECT_TRUE(r.write_back);
        service.push_back(r.complete_ms - t);
        t = r.complete_ms;
    }
    const double ack_ms = s.overheads.write_hit_after_write_ms + 8 * s.interface.bulk_sector_transfer_ms;
    EXPECT_LT(service[1], ack_ms + 0.01);  // room in the cache
    for (int i = 4; i < 12; ++i) EXPECT_GT(service[i], ack_ms + 1.0) << "write " << i;  // waited for a flush
    // The stream cannot outrun the media: 12 random writes take at least 8 media writes' worth.
    EXPECT_GT(t, 8 * 4.0);
}

// Floating data and parity's access: a read-rotate-write whose write goes elsewhere in the cylinder
// (drive_request::write_lbn). On the IBM 0661 (4-sector skew = head switch), reading sectors 0-3 of
// track 0 and writing at sector 4 of track 13 (which passes under the head a head switch after the
// read) costs read + head switch + write, where in place it costs a revolution more than the read.
TEST(drive_engine, relocated_read_rotate_write_writes_where_the_head_gets_first) {
    const disk_spec s = load_diskspec(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/disks/ibm0661.diskspecs");
    const double rev = 60000.0 / s.mech.rpm, unit = 4 * rev / 48;
    free_bus bus;
    drive_engine in_place(s, 0.0);
    drive_request a{true, 0, 4};
    a.read_rotate_write = true;
    const auto r0 = in_place.serve(a, 0.0, bus);
    EXPECT_NEAR(r0.transfer_ms, unit + (rev - unit) + unit, 1e-6);  // read, come round, write
    drive_engine moved(s, 0.0);
    drive_request b = a;
    b.write_lbn = 13 * 48 + 4;
    const auto r1 = moved.serve(b, 0.0, bus);
    EXPECT_LT(r1.transfer_ms, 3 * unit + 0.01);
    EXPECT_GE(r1.transfer_ms, unit + s.mech.head_switch_ms + unit - 1e-6);
    EXPECT_EQ(r1.media_end_head.head, 13);
}

namespace {
// A bus that is always free and moves a sector in `beta` ms.
struct fast_bus : bus_port {
    double beta = 0;
    double acquire(double at) override { return at; }
    void release(double) override {}
    double sector_transfer_ms() const override { return beta; }
};
// The Cheetah 9LP behind a bus faster than its media: the drive's own interface time off (as
// behind a controller, where the SCSI bus sets the pace), the bus Ultra2 Wide (80 MB/s, the
// ST39102LW's interface: 512 B / 80e6 B/s = 0.0064 ms per sector).
disk_spec cheetah_on_ultra2(fast_bus &bus) {
    disk_spec s = raidtlm::test::cheetah9lp();
    s.interface.bulk_sector_transfer_ms = 0;
    bus.beta = 512.0 / 80e6 * 1e3;
    return s;
}
}  // namespace

// A sustained sequential write stream (one 256-block write in flight, the next issued at each
// acknowledgement) into the outermost zone: write-back absorbs writes only while a segment has
// room, so the stream runs at the media rate and the data acknowledged but not yet on the media
// never exceed one segment. Before the fix an append to a segment being written never waited:
// the stream ran at bus speed (~60 MB/s) with its media work piling up behind it.
TEST(drive_engine, sustained_sequential_writes_run_at_the_media_rate) {
    fast_bus bus;
    const disk_spec s = cheetah_on_ultra2(bus);
    ASSERT_TRUE(s.cache.combine_seq_writes);
    ASSERT_GE(s.cache.fast_write_level, 1);
    drive_engine e(s, 0.0);
    const int blocks = 256, writes = 60, skip = 10;  // the first writes fill the cache
    const int spt = e.layout().sectors_per_track(0);
    const zone_spec &z0 = s.layout.zones.front();
    ASSERT_LT(int64_t(writes) * blocks, int64_t(spt) * (z0.last_cyl - z0.first_cyl) * s.surfaces);  // all in zone 0
    const double media_bytes_per_ms = spt * 512.0 / e.mech().period_ms();
    // One segment's worth of data takes at most a revolution per track it spans plus one more.
    const double segment_drain_ms = (std::ceil(double(s.cache.segment_blocks) / spt) + 1) * e.mech().period_ms();
    double t = 0, t_skip = 0;
    for (int i = 0; i < writes; ++i) {
        const auto r = e.serve({true, int64_t(i) * blocks, blocks}, t, bus);
        ASSERT_TRUE(r.write_back);
        t = r.complete_ms;
        if (i + 1 == skip) t_skip = t;
        EXPECT_LE(e.mechanism_free_ms() - t, segment_drain_ms) << "write " << i << ": more unwritten data than a segment";
    }
    const double bytes = double(writes - skip) * blocks * 512.0;
    const double rate = bytes / (t - t_skip);
    EXPECT_LE(rate, media_bytes_per_ms);
    // The media never waits for the host: each track costs at most a revolution plus its skew.
    EXPECT_GE(rate, media_bytes_per_ms * spt / (spt + int(std::ceil(std::max(z0.track_skew_sectors, z0.cylinder_skew_sectors)))));
    // The drive counts itself busy until its committed media work ends: that outlasts the stream
    // by at most one segment's drain (before: 508 ms of media work for a 152 ms stream, 334%).
    EXPECT_LE(e.mechanism_free_ms(), t + segment_drain_ms);
}

// A write larger than its segment: the drive takes its last data (and acknowledges it) only once
// the unwritten data fit the segment, never holding more than the segment in write-back.
TEST(drive_engine, write_larger_than_a_segment_waits_until_it_fits) {
    fast_bus bus;
    const disk_spec s = cheetah_on_ultra2(bus);
    drive_engine e(s, 0.0);
    const int blocks = 3 * s.cache.segment_blocks;
    const auto r = e.serve({true, 0, blocks}, 0.0, bus);
    ASSERT_TRUE(r.write_back);
    const int spt = e.layout().sectors_per_track(0);
    const double segment_drain_ms = (std::ceil(double(s.cache.segment_blocks) / spt) + 1) * e.mech().period_ms();
    EXPECT_LE(e.mechanism_free_ms() - r.complete_ms, segment_drain_ms);
    EXPECT_GT(e.mechanism_free_ms(), r.complete_ms);  // the last segment's worth is still write-back
}
