// The scoreboard's failed writes (controller/platform/scoreboard.h): a failed write of the workload (its
// tokens make_token(lbn, request id)) is kept by nothing but its id, and the check stays exact:
// a read is accepted iff it returns the acknowledged token, one of a write in flight, or one of a
// write that failed since the sector's last acknowledged write.
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "controller/kit/data_token.h"
#include "controller/platform/scoreboard.h"

using raidtlm::controller::make_token;
using raidtlm::controller::scoreboard;
using raidtlm::controller::token_write_sequence;

TEST(data_token, a_token_names_its_write_sequence) {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 10000; ++i) {
        const int64_t lbn = int64_t(rng() % (1ULL << 40));
        const uint64_t sequence = i < 5000 ? uint64_t(i) : rng();
        uint64_t back = 0;
        ASSERT_TRUE(token_write_sequence(lbn, make_token(lbn, sequence), &back));
        EXPECT_EQ(back, sequence);
    }
    uint64_t unused = 0;
    EXPECT_FALSE(token_write_sequence(7, 0, &unused));  // never made
}

namespace {

// Writes of sector 7 as the workload makes them.
constexpr int64_t sector = 7;
uint64_t token_of(int64_t request) { return make_token(sector, uint64_t(request)); }

}  // namespace

TEST(scoreboard_failed_writes, a_named_failed_write_keeps_nothing_and_stays_acceptable_until_written_over) {
    scoreboard sb;
    sb.write_issued(sector, token_of(0), 0);
    sb.write_acknowledged(sector, token_of(0), 0);
    for (int64_t r = 1; r <= 1000; ++r) {
        sb.write_issued(sector, token_of(r), r);
        sb.write_failed(sector, token_of(r), r);
    }
    EXPECT_EQ(sb.writes_pending(), 0u);
    EXPECT_EQ(sb.watermarks_kept(), 0u);
    for (int64_t r = 0; r <= 1000; ++r) EXPECT_TRUE(sb.check_read(sector, token_of(r))) << r;
    EXPECT_FALSE(sb.check_read(sector, token_of(1001)));          // not issued
    EXPECT_FALSE(sb.check_read(sector, make_token(sector + 1, 5)));  // another sector's data
    sb.write_issued(sector, token_of(1001), 1001);
    sb.write_acknowledged(sector, token_of(1001), 1001);
    for (int64_t r = 0; r <= 1000; ++r) EXPECT_FALSE(sb.check_read(sector, token_of(r))) << r;
    EXPECT_TRUE(sb.check_read(sector, token_of(1001)));
    EXPECT_EQ(sb.integrity_errors(), 1001u + 2u);
}

// A write issued before the sector's last acknowledged write that fails after it: its data may
// be on the media (it may have reached the drive last), so it is acceptable, kept by its token.
TEST(scoreboard_failed_writes, an_earlier_write_failing_after_a_later_acknowledgement_stays_acceptable) {
    scoreboard sb;
    sb.write_issued(sector, token_of(1), 1);
    sb.write_issued(sector, token_of(2), 2);
    sb.write_acknowledged(sector, token_of(2), 2);
    sb.write_failed(sector, token_of(1), 1);
    EXPECT_TRUE(sb.check_read(sector, token_of(1)));
    EXPECT_TRUE(sb.check_read(sector, token_of(2)));
    EXPECT_EQ(sb.writes_pending(), 1u);
    sb.write_issued(sector, token_of(3), 3);
    sb.write_acknowledged(sector, token_of(3), 3);
    EXPECT_FALSE(sb.check_read(sector, token_of(1)));
    EXPECT_EQ(sb.writes_pending(), 0u);
}

