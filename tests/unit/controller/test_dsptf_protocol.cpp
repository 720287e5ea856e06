// D-SPTF's pure logic: the CLAIM protocol's conflict resolution (claim_arbiter), the exclusive
// caching rule and the brick's LRU cache (brick_cache), and the request-distribution policies.
#include <gtest/gtest.h>

#include <map>

#include "controller/families/bricks/brick_cache.h"
#include "controller/families/bricks/claim_arbiter.h"
#include "controller/families/bricks/request_distribution.h"

using namespace raidtlm::controller;
using verdict = claim_arbiter::verdict;

TEST(claim_protocol, lower_service_time_wins_and_lower_brick_breaks_ties) {
    EXPECT_TRUE(claim_wins({3, 1.0}, {1, 2.0}));
    EXPECT_FALSE(claim_wins({1, 2.0}, {3, 1.0}));
    EXPECT_TRUE(claim_wins({1, 2.0}, {3, 2.0}));
    EXPECT_FALSE(claim_wins({3, 2.0}, {1, 2.0}));
}

TEST(claim_protocol, a_claim_for_a_queued_read_drops_it) {
    claim_arbiter b(1);
    ASSERT_TRUE(b.enqueue(7));
    EXPECT_EQ(b.on_remote_claim(7, {0, 9.0}, 0), verdict::drop);
    EXPECT_FALSE(b.holds(7));
    EXPECT_FALSE(b.may_issue(7));
    EXPECT_EQ(b.stats().dropped, 1u);
}

TEST(claim_protocol, concurrent_claims_leave_exactly_one_brick_serving) {
    // Both bricks selected the read and sent CLAIMs that cross on the network.
    for (double bid0 : {1.0, 2.0, 3.0}) {
        claim_arbiter b0(0), b1(1);
        b0.enqueue(5);
        b1.enqueue(5);
        const claim_bid c0 = b0.start_claim(5, bid0);
        const claim_bid c1 = b1.start_claim(5, 2.0);
        EXPECT_EQ(b0.claims_in_flight(), 1u);
        const verdict v0 = b0.on_remote_claim(5, c1, 0);
        const verdict v1 = b1.on_remote_claim(5, c0, 0);
        const bool serve0 = b0.may_issue(5), serve1 = b1.may_issue(5);
        EXPECT_NE(serve0, serve1) << "bid0 " << bid0;
        // 1.0 beats 2.0; at 2.0 the lower brick id (0) wins; 3.0 loses.
        EXPECT_EQ(serve0, bid0 <= 2.0);
        EXPECT_EQ(v0, serve0 ? verdict::keep : verdict::drop);
        EXPECT_EQ(v1, serve1 ? verdict::keep : verdict::drop);
        EXPECT_EQ(b0.stats().conflicts_won + b1.stats().conflicts_won, 1u);
        EXPECT_EQ(b0.stats().conflicts_lost + b1.stats().conflicts_lost, 1u);
        EXPECT_EQ(b0.claims_in_flight() + b1.claims_in_flight(), 0u);
    }
}

