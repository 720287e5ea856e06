#include <gtest/gtest.h>

#include <map>

#include "controller/kit/queues/disk_scheduler.h"

using namespace raidtlm::controller;

namespace {

// Access times by placement LBN; the head on a given cylinder.
class fake_oracle final : public access_time_oracle {
public:
    int head = 0;
    std::map<int64_t, double> ms;
    int head_cylinder() const override { return head; }
    double access_ms(const placement &p, bool) const override { return ms.at(p.extents[0].drive_lbn); }
};

placement at(int cyl, int64_t lbn, int copy = 0) {
    placement p;
    p.copy = copy;
    p.extents = {{lbn, 1, false}};
    p.first = {cyl, 0, 0};
    p.last = p.first;
    p.sectors = 1;
    return p;
}

queued_request request(uint64_t id, std::vector<placement> placements) {
    queued_request r;
    r.id = id;
    r.placements = std::move(placements);
    return r;
}

disk_scheduler scheduler(scheduling_policy p, double r = 0.2) { return disk_scheduler({p, r, 100}); }

}  // namespace

TEST(disk_scheduler, empty_queue_has_no_choice_and_fcfs_takes_the_oldest) {
    fake_oracle o;
    auto s = scheduler(scheduling_policy::fcfs);
    EXPECT_FALSE(s.choose({}, o).has_value());
    auto d = s.choose({request(1, {at(90, 1)}), request(2, {at(0, 2)})}, o);
    EXPECT_EQ(d->request, 0u);
    EXPECT_EQ(d->entries_examined, 1u);
}

TEST(disk_scheduler, sstf_takes_the_nearest_cylinder) {
    fake_oracle o;
    o.head = 50;
    auto s = scheduler(scheduling_policy::sstf);
    auto d = s.choose({request(1, {at(70, 1)}), request(2, {at(42, 2)}), request(3, {at(57, 3)})}, o);
    EXPECT_EQ(d->request, 2u);  // 57: 7 away
    EXPECT_EQ(d->entries_examined, 3u);
}

TEST(disk_scheduler, look_sweeps_then_reverses_and_orders_a_cylinder_by_lbn) {
    fake_oracle o;
    o.head = 50;
    auto s = scheduler(scheduling_policy::look);
    std::vector<queued_request> q{request(1, {at(40, 100)}), request(2, {at(60, 300)}), request(3, {at(55, 201)}),
                                  request(4, {at(55, 200)})};
    auto d = s.choose(q, o);
    EXPECT_EQ(q[d->request].id, 4u);  // cylinder 55, lower LBN first while sweeping up
    EXPECT_TRUE(s.sweeping_up());
    q.erase(q.begin() + long(d->request));
    o.head = 55;
    EXPECT_EQ(q[s.choose(q, o)->request].id, 3u);
    q.erase(q.begin() + 2);
    EXPECT_EQ(q[s.choose(q, o)->request].id, 2u);
    q.erase(q.begin() + 1);
    o.head = 60;
    d = s.choose(q, o);  // nothing above 60: reverse
    EXPECT_EQ(q[d->request].id, 1u);
    EXPECT_FALSE(s.sweeping_up());
}

TEST(disk_scheduler, c_look_returns_to_the_lowest_cylinder) {
    fake_oracle o;
    o.head = 50;
    auto s = scheduler(scheduling_policy::c_look);
    std::vector<queued_request> q{request(1, {at(45, 1)}), request(2, {at(40, 2)}), request(3, {at(60, 3)})};
    EXPECT_EQ(q[s.choose(q, o)->request].id, 3u);
    q.pop_back();
    o.head = 60;
    EXPECT_EQ(q[s.choose(q, o)->request].id, 2u);
    EXPECT_TRUE(s.sweeping_up());
}

TEST(disk_scheduler, cvscan_penalises_requests_behind_the_sweep) {
    fake_oracle o;
    o.head = 50;
    std::vector<queued_request> q{request(1, {at(45, 1)}), request(2, {at(58, 2)})};
    auto sstf_like = scheduler(scheduling_policy::cvscan, 0.0);
    EXPECT_EQ(q[sstf_like.choose(q, o)->request].id, 1u);  // R = 0: 5 behind beats 8 ahead
    auto biased = scheduler(scheduling_policy::cvscan, 0.2);
    EXPECT_EQ(q[biased.choose(q, o)->request].id, 2u);  // 5 + 0.2 * 100 > 8
}

TEST(disk_scheduler, satf_uses_primaries_and_rsatf_any_replica) {
    fake_oracle o;
    o.ms = {{1, 4.0}, {2, 0.5}, {3, 3.0}, {4, 2.0}};
    std::vector<queued_request> q{request(1, {at(10, 1), at(10, 2, 1)}), request(2, {at(20, 3), at(20, 4, 1)})};
    auto satf = scheduler(scheduling_policy::satf);
    auto d = satf.choose(q, o);
    EXPECT_EQ(d->request, 1u);
    EXPECT_EQ(d->placement, 0u);
    EXPECT_EQ(d->entries_examined, 2u);
    auto rsatf = scheduler(scheduling_policy::rsatf);
    d = rsatf.choose(q, o);
    EXPECT_EQ(d->request, 0u);
    EXPECT_EQ(d->placement, 1u);  // the replica half a turn round
    EXPECT_EQ(d->entries_examined, 4u);
}

TEST(disk_scheduler, rlook_takes_the_next_cylinder_then_the_rotationally_closest_replica) {
    fake_oracle o;
    o.head = 50;
    o.ms = {{1, 5.0}, {2, 1.0}, {3, 3.0}, {4, 9.0}, {5, 0.1}};
    std::vector<queued_request> q{request(1, {at(52, 1), at(52, 2, 1)}), request(2, {at(52, 3), at(52, 4, 1)}),
                                  request(3, {at(49, 5)})};
    auto s = scheduler(scheduling_policy::rlook);
    auto d = s.choose(q, o);  // 49 is closer but behind the upward sweep
    EXPECT_EQ(d->request, 0u);
    EXPECT_EQ(d->placement, 1u);
    EXPECT_EQ(d->entries_examined, 5u + 4u);  // scan all placements, time the four in cylinder 52
    auto look = scheduler(scheduling_policy::look);
    d = look.choose(q, o);
    EXPECT_EQ(d->request, 0u);
    EXPECT_EQ(d->placement, 0u);  // LOOK knows only primaries
}

TEST(disk_scheduler, policy_names) {
    for (auto p : {scheduling_policy::fcfs, scheduling_policy::sstf, scheduling_policy::look, scheduling_policy::c_look,
                   scheduling_policy::cvscan, scheduling_policy::satf, scheduling_policy::rlook, scheduling_policy::rsatf})
        EXPECT_EQ(parse_scheduling_policy(to_string(p)), p);
    EXPECT_TRUE(is_replica_aware(scheduling_policy::rsatf));
    EXPECT_FALSE(is_replica_aware(scheduling_policy::satf));
    try {
        parse_scheduling_policy("scan");
        FAIL();
    } catch (const std::invalid_argument &e) {
        EXPECT_STREQ(e.what(), "unknown scheduling policy 'scan'; expected one of fcfs, sstf, look, c-look, cvscan, satf, "
                               "rlook, rsatf");
    }
}
