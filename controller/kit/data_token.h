// Data tokens: every 512-byte sector carries one 64-bit token instead of its bytes
// (DESIGN.md), and parity is the XOR of the tokens of a parity row, so every write path,
// degraded read and reconstruction is checked exactly. A sector never written holds token 0,
// as the drive model returns it, which keeps an all-zero stripe's parity consistent.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::controller {

// A token no other (lbn, write) pair is likely to produce; never 0.
uint64_t make_token(int64_t lbn, uint64_t write_sequence);

// The write sequence whose token for sector lbn is `token`: make_token is a bijection of the
// sequence for a given sector (a multiply-xorshift mix, each step invertible), so a token read
// back names the write that produced it without the token being stored (the scoreboard's failed
// writes, scoreboard.h). False when no sequence gives it (only token 0, and 1 in rare cases).
bool token_write_sequence(int64_t lbn, uint64_t token, uint64_t *write_sequence);

// Parity of a row: the XOR of its data tokens.
uint64_t parity_of(const std::vector<uint64_t> &data_tokens);

// New parity by read-modify-write: old parity ^ old data ^ new data.
inline uint64_t read_modify_write_parity(uint64_t old_parity, uint64_t old_data, uint64_t new_data) {
    return old_parity ^ old_data ^ new_data;
}

// A lost member of a row (data or parity): the XOR of all the surviving members.
inline uint64_t reconstruct_token(const std::vector<uint64_t> &survivors) { return parity_of(survivors); }

}  // namespace raidtlm::controller