TEST(claim_protocol, three_way_conflict_is_counted_once_at_the_winner) {
    claim_arbiter b[3] = {claim_arbiter(0), claim_arbiter(1), claim_arbiter(2)};
    claim_bid bids[3];
    const double service[3] = {4.0, 1.5, 3.0};
    for (int i = 0; i < 3; ++i) {
        b[i].enqueue(11);
        bids[i] = b[i].start_claim(11, service[i]);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (i != j)
                b[i].on_remote_claim(11, bids[j], 0);
    EXPECT_FALSE(b[0].may_issue(11));
    EXPECT_TRUE(b[1].may_issue(11));
    EXPECT_FALSE(b[2].may_issue(11));
    EXPECT_EQ(b[1].stats().conflicts_won, 1u);
}

TEST(claim_protocol, a_late_claim_for_an_issued_read_is_a_duplicate) {
    claim_arbiter b(2);
    b.enqueue(3);
    b.start_claim(3, 5.0);
    ASSERT_TRUE(b.may_issue(3));
    EXPECT_EQ(b.on_remote_claim(3, {0, 0.1}, 0), verdict::duplicate_should_yield);
    EXPECT_EQ(b.on_remote_claim(3, {1, 9.0}, 0), verdict::duplicate);
    EXPECT_EQ(b.stats().duplicates, 2u);
    b.finish(3);
    EXPECT_FALSE(b.holds(3));
}

TEST(claim_protocol, a_claim_that_overtakes_the_forwarded_read_drops_it_on_arrival) {
    claim_arbiter b(1);
    EXPECT_EQ(b.on_remote_claim(9, {0, 1.0}, 10.0), verdict::drop);
    EXPECT_EQ(b.early_claims(), 1u);
    EXPECT_FALSE(b.enqueue(9));
    EXPECT_EQ(b.early_claims(), 0u);
    // A claim for a read long gone here is forgotten after the network's horizon.
    b.on_remote_claim(12, {0, 1.0}, 10.0);
    b.forget_claims_before(5.0);
    EXPECT_EQ(b.early_claims(), 1u);
    b.forget_claims_before(20.0);
    EXPECT_EQ(b.early_claims(), 0u);
    EXPECT_TRUE(b.enqueue(12));
}

TEST(exclusive_cache, each_page_has_one_owner_spread_over_the_replicas) {
    for (int replicas : {2, 3, 8}) {
        std::map<int, int> count;
        for (uint64_t page = 0; page < 80000; ++page) {
            const int owner = exclusive_cache_owner(page, replicas);
            ASSERT_GE(owner, 0);
            ASSERT_LT(owner, replicas);
            ASSERT_EQ(owner, exclusive_cache_owner(page, replicas));
            ++count[owner];
        }
        for (auto [r, n] : count)
            EXPECT_NEAR(double(n) / 80000, 1.0 / replicas, 0.01) << replicas << " replicas, owner " << r;
    }
}

TEST(exclusive_cache, after_destage_only_the_owner_keeps_a_written_block) {
    const int replicas = 4;
    std::vector<brick_cache> bricks;
    for (int r = 0; r < replicas; ++r)
        bricks.emplace_back(512ull << 20, 8, r, replicas);
    for (uint64_t page = 0; page < 200; ++page) {
        for (auto &c : bricks) {
            c.insert_dirty(page * 8, 8);
            EXPECT_TRUE(c.read_hit(page * 8, 8));  // every replica holds it while dirty
        }
        for (auto &c : bricks)
            c.destaged(page * 8, 8);
        int holders = 0;
        for (int r = 0; r < replicas; ++r)
            if (bricks[size_t(r)].read_hit(page * 8, 8)) {
                ++holders;
                EXPECT_EQ(r, exclusive_cache_owner(page, replicas));
            }
        EXPECT_EQ(holders, 1) << "page " << page;
    }
    for (auto &c : bricks)
        EXPECT_EQ(c.dirty_pages(), 0u);
}

TEST(exclusive_cache, a_page_rewritten_before_its_destage_stays_dirty) {
    brick_cache c(1 << 20, 8, 0, 2);
    c.insert_dirty(0, 8);
    c.insert_dirty(0, 8);
    c.destaged(0, 8);
    EXPECT_EQ(c.dirty_pages(), 1u);
    EXPECT_TRUE(c.read_hit(0, 8));
    c.destaged(0, 8);
    EXPECT_EQ(c.dirty_pages(), 0u);
    EXPECT_THROW(c.destaged(0, 8), std::logic_error);
}

TEST(brick_cache, lru_evicts_the_least_recent_clean_page_never_a_dirty_one) {
    brick_cache c(3 * 8 * 512, 8, 0, 1);  // three pages
    ASSERT_EQ(c.capacity_pages(), 3u);
    c.insert_dirty(0, 8);   // page 0, dirty
    c.insert_clean(8, 8);   // page 1
    c.insert_clean(16, 8);  // page 2
    EXPECT_TRUE(c.read_hit(8, 8));  // page 1 most recent: page 2 is the LRU clean page
    c.insert_clean(24, 8);          // page 3 pushes page 2 out (page 0 is older but dirty)
    EXPECT_TRUE(c.read_hit(0, 8));
    EXPECT_TRUE(c.read_hit(8, 8));
    EXPECT_FALSE(c.read_hit(16, 8));
    EXPECT_TRUE(c.read_hit(24, 8));
    EXPECT_EQ(c.stats().evictions, 1u);
    // A request spanning pages hits only when every page is held; a partial page counts whole.
    EXPECT_FALSE(c.read_hit(20, 8));
    EXPECT_TRUE(c.read_hit(26, 4));
    // Full of dirty data: no room for another dirty page.
    brick_cache full(2 * 8 * 512, 8, 0, 1);
    full.insert_dirty(0, 16);
    EXPECT_FALSE(full.can_hold_dirty(100, 1));
    full.destaged(0, 8);
    EXPECT_TRUE(full.can_hold_dirty(100, 1));
}

TEST(request_distribution, dsptf_queues_every_replica_hashing_one) {
    request_distribution d(distribution_policy::dsptf, 4, 8);
    EXPECT_EQ(d.read_queuers(123).size(), 4u);
    EXPECT_TRUE(d.forwards_reads());
    request_distribution h(distribution_policy::hashing, 4, 8);
    EXPECT_FALSE(h.forwards_reads());
    for (uint64_t lbn = 0; lbn < 1000; lbn += 3) {
        const auto q = h.read_queuers(lbn);
        ASSERT_EQ(q.size(), 1u);
        EXPECT_EQ(q[0], exclusive_cache_owner(lbn / 8, 4));  // the block's cache owner
    }
}

TEST(request_distribution, weighted_hashing_follows_the_weights) {
    request_distribution w(distribution_policy::weighted_hashing, 2, 8, {1.0, 2.0 / 3.0});
    int fast = 0;
    const int n = 60000;
    for (int b = 0; b < n; ++b)
        fast += w.hashed_replica(uint64_t(b) * 8) == 0;
    EXPECT_NEAR(double(fast) / n, 0.6, 0.01);
    EXPECT_THROW(request_distribution(distribution_policy::weighted_hashing, 2, 8, {1.0}), std::invalid_argument);
    EXPECT_THROW(request_distribution(distribution_policy::weighted_hashing, 2, 8, {1.0, 0.0}),
                 std::invalid_argument);
}
