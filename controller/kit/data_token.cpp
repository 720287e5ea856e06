#include "controller/kit/data_token.h"

namespace raidtlm::controller {

namespace {

constexpr uint64_t lbn_factor = 0x9e3779b97f4a7c15ULL;
constexpr uint64_t sequence_factor = 0xd1b54a32d192ed03ULL;
constexpr uint64_t offset = 0x632be59bd9b4e019ULL;
constexpr uint64_t mix_1 = 0xbf58476d1ce4e5b9ULL;
constexpr uint64_t mix_2 = 0x94d049bb133111ebULL;

// The inverse of an odd factor modulo 2^64 (Newton's iteration doubles the bits right each step).
constexpr uint64_t inverse_of(uint64_t odd) {
    uint64_t x = odd;  // right in the low 3 bits
    for (int i = 0; i < 5; ++i) x *= 2 - odd * x;
    return x;
}
static_assert(inverse_of(sequence_factor) * sequence_factor == 1);
static_assert(inverse_of(mix_1) * mix_1 == 1 && inverse_of(mix_2) * mix_2 == 1);

// The inverse of z ^= z >> shift: each pass recovers `shift` more high bits.
uint64_t unshift_xor(uint64_t y, int shift) {
    uint64_t z = y;
    for (int known = shift; known < 64; known += shift) z = y ^ (z >> shift);
    return z;
}

}  // namespace

uint64_t make_token(int64_t lbn, uint64_t write_sequence) {
    // splitmix64 finaliser over the pair.
    uint64_t z = uint64_t(lbn) * lbn_factor + write_sequence * sequence_factor + offset;
    z = (z ^ (z >> 30)) * mix_1;
    z = (z ^ (z >> 27)) * mix_2;
    z ^= z >> 31;
    return z == 0 ? 1 : z;
}

bool token_write_sequence(int64_t lbn, uint64_t token, uint64_t *write_sequence) {
    uint64_t z = unshift_xor(token, 31);
    z = unshift_xor(z * inverse_of(mix_2), 27);
    z = unshift_xor(z * inverse_of(mix_1), 30);
    const uint64_t sequence = (z - offset - uint64_t(lbn) * lbn_factor) * inverse_of(sequence_factor);
    if (make_token(lbn, sequence) != token) return false;
    *write_sequence = sequence;
    return true;
}

uint64_t parity_of(const std::vector<uint64_t> &data_tokens) {
    uint64_t p = 0;
    for (uint64_t t : data_tokens) p ^= t;
    return p;
}

}  // namespace raidtlm::controller
