// The stream engine's pure logic: classifier (region bitmaps, threshold, window) and the
// dispatch/buffered sets (round robin, N per turn, memory bound, staging, timeouts, writes).
#include <gtest/gtest.h>

#include <algorithm>

#include "controller/families/streams/stream_classifier.h"
#include "controller/families/streams/stream_engine_config.h"
#include "controller/families/streams/stream_sets.h"

using namespace raidtlm::controller;

namespace {

stream_classifier_config classifier_config() {
    stream_classifier_config c;
    c.block_sectors = 8;
    c.offset_blocks = 32;
    c.threshold = 3;
    c.window_ms = 100;
    return c;
}

stream_sets_config sets_config(uint32_t d, uint32_t n, uint64_t memory_reads) {
    stream_sets_config c;
    c.read_ahead_sectors = 64;
    c.requests_per_turn = n;
    c.dispatch_streams = d;
    c.memory_bytes = memory_reads * 64 * 512;
    c.capacity_sectors = 1'000'000;
    c.buffer_timeout_ms = 50;
    c.idle_stream_timeout_ms = 100;
    return c;
}

}  // namespace

TEST(stream_classifier, sequential_requests_become_a_stream_at_the_threshold) {
    stream_classifier c(classifier_config());
    EXPECT_FALSE(c.classify(8000, 16, 0.0));
    EXPECT_FALSE(c.classify(8016, 16, 1.0));
    EXPECT_TRUE(c.classify(8032, 16, 2.0));  // third distinct request within the window
    EXPECT_EQ(c.bitmaps(), 1u);
}

