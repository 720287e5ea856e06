// Arithmetic in GF(2^8), the field RAID 6's Q syndrome lives in, as plain C++. The field is built
// on the generator polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) with generator g = {02}, exactly
// as Linux md and H. Peter Anvin, "The mathematics of RAID-6" (2004, rev. 2011), section 2:
// addition is XOR, multiplication goes through log/antilog tables of g.
//
// Data are one 64-bit token per 512-byte sector (DESIGN.md). For P and Q to be exact over
// tokens, a token is read as 8 independent bytes (byte lanes, least significant first) and a
// field constant multiplies every lane; XOR of tokens is lane-wise addition. So any identity of
// the field (Q = sum g^i D_i, two-erasure recovery) holds token by token, and the scoreboard checks
// reconstruction exactly.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::rtl_models::gf256 {

// a * b in the field.
uint8_t mul(uint8_t a, uint8_t b);
// a / b; b must not be 0 (throws std::domain_error).
uint8_t div(uint8_t a, uint8_t b);
// The multiplicative inverse of a != 0 (throws std::domain_error for 0).
uint8_t inv(uint8_t a);
// g^e for any integer e (negative: the inverse power); g = {02} has order 255.
uint8_t pow_g(int e);
// log_g(a) in 0..254 for a != 0 (throws std::domain_error for 0).
int log_g(uint8_t a);

// Every byte lane of `token` multiplied by c.
uint64_t scale_token(uint8_t c, uint64_t token);

// The engine's multiply-accumulate: out[s] = sum over k of coefficients[k] * in[k][s] (lane-wise),
// s in [0, sectors). All coefficients 1 is plain XOR. `out` may be one of the inputs.
void multiply_accumulate_tokens(const std::vector<const uint64_t *> &in, const std::vector<uint8_t> &coefficients,
                                uint64_t sectors, uint64_t *out);

}  // namespace raidtlm::rtl_models::gf256
