#include <gtest/gtest.h>

#include <map>

#include "controller/kit/data_token.h"
#include "controller/kit/delayed_write_table.h"
#include "controller/platform/scoreboard.h"
#include "testbench/workloads/random.h"

using namespace raidtlm::controller;

namespace {
const copy_location c0{0, 0}, c1{1, 1}, c2{2, 2};
using table = delayed_write_table;
}  // namespace

TEST(delayed_write_table, other_copies_wait_per_disk_until_written) {
    table t(3, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 8, c0, {c1, c2}, fg);
    EXPECT_TRUE(fg.empty());
    EXPECT_EQ(t.entries(), 1u);
    EXPECT_EQ(t.buffered_sectors(), 8);
    EXPECT_EQ(t.delayed(0), 0u);
    EXPECT_EQ(t.delayed(1), 1u);
    EXPECT_FALSE(t.next_delayed(0).has_value());
    const auto p1 = t.next_delayed(1);
    ASSERT_TRUE(p1.has_value());
    EXPECT_EQ(p1->to, c1);
    EXPECT_EQ(p1->source, c0);
    EXPECT_EQ(p1->lbn, 0);
    EXPECT_EQ(p1->sectors, 8);
    EXPECT_TRUE(p1->data_buffered);
    EXPECT_EQ(t.delayed(1), 0u);
    EXPECT_TRUE(t.in_flight_overlaps(1, 7, 4));
    EXPECT_FALSE(t.in_flight_overlaps(2, 0, 8));
    t.propagation_done(p1->op);
    EXPECT_FALSE(t.in_flight_overlaps(1, 7, 4));
    EXPECT_EQ(t.entries(), 1u);  // copy 2 still pending
    t.propagation_done(t.next_delayed(2)->op);
    EXPECT_EQ(t.entries(), 0u);
    EXPECT_EQ(t.buffered_sectors(), 0);
}

TEST(delayed_write_table, a_newer_write_discards_the_older_pending_update) {
    table t(3, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 8, c0, {c1, c2}, fg);
    t.first_write_scheduled(0, 8, c1, {c0, c2}, fg);  // same sectors, first write elsewhere
    EXPECT_EQ(t.entries(), 1u);
    EXPECT_EQ(t.buffered_sectors(), 8);
    EXPECT_EQ(t.delayed(1), 0u);
    EXPECT_EQ(t.delayed(2), 1u);
    const auto p = t.next_delayed(2);
    EXPECT_EQ(p->source, c1);
    EXPECT_FALSE(t.next_delayed(2).has_value());  // the older update was discarded
    EXPECT_FALSE(t.next_delayed(1).has_value());
}

TEST(delayed_write_table, a_write_inside_an_older_one_splits_it) {
    table t(2, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 16, c0, {c1}, fg);
    t.first_write_scheduled(4, 4, c0, {c1}, fg);
    EXPECT_EQ(t.entries(), 3u);
    EXPECT_EQ(t.buffered_sectors(), 16);
    EXPECT_EQ(t.delayed(1), 3u);
    std::vector<std::pair<int64_t, int32_t>> order;
    while (auto p = t.next_delayed(1)) {
        order.emplace_back(p->lbn, p->sectors);
        t.propagation_done(p->op);
    }
    // The older write's two pieces keep their turn; the newer write queues behind them.
    const std::vector<std::pair<int64_t, int32_t>> expected{{0, 4}, {8, 8}, {4, 4}};
    EXPECT_EQ(order, expected);
    EXPECT_EQ(t.entries(), 0u);
}

TEST(delayed_write_table, a_split_entry_keeps_the_propagation_already_in_flight) {
    table t(2, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 16, c0, {c1}, fg);
    const auto old = t.next_delayed(1);  // writing [0, 16) to copy 1 with the old data
    t.first_write_scheduled(4, 4, c0, {c1}, fg);
    EXPECT_TRUE(t.in_flight_overlaps(1, 4, 4));  // the firmware must hold the new copy-1 write
    EXPECT_EQ(t.entries(), 3u);
    t.propagation_done(old->op);  // it wrote the old halves too
    EXPECT_EQ(t.entries(), 1u);
    const auto fresh = t.next_delayed(1);
    EXPECT_EQ(fresh->lbn, 4);
    t.propagation_done(fresh->op);
    EXPECT_EQ(t.entries(), 0u);
}