TEST(stream_classifier, random_requests_bypass) {
    stream_classifier c(classifier_config());
    // Far apart: each gets its own bitmap, none reaches the threshold.
    for (int i = 0; i < 50; ++i) EXPECT_FALSE(c.classify(uint64_t(i) * 100'000 + 7, 8, double(i)));
    EXPECT_EQ(c.bitmaps(), 50u);
}

TEST(stream_classifier, repeated_reads_of_one_block_do_not_count) {
    stream_classifier c(classifier_config());
    for (int i = 0; i < 10; ++i) EXPECT_FALSE(c.classify(8000, 8, double(i)));
}

TEST(stream_classifier, requests_outside_the_window_do_not_count) {
    stream_classifier c(classifier_config());
    EXPECT_FALSE(c.classify(8000, 16, 0.0));
    EXPECT_FALSE(c.classify(8016, 16, 150.0));  // the first is older than the 100 ms window
    EXPECT_FALSE(c.classify(8032, 16, 300.0));
    EXPECT_FALSE(c.classify(8048, 16, 310.0));  // 300 and 310 are in the window, 150 no longer
    EXPECT_TRUE(c.classify(8064, 16, 320.0));
}

TEST(stream_classifier, out_of_order_requests_count_by_time_only) {
    stream_classifier c(classifier_config());
    EXPECT_FALSE(c.classify(8032, 8, 0.0));
    EXPECT_FALSE(c.classify(8000, 8, 1.0));
    EXPECT_TRUE(c.classify(8016, 8, 2.0));
}

TEST(stream_classifier, garbage_collection_drops_idle_bitmaps) {
    stream_classifier c(classifier_config());
    c.classify(8000, 8, 0.0);
    c.classify(900'000, 8, 90.0);
    EXPECT_EQ(c.collect_garbage(150.0), 1u);  // the first is idle past the window
    EXPECT_EQ(c.bitmaps(), 1u);
    EXPECT_GT(c.bitmap_bytes(), 0u);
}

TEST(stream_classifier, requests_longer_than_the_offset_are_not_detected) {
    // The named limit: each request leaves the bitmap its predecessor allocated.
    stream_classifier c(classifier_config());
    for (int i = 0; i < 10; ++i) EXPECT_FALSE(c.classify(uint64_t(i) * 512, 512, double(i)));
}

TEST(stream_sets, a_host_read_waits_then_is_served_from_the_read_ahead) {
    stream_sets s(sets_config(1, 1, 4));
    const auto id = s.open(1000, 0);
    auto c = s.cover(id, 1000, 16, 0);
    EXPECT_FALSE(c.ready);
    EXPECT_EQ(s.dispatch_queue_size(), 1u);
    auto r = s.next_disk_read(0);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->lbn, 1000u);
    EXPECT_EQ(r->sectors, 64u);
    EXPECT_EQ(s.memory_in_use_bytes(), 64u * 512);
    EXPECT_FALSE(s.cover(id, 1000, 16, 1).ready);  // in flight
    EXPECT_TRUE(s.read_done(r->buffer, true, 2).empty());
    c = s.cover(id, 1000, 16, 3);
    ASSERT_TRUE(c.ready);
    ASSERT_EQ(c.pieces.size(), 1u);
    EXPECT_EQ(c.pieces[0].offset_sectors, 0u);
    EXPECT_TRUE(s.finish_read(id, c, 1000, 16, 3).empty());  // more of the buffer to read
    // The rest of the buffer, then the buffer is freed.
    for (uint64_t lbn = 1016; lbn < 1064; lbn += 16) {
        c = s.cover(id, lbn, 16, 4);
        ASSERT_TRUE(c.ready);
        EXPECT_EQ(c.pieces[0].offset_sectors, lbn - 1000);
        const auto freed = s.finish_read(id, c, lbn, 16, 4);
        EXPECT_EQ(freed.size(), lbn == 1048 ? 1u : 0u);
    }
    EXPECT_EQ(s.memory_in_use_bytes(), 0u);
    EXPECT_EQ(s.stream_of(1064), id);
}

TEST(stream_sets, a_read_across_two_buffers_has_two_pieces) {
    stream_sets s(sets_config(1, 2, 4));
    const auto id = s.open(0, 0);
    s.cover(id, 0, 16, 0);
    auto a = s.next_disk_read(0), b = s.next_disk_read(0);
    EXPECT_FALSE(b);  // one in flight per stream
    s.read_done(a->buffer, true, 1);
    b = s.next_disk_read(1);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->lbn, 64u);
    s.read_done(b->buffer, true, 2);
    const auto c = s.cover(id, 56, 16, 3);
    ASSERT_TRUE(c.ready);
    ASSERT_EQ(c.pieces.size(), 2u);
    EXPECT_EQ(c.pieces[0].sectors, 8u);
    EXPECT_EQ(c.pieces[1].offset_sectors, 0u);
}

TEST(stream_sets, dispatch_set_issues_n_per_stream_then_replaces_round_robin) {
    stream_sets s(sets_config(2, 2, 100));
    std::vector<stream_sets::stream_id> ids;
    for (int i = 0; i < 4; ++i) {
        ids.push_back(s.open(uint64_t(i) * 100'000, 0));
        s.cover(ids.back(), uint64_t(i) * 100'000, 16, 0);
    }
    std::vector<stream_sets::stream_id> order;
    for (int round = 0; round < 8; ++round) {
        auto r = s.next_disk_read(0);
        ASSERT_TRUE(r) << round;
        EXPECT_LE(s.dispatch_set_size(), 2u);
        order.push_back(r->stream);
        s.read_done(r->buffer, true, 0);
    }
    // D = 2: streams 1 and 2 alternate until each issued N = 2, then 3 and 4.
    const std::vector<stream_sets::stream_id> expected{ids[0], ids[1], ids[0], ids[1], ids[2], ids[3], ids[2], ids[3]};
    EXPECT_EQ(order, expected);
    EXPECT_FALSE(s.next_disk_read(0));  // nobody asks for more
    EXPECT_EQ(s.buffered_set_size(), 4u);
}

TEST(stream_sets, read_aheads_wait_for_memory) {
    stream_sets s(sets_config(4, 1, 2));  // room for two read-aheads
    std::vector<stream_sets::stream_id> ids;
    for (int i = 0; i < 3; ++i) {
        ids.push_back(s.open(uint64_t(i) * 100'000, 0));
        s.cover(ids.back(), uint64_t(i) * 100'000, 64, 0);
    }
    auto a = s.next_disk_read(0), b = s.next_disk_read(0);
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(s.next_disk_read(0));
    EXPECT_TRUE(s.waiting_for_memory());
    EXPECT_EQ(s.stats().memory_waits, 1u);
    s.read_done(a->buffer, true, 1);
    EXPECT_FALSE(s.next_disk_read(1));  // staged data still hold the memory
    auto c = s.cover(a->stream, a->lbn, 64, 2);
    ASSERT_TRUE(c.ready);
    EXPECT_EQ(s.finish_read(a->stream, c, a->lbn, 64, 2).size(), 1u);  // consumed: freed
    auto third = s.next_disk_read(2);
    ASSERT_TRUE(third);
    EXPECT_EQ(third->stream, ids[2]);
    EXPECT_LE(s.stats().peak_memory_bytes, 2u * 64 * 512);
}

TEST(stream_sets, idle_streams_lose_their_staged_data_and_are_forgotten) {
    stream_sets s(sets_config(1, 1, 4));
    const auto id = s.open(0, 0);
    s.cover(id, 0, 16, 0);
    auto r = s.next_disk_read(0);
    s.read_done(r->buffer, true, 1);
    EXPECT_TRUE(s.collect_garbage(40).empty());  // within the buffer timeout
    const auto freed = s.collect_garbage(60);
    ASSERT_EQ(freed.size(), 1u);
    EXPECT_EQ(freed[0], r->buffer);
    EXPECT_EQ(s.stats().buffers_expired, 1u);
    EXPECT_EQ(s.stats().sectors_dropped, 64u);
    EXPECT_EQ(s.streams(), 1u);
    s.collect_garbage(120);  // idle past idle_stream_timeout_ms with nothing staged
    EXPECT_EQ(s.streams(), 0u);
    EXPECT_EQ(s.memory_in_use_bytes(), 0u);
}

TEST(stream_sets, a_write_resets_the_streams_it_touches) {
    stream_sets s(sets_config(1, 1, 4));
    const auto id = s.open(0, 0);
    s.cover(id, 0, 16, 0);
    auto r = s.next_disk_read(0);
    // In flight when the write comes: stale, freed when it completes, never served.
    EXPECT_TRUE(s.invalidate(32, 8).empty());
    EXPECT_EQ(s.stats().resets, 1u);
    EXPECT_EQ(s.read_done(r->buffer, true, 1).size(), 1u);
    EXPECT_FALSE(s.cover(id, 0, 16, 2).ready);
    EXPECT_EQ(s.memory_in_use_bytes(), 0u);
    // Elsewhere: untouched.
    auto again = s.next_disk_read(2);
    ASSERT_TRUE(again);
    s.read_done(again->buffer, true, 3);
    EXPECT_TRUE(s.invalidate(500'000, 8).empty());
    EXPECT_TRUE(s.cover(id, 0, 16, 4).ready);
}

TEST(stream_sets, a_failed_read_ahead_is_dropped_and_read_again) {
    stream_sets s(sets_config(1, 1, 4));
    const auto id = s.open(0, 0);
    s.cover(id, 0, 16, 0);
    auto r = s.next_disk_read(0);
    EXPECT_EQ(s.read_done(r->buffer, false, 1).size(), 1u);
    EXPECT_FALSE(s.cover(id, 0, 16, 2).ready);
    auto again = s.next_disk_read(2);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->lbn, 0u);
}

TEST(stream_sets, reads_stop_at_the_end_of_the_space) {
    stream_sets_config c = sets_config(1, 4, 8);
    c.capacity_sectors = 100;
    stream_sets s(c);
    const auto id = s.open(0, 0);
    s.cover(id, 0, 16, 0);
    auto a = s.next_disk_read(0);
    s.read_done(a->buffer, true, 1);
    auto b = s.next_disk_read(1);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->sectors, 36u);
    s.read_done(b->buffer, true, 2);
    EXPECT_FALSE(s.next_disk_read(2));
    EXPECT_EQ(s.dispatch_set_size(), 0u);
}

TEST(stream_engine_config, dispatch_set_defaults_to_what_memory_holds) {
    stream_engine_config c;
    c.read_ahead_kib = 8192;
    c.memory_mib = 64;
    c.requests_per_turn = 2;
    EXPECT_EQ(c.effective_dispatch_streams(), 4u);
    c.dispatch_streams = 3;
    EXPECT_EQ(c.effective_dispatch_streams(), 3u);
    EXPECT_EQ(c.sets(1000, 1).read_ahead_sectors, 16384u);
}

TEST(stream_sets, the_dispatch_set_bounds_the_read_aheads_outstanding) {
    stream_sets s(sets_config(2, 1, 100));
    for (int i = 0; i < 4; ++i) s.cover(s.open(uint64_t(i) * 100'000, 0), uint64_t(i) * 100'000, 16, 0);
    auto a = s.next_disk_read(0), b = s.next_disk_read(0);
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(s.next_disk_read(0));  // D = 2 reads outstanding, memory to spare
    EXPECT_FALSE(s.waiting_for_memory());
    EXPECT_EQ(s.dispatch_queue_size(), 2u);
    s.read_done(a->buffer, true, 1);  // its turn (N = 1) is over: the next stream enters
    EXPECT_EQ(s.dispatch_set_size(), 1u);
    auto c = s.next_disk_read(1);
    ASSERT_TRUE(c);
    EXPECT_NE(c->stream, a->stream);
    EXPECT_NE(c->stream, b->stream);
}

TEST(stream_sets, every_disk_gets_its_share_of_the_dispatch_set) {
    stream_sets_config c = sets_config(2, 1, 100);
    c.disks = 2;
    stream_sets s(c);
    // Three streams of disk 0 wait before one of disk 1.
    for (int i = 0; i < 3; ++i) s.cover(s.open(uint64_t(i) * 100'000, 0, 0), uint64_t(i) * 100'000, 16, 0);
    const auto other = s.open(900'000, 0, 1);
    s.cover(other, 900'000, 16, 0);
    auto a = s.next_disk_read(0), b = s.next_disk_read(0);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(b->stream, other);  // D = 2 over 2 disks: one place each
    EXPECT_FALSE(s.next_disk_read(0));
}