// A later write that completed (failed, or acknowledged) before an earlier one was acknowledged
// was written over by it: its token is wrong data, although its id is above the acknowledged one.
TEST(scoreboard_failed_writes, writes_completed_before_an_earlier_acknowledged_write_are_written_over) {
    scoreboard sb;
    sb.write_issued(sector, token_of(1), 1);
    sb.write_issued(sector, token_of(2), 2);
    sb.write_issued(sector, token_of(3), 3);
    sb.write_failed(sector, token_of(2), 2);
    sb.write_acknowledged(sector, token_of(3), 3);
    sb.write_acknowledged(sector, token_of(1), 1);
    EXPECT_FALSE(sb.check_read(sector, token_of(2)));
    EXPECT_FALSE(sb.check_read(sector, token_of(3)));
    EXPECT_TRUE(sb.check_read(sector, token_of(1)));
    EXPECT_EQ(sb.watermarks_kept(), 1u);
    sb.write_issued(sector, token_of(4), 4);
    sb.write_failed(sector, token_of(4), 4);
    EXPECT_TRUE(sb.check_read(sector, token_of(4)));
    sb.write_issued(sector, token_of(5), 5);
    sb.write_acknowledged(sector, token_of(5), 5);  // in order again: the token says the watermark
    EXPECT_EQ(sb.watermarks_kept(), 0u);
    EXPECT_FALSE(sb.check_read(sector, token_of(4)));
}

namespace {

// The scoreboard's rule kept literally: every token possibly on the media, per sector.
struct reference_scoreboard {
    std::map<int64_t, uint64_t> acknowledged;
    std::multimap<int64_t, uint64_t> in_flight;
    std::map<int64_t, std::set<uint64_t>> failed;
    void erase_in_flight(int64_t lbn, uint64_t token) {
        for (auto [b, e] = in_flight.equal_range(lbn); b != e; ++b)
            if (b->second == token) {
                in_flight.erase(b);
                return;
            }
    }
    bool accepts(int64_t lbn, uint64_t token) const {
        const auto a = acknowledged.find(lbn);
        if (token == (a == acknowledged.end() ? 0 : a->second)) return true;
        for (auto [b, e] = in_flight.equal_range(lbn); b != e; ++b)
            if (b->second == token) return true;
        const auto f = failed.find(lbn);
        return f != failed.end() && f->second.count(token);
    }
};

}  // namespace

// Random interleavings of writes of a few sectors (named, and some not), completed in any order,
// acknowledged or failed, and reads of every token ever made for a sector: the scoreboard
// accepts exactly what the literal rule accepts.
TEST(scoreboard_failed_writes, accepts_exactly_what_the_literal_rule_accepts) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        scoreboard sb;
        reference_scoreboard ref;
        struct write {
            int64_t lbn, request;
            uint64_t token;
        };
        std::vector<write> open;
        std::map<int64_t, std::vector<uint64_t>> made;  // every token made per sector
        int64_t next = 0;
        uint64_t expected_errors = 0;
        for (int step = 0; step < 4000; ++step) {
            const int what = int(rng() % 10);
            if (what < 3 || open.empty()) {
                const int64_t lbn = int64_t(rng() % 4);
                const int64_t request = next++;
                const bool named = rng() % 8 != 0;
                const uint64_t token = named ? make_token(lbn, uint64_t(request)) : (rng() | 1);
                sb.write_issued(lbn, token, named ? request : scoreboard::no_request);
                ref.in_flight.emplace(lbn, token);
                open.push_back({lbn, named ? request : scoreboard::no_request, token});
                made[lbn].push_back(token);
            } else if (what < 6) {
                const size_t i = size_t(rng() % open.size());
                const write w = open[i];
                open.erase(open.begin() + long(i));
                ref.erase_in_flight(w.lbn, w.token);
                if (rng() % 2) {
                    sb.write_acknowledged(w.lbn, w.token, w.request);
                    ref.acknowledged[w.lbn] = w.token;
                    ref.failed.erase(w.lbn);
                } else {
                    sb.write_failed(w.lbn, w.token, w.request);
                    ref.failed[w.lbn].insert(w.token);
                }
            } else {
                const int64_t lbn = int64_t(rng() % 4);
                const auto &tokens = made[lbn];
                uint64_t token = 0;
                const int pick = int(rng() % 8);
                if (pick == 0) token = rng();                                                 // garbage
                else if (pick == 1) token = make_token(lbn, uint64_t(next + int64_t(rng() % 5)));  // not issued
                else if (pick == 2 && !made[(lbn + 1) % 4].empty()) token = made[(lbn + 1) % 4].back();  // misplaced
                else if (!tokens.empty()) token = tokens[size_t(rng() % tokens.size())];
                const bool want = ref.accepts(lbn, token);
                expected_errors += !want;
                ASSERT_EQ(sb.check_read(lbn, token), want) << "seed " << seed << " step " << step;
            }
        }
        EXPECT_EQ(sb.integrity_errors(), expected_errors);
    }
}
