// RAID 6's two checks over a stripe of n data units D_0 .. D_{n-1}, in GF(2^8) (rtl_models/xor/gf256.h),
// after H. Peter Anvin, "The mathematics of RAID-6" (2004, rev. 2011), sections 1-4:
//
//   P = D_0 + D_1 + ... + D_{n-1}                 (plain XOR, RAID 5's parity)
//   Q = g^0 D_0 + g^1 D_1 + ... + g^{n-1} D_{n-1} (g = {02}; the Reed-Solomon syndrome)
//
// and the triple-check array's third (controller.raid6_checks: 3), the next row of the same
// Vandermonde code (as Linux md's and ZFS raidz3's third syndrome):
//
//   R = g^0 D_0 + g^2 D_1 + ... + g^{2(n-1)} D_{n-1}
//
// Any `checks` of the n + checks members can be lost and rebuilt from the others. Every rebuilt
// member is a linear combination of surviving members with constant coefficients, so recovery is
// one multiply-accumulate command of the GF engine per rebuilt member (coefficient 0: not read).
// A stripe's members are numbered 0 .. n-1 (data units), n (P), n + 1 (Q) and n + 2 (R).
//
// Tokens: a 64-bit token is 8 byte lanes (gf256.h), so all of this holds token by token.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::controller::pq {

inline int p_member(int data_units) { return data_units; }
inline int q_member(int data_units) { return data_units + 1; }
// Check k's member (0 P, 1 Q, 2 R).
inline int check_member(int data_units, int k) { return data_units + k; }
// The most checks a stripe may have here (P, Q, R).
constexpr int max_checks = 3;
// Q's coefficient of data unit j: g^j (so a read-modify-write's Q delta is g^j (old + new)).
uint8_t q_coefficient(int j);
// Check k's coefficient of data unit j in a Vandermonde code with checks k = 0 (P), 1 (Q), 2 (R,
// the third check of a triple-parity array): (g^k)^j = g^(k j). Any three of the n + 3 members of
// such a stripe are recoverable for n <= 255 (every square submatrix of the rows 1, g^j, g^2j
// over distinct j is nonsingular: Vandermonde, or g^a g^b (g^a + g^b), or (g^a + g^b)^2).
uint8_t check_coefficient(int k, int j);

// The coefficients, one per member (n + 2 of them), with which member `target` equals the sum of
// coefficient x member over the members; lost members (and members not needed) get 0. `lost_a`
// and `lost_b` are the members that cannot be read (lost_b -1: only one); `target` is one of
// them. One lost data unit is rebuilt from P (XOR only), never from Q. Throws
// std::invalid_argument for members out of range or a target that is not lost.
std::vector<uint8_t> recovery_coefficients(int data_units, int lost_a, int lost_b, int target);

// The same for a stripe of n data units and `checks` (1..3) check units: n + checks coefficients
// (a name of its own: a braced one-member `lost` would otherwise bind to lost_a above);
// `lost`: the members that cannot be read (distinct, at most `checks`), `target` one of them.
// Lost data units are solved from the first readable checks in the order P, Q, R, as many as
// data units are lost (so one lost data unit with P readable comes from P alone, an XOR, and
// P+Q's choices are kept), by inverting that small Vandermonde system over GF(2^8); a lost check
// is summed from the data, the lost data units by their recovery. checks == 2: the two-member
// form above (Anvin's closed forms, which every P+Q result was computed with; the solver gives the
// same coefficients, tested). Throws std::invalid_argument for a lost set it cannot rebuild.
std::vector<uint8_t> erasure_coefficients(int data_units, int checks, const std::vector<int> &lost, int target);
// The solver alone (any checks 1..3): erasure_coefficients without the two-check closed forms.
std::vector<uint8_t> solved_erasure_coefficients(int data_units, int checks, const std::vector<int> &lost, int target);

// True when every coefficient is 0 or 1: an XOR command does it (the P engine's mode).
bool xor_only(const std::vector<uint8_t> &coefficients);

// P and Q of one row of data tokens.
uint64_t p_of(const std::vector<uint64_t> &data);
uint64_t q_of(const std::vector<uint64_t> &data);
// Check k (0 P, 1 Q, 2 R) of one row of data tokens.
uint64_t check_of(int k, const std::vector<uint64_t> &data);
// Member `target` of a row from the others' tokens (`members`: n + 2 tokens, lost ones ignored).
uint64_t recover(const std::vector<uint64_t> &members, int lost_a, int lost_b, int target);
// The same with `checks` check members (`members`: n + checks tokens).
uint64_t recover_erasures(const std::vector<uint64_t> &members, int checks, const std::vector<int> &lost, int target);

}  // namespace raidtlm::controller::pq
