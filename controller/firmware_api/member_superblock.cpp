#include "controller/firmware_api/member_superblock.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
constexpr size_t fixed_words = 5;  // magic, array id, index | count, events, flags
constexpr int states_per_word = 32;

size_t state_words(int members) { return size_t((members + states_per_word - 1) / states_per_word); }

// The check word: a 64-bit FNV-1a over the words before it, never 0 (a blank sector is 0).
uint64_t check_word(const uint64_t *words, size_t count) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < count; ++i)
        for (int b = 0; b < 8; ++b) {
            h ^= (words[i] >> (8 * b)) & 0xFF;
            h *= 0x100000001b3ull;
        }
    return h == 0 ? 1 : h;
}
}  // namespace

uint64_t superblock_lbn(uint64_t capacity_sectors) {
    if (capacity_sectors < superblock_end_reserve_sectors) return 0;
    return (capacity_sectors - superblock_end_reserve_sectors) & ~(superblock_alignment_sectors - 1);
}

uint32_t superblock_sectors(int members) { return uint32_t(fixed_words + state_words(members) + 1); }

uint64_t array_identity(int layout_code, int members, uint64_t unit_sectors, uint64_t member_data_sectors) {
    const uint64_t words[] = {superblock_magic, uint64_t(layout_code), uint64_t(members), unit_sectors,
                              member_data_sectors};
    return check_word(words, sizeof words / sizeof words[0]);
}

std::vector<uint64_t> encode_superblock(const member_superblock &sb) {
    std::vector<uint64_t> w;
    w.push_back(superblock_magic);
    w.push_back(sb.array_id);
    w.push_back(uint64_t(uint32_t(sb.member_index)) | uint64_t(uint32_t(sb.members)) << 32);
    w.push_back(sb.events);
    w.push_back(sb.degraded ? 1 : 0);
    for (size_t k = 0; k < state_words(sb.members); ++k) {
        uint64_t word = 0;
        for (int i = 0; i < states_per_word; ++i) {
            const size_t m = k * states_per_word + size_t(i);
            if (m < sb.states.size()) word |= uint64_t(sb.states[m]) << (2 * i);
        }
        w.push_back(word);
    }
    w.push_back(check_word(w.data(), w.size()));
    return w;
}

std::optional<member_superblock> decode_superblock(const uint64_t *words, size_t count) {
    if (count < fixed_words + 1 || words[0] != superblock_magic) return std::nullopt;
    member_superblock sb;
    sb.array_id = words[1];
    sb.member_index = int(uint32_t(words[2]));
    sb.members = int(uint32_t(words[2] >> 32));
    sb.events = words[3];
    sb.degraded = (words[4] & 1) != 0;
    if (sb.members <= 0 || sb.member_index < 0 || sb.member_index >= sb.members) return std::nullopt;
    const size_t n = fixed_words + state_words(sb.members);
    if (count < n + 1 || words[n] != check_word(words, n)) return std::nullopt;
    for (int m = 0; m < sb.members; ++m) {
        const uint64_t code = (words[fixed_words + size_t(m / states_per_word)] >> (2 * (m % states_per_word))) & 3;
        if (code > uint64_t(member_state::rebuilding)) return std::nullopt;
        sb.states.push_back(member_state(code));
    }
    return sb;
}

const char *to_string(member_verdict v) {
    switch (v) {
    case member_verdict::current: return "current";
    case member_verdict::absent: return "absent";
    case member_verdict::missing: return "missing";
    case member_verdict::foreign: return "foreign";
    case member_verdict::stale: return "stale";
    }
    return "?";
}

std::vector<int> identity_verdict::not_current() const {
    std::vector<int> out;
    for (size_t d = 0; d < members.size(); ++d)
        if (members[d] != member_verdict::current) out.push_back(int(d));
    return out;
}

identity_verdict judge_members(uint64_t array_id, const std::vector<member_read> &reads) {
    const int n = int(reads.size());
    auto ours = [&](int d) {
        const auto &sb = reads[size_t(d)].superblock;
        return sb && sb->array_id == array_id && sb->member_index == d && sb->members == n;
    };
    identity_verdict v;
    int freshest = -1;
    for (int d = 0; d < n; ++d)
        if (ours(d) && (freshest < 0 || reads[size_t(d)].superblock->events > v.events)) {
            freshest = d;
            v.events = reads[size_t(d)].superblock->events;
        }
    if (freshest >= 0) v.recorded_states = reads[size_t(freshest)].superblock->states;
    for (int d = 0; d < n; ++d) {
        const member_read &r = reads[size_t(d)];
        member_verdict m;
        if (!r.answered) m = member_verdict::absent;
        else if (!r.superblock) m = member_verdict::missing;
        else if (!ours(d)) m = member_verdict::foreign;
        else {
            const uint64_t events = r.superblock->events;
            const bool recorded_failed = v.recorded_states[size_t(d)] == member_state::failed;
            const bool fresh = events == v.events || (events + 1 == v.events && !recorded_failed);
            m = fresh && !recorded_failed ? member_verdict::current : member_verdict::stale;
        }
        v.members.push_back(m);
    }
    return v;
}

}  // namespace raidtlm::controller
