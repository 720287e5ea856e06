#include <gtest/gtest.h>

#include "controller/firmware_api/member_superblock.h"

using namespace raidtlm::controller;

namespace {
member_superblock block(int index, int members, uint64_t events, uint64_t id = 77) {
    member_superblock sb;
    sb.array_id = id;
    sb.member_index = index;
    sb.members = members;
    sb.events = events;
    sb.states.assign(size_t(members), member_state::optimal);
    return sb;
}

member_read read_of(const member_superblock &sb) {
    const std::vector<uint64_t> words = encode_superblock(sb);
    return {true, decode_superblock(words.data(), words.size())};
}
}  // namespace

TEST(member_superblock, placed_as_md_v1_0_at_the_end_of_the_member) {
    // md's super_1_load: (size - 16) & ~7.
    EXPECT_EQ(superblock_lbn(17783240), 17783224u);
    EXPECT_EQ(superblock_lbn(17783247), 17783224u);
    EXPECT_EQ(superblock_lbn(17783248), 17783232u);
    for (uint64_t c : {1000u, 1001u, 1007u, 1008u}) {
        EXPECT_GE(c - superblock_lbn(c), superblock_end_reserve_sectors);
        EXPECT_LT(c - superblock_lbn(c), superblock_end_reserve_sectors + superblock_alignment_sectors);
        EXPECT_LE(superblock_lbn(c) + superblock_sectors(32), c);
    }
    EXPECT_LE(superblock_sectors(320), superblock_end_reserve_sectors);
}

TEST(member_superblock, round_trips_and_rejects_blank_or_damaged_words) {
    member_superblock sb = block(2, 40, 9);
    sb.states[33] = member_state::rebuilding;
    sb.states[1] = member_state::failed;
    sb.degraded = true;
    std::vector<uint64_t> w = encode_superblock(sb);
    ASSERT_EQ(w.size(), superblock_sectors(40));
    const auto back = decode_superblock(w.data(), w.size());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->array_id, 77u);
    EXPECT_EQ(back->member_index, 2);
    EXPECT_EQ(back->members, 40);
    EXPECT_EQ(back->events, 9u);
    EXPECT_TRUE(back->degraded);
    EXPECT_EQ(back->states, sb.states);
    const std::vector<uint64_t> blank(w.size(), 0);
    EXPECT_FALSE(decode_superblock(blank.data(), blank.size()));
    for (size_t i = 0; i < w.size(); ++i) {
        std::vector<uint64_t> bad = w;
        bad[i] ^= 0x10;
        EXPECT_FALSE(decode_superblock(bad.data(), bad.size())) << "word " << i;
    }
}

TEST(member_superblock, a_blank_drive_an_older_member_and_another_arrays_drive_are_not_served) {
    std::vector<member_read> r = {read_of(block(0, 5, 12)), {true, std::nullopt}, read_of(block(2, 5, 10)),
                                  read_of(block(3, 5, 12, 99)), {false, std::nullopt}};
    const identity_verdict v = judge_members(77, r);
    EXPECT_EQ(v.events, 12u);
    EXPECT_EQ(v.members, (std::vector<member_verdict>{member_verdict::current, member_verdict::missing,
                                                      member_verdict::stale, member_verdict::foreign,
                                                      member_verdict::absent}));
    EXPECT_EQ(v.not_current(), (std::vector<int>{1, 2, 3, 4}));
}

TEST(member_superblock, one_event_behind_is_an_update_the_power_cut_and_a_member_recorded_failed_is_stale) {
    member_superblock fresh = block(0, 3, 8);
    fresh.states[2] = member_state::failed;
    std::vector<member_read> r = {read_of(fresh), read_of(block(1, 3, 7)), read_of(block(2, 3, 7))};
    const identity_verdict v = judge_members(77, r);
    EXPECT_EQ(v.members, (std::vector<member_verdict>{member_verdict::current, member_verdict::current,
                                                      member_verdict::stale}));
    // A member in another member's slot is not this member.
    std::vector<member_read> swapped = {read_of(block(1, 3, 8)), read_of(block(0, 3, 8)), read_of(block(2, 3, 8))};
    EXPECT_EQ(judge_members(77, swapped).not_current(), (std::vector<int>{0, 1}));
    // No superblock of this array anywhere: nothing is served.
    std::vector<member_read> none = {{true, std::nullopt}, {true, std::nullopt}};
    EXPECT_EQ(judge_members(77, none).not_current(), (std::vector<int>{0, 1}));
}