TEST(delayed_write_table, the_threshold_flushes_every_disk_with_delayed_writes_oldest_first) {
    table t(3, {3, false});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 1, c0, {c1, c2}, fg);
    t.first_write_scheduled(10, 1, c0, {c1, c2}, fg);
    EXPECT_FALSE(t.flushing_any());
    t.first_write_scheduled(20, 1, c0, {c1, c2}, fg);
    EXPECT_TRUE(fg.empty());  // handed out as the firmware has room for them, not all at once
    EXPECT_TRUE(t.flushing(1));
    EXPECT_TRUE(t.flushing(2));
    EXPECT_FALSE(t.flushing(0));
    std::vector<propagation> out;
    for (int disk : {1, 2})
        for (int64_t lbn : {0, 10, 20}) {
            const auto p = t.next_delayed(disk);
            ASSERT_TRUE(p.has_value());
            EXPECT_EQ(p->lbn, lbn);
            out.push_back(*p);
        }
    EXPECT_EQ(t.forced(), 6u);
    EXPECT_FALSE(t.flushing_any());
    for (const auto &p : out) t.propagation_done(p.op);
    EXPECT_EQ(t.entries(), 0u);
    // Below the threshold again, a new delayed write waits for its disk to be idle.
    t.first_write_scheduled(30, 1, c0, {c1}, fg);
    EXPECT_FALSE(t.flushing(1));
    EXPECT_EQ(t.delayed(1), 1u);
}

TEST(delayed_write_table, foreground_propagation_sends_every_copy_at_once) {
    table t(3, {10000, true});
    std::vector<propagation> fg;
    t.first_write_scheduled(5, 2, c0, {c1, c2}, fg);
    ASSERT_EQ(fg.size(), 2u);
    EXPECT_EQ(fg[0].to, c1);
    EXPECT_EQ(fg[1].to, c2);
    EXPECT_EQ(t.delayed(1) + t.delayed(2), 0u);
    EXPECT_EQ(t.entries(), 1u);  // guards recovery until both are written
    t.propagation_done(fg[0].op);
    t.propagation_done(fg[1].op);
    EXPECT_EQ(t.entries(), 0u);
}

// Three copies of every sector (a 1×3 SR-Array or a 3-way mirror) as token maps. Writes are
// acknowledged when their first copy is written; propagations land when they are done. A power
// loss keeps the disks and the NVRAM table; recovery copies from each first write's location.
TEST(delayed_write_table, recovery_after_power_loss_loses_no_acknowledged_write) {
    table t(3, {});
    scoreboard sb;
    std::vector<std::map<int64_t, uint64_t>> disk(3);
    raidtlm::testbench::random_source rng(9);
    std::vector<propagation> fg;
    const std::vector<copy_location> all{c0, c1, c2};
    uint64_t seq = 0;
    for (int i = 0; i < 400; ++i) {
        const int64_t lbn = int64_t(rng.below(60));
        const int32_t n = int32_t(1 + rng.below(6));
        const size_t first = rng.below(3);
        std::vector<copy_location> others;
        for (size_t c = 0; c < 3; ++c)
            if (c != first) others.push_back(all[c]);
        t.first_write_scheduled(lbn, n, all[first], others, fg);
        for (int64_t l = lbn; l < lbn + n; ++l) {
            const uint64_t token = make_token(l, ++seq);
            disk[first][l] = token;  // the first write lands, then the host is told
            sb.write_acknowledged(l, token);
        }
        // Idle disks propagate some delayed writes; some are still in flight at the power loss.
        for (int d = 0; d < 3; ++d) {
            if (!rng.bernoulli(0.3)) continue;
            if (auto p = t.next_delayed(d); p && rng.bernoulli(0.8)) {
                for (int64_t l = p->lbn; l < p->lbn + p->sectors; ++l) disk[size_t(d)][l] = sb.expected(l);
                t.propagation_done(p->op);
            }
        }
    }
    auto stale_sectors = [&] {
        int stale = 0;
        for (int64_t l = 0; l < 70; ++l)
            for (const auto &d : disk) {
                auto it = d.find(l);
                stale += (it == d.end() ? 0 : it->second) != sb.expected(l);
            }
        return stale;
    };
    ASSERT_GT(stale_sectors(), 0);  // copies are behind when the power goes
    std::vector<std::pair<int64_t, int32_t>> lost;
    const auto items = t.recover_after_power_loss(lost);
    EXPECT_TRUE(lost.empty());
    EXPECT_EQ(t.buffered_sectors(), 0);
    for (const auto &item : items)
        for (const auto &to : item.stale)
            for (int64_t l = item.lbn; l < item.lbn + item.sectors; ++l)
                disk[size_t(to.disk)][l] = disk[size_t(item.source.disk)][l];
    EXPECT_EQ(stale_sectors(), 0);
    // The table queued the same copies again; their data must be read from the source.
    int requeued = 0;
    for (int d = 0; d < 3; ++d)
        while (auto p = t.next_delayed(d)) {
            EXPECT_FALSE(p->data_buffered);
            t.propagation_done(p->op);
            ++requeued;
        }
    int stale_total = 0;
    for (const auto &item : items) stale_total += int(item.stale.size());
    EXPECT_EQ(requeued, stale_total);
    EXPECT_EQ(t.entries(), 0u);
}

TEST(delayed_write_table, a_copy_is_current_once_its_update_is_written) {
    table t(3, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(10, 8, c0, {c1, c2}, fg);
    EXPECT_TRUE(t.is_current(c0, 10, 8));   // the first write's copy
    EXPECT_FALSE(t.is_current(c1, 17, 4));  // overlaps the entry's last sector
    EXPECT_TRUE(t.is_current(c1, 18, 4));   // past it
    EXPECT_TRUE(t.is_current(c1, 0, 10));   // before it
    const auto p = t.next_delayed(1);
    EXPECT_FALSE(t.is_current(c1, 10, 8));  // handed out: not on disk yet
    t.propagation_done(p->op);
    EXPECT_TRUE(t.is_current(c1, 10, 8));
    EXPECT_FALSE(t.is_current(c2, 12, 1));
}

TEST(delayed_write_table, live_parts_leave_out_what_a_newer_write_superseded) {
    table t(2, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 16, c0, {c1}, fg);
    const auto p = t.next_delayed(1);
    ASSERT_TRUE(p.has_value());
    using parts = std::vector<std::pair<int64_t, int32_t>>;
    EXPECT_EQ(t.live_parts(p->op), (parts{{0, 16}}));
    t.first_write_scheduled(4, 8, c0, {c1}, fg);  // splits the handed-out entry
    EXPECT_EQ(t.live_parts(p->op), (parts{{0, 4}, {12, 4}}));
    t.first_write_scheduled(0, 16, c1, {c0}, fg);  // supersedes all of it
    EXPECT_TRUE(t.live_parts(p->op).empty());
    EXPECT_EQ(t.superseded(), 4u);  // the first entry once, then its two parts and the second write
}

TEST(delayed_write_table, an_owner_is_released_when_its_last_entry_goes) {
    table t(2, {});
    std::vector<propagation> fg;
    t.first_write_scheduled(0, 8, c0, {c1}, fg, 7);
    t.first_write_scheduled(8, 8, c0, {c1}, fg, 7);
    t.first_write_scheduled(100, 8, c0, {c1}, fg, 9);
    EXPECT_EQ(t.entries_of(7), 2u);
    auto p = t.next_delayed(1);
    EXPECT_EQ(p->owner, 7u);
    t.propagation_done(p->op);
    EXPECT_TRUE(t.take_released_owners().empty());
    t.first_write_scheduled(8, 8, c1, {c0}, fg, 11);  // supersedes owner 7's last entry
    EXPECT_EQ(t.take_released_owners(), std::vector<uint64_t>{7});
    EXPECT_EQ(t.entries_of(7), 0u);
    EXPECT_EQ(t.entries_of(11), 1u);
    EXPECT_TRUE(t.take_released_owners().empty());
}

// Explorer case 51:20 (RAID 1, three copies): a copy repaired from copy 0 after a MEDIUM ERROR,
// then disk 0 lost before the repair ran. Copy 2 holds the data all along: nothing is lost, the
// repair goes (before: the range was reported lost, and its reads failed, within the promise).
TEST(delayed_write_table, a_repair_whose_source_disk_is_lost_loses_nothing) {
    table t(3, {});
    ASSERT_TRUE(t.add_repair(100, 16, c0, c1));
    EXPECT_FALSE(t.is_current(c1, 100, 16));
    EXPECT_TRUE(t.disk_lost(0).empty());
    EXPECT_EQ(t.entries(), 0u);
    EXPECT_TRUE(t.is_current(c1, 100, 16));  // unreadable there still: a read repairs it from copy 2
    // A write's newest data on the lost disk only are lost, as before.
    std::vector<propagation> fg;
    t.first_write_scheduled(200, 8, c0, {c1, c2}, fg);
    std::vector<std::pair<int64_t, int32_t>> lost;
    EXPECT_TRUE(t.recover_after_power_loss(lost).size() == 1 && lost.empty());
    ASSERT_EQ(t.disk_lost(0).size(), 1u);
}

TEST(delayed_write_table, a_repair_propagation_says_it_is_a_repair) {
    table t(3, {});
    ASSERT_TRUE(t.add_repair(100, 16, c0, c1));
    const auto p = t.next_delayed(1);
    ASSERT_TRUE(p.has_value());
    EXPECT_TRUE(p->repair);
    EXPECT_FALSE(p->data_buffered);
    std::vector<propagation> fg;
    t.first_write_scheduled(200, 8, c0, {c1, c2}, fg);
    EXPECT_FALSE(t.next_delayed(1)->repair);
}
