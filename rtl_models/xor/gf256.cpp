#include "rtl_models/xor/gf256.h"

#include <array>
#include <stdexcept>

namespace raidtlm::rtl_models::gf256 {

namespace {

constexpr unsigned generator_polynomial = 0x11d;  // x^8 + x^4 + x^3 + x^2 + 1 (Anvin, section 2)

struct tables {
    // antilog[i] = g^i for i in [0, 510): doubled so log a + log b indexes it without a modulo.
    std::array<uint8_t, 510> antilog{};
    std::array<int, 256> log{};
    tables() {
        unsigned x = 1;
        for (int i = 0; i < 255; ++i) {
            antilog[size_t(i)] = uint8_t(x);
            antilog[size_t(i) + 255] = uint8_t(x);
            log[x] = i;
            x <<= 1;  // times g = {02}
            if (x & 0x100) x ^= generator_polynomial;
        }
        log[0] = -1;
    }
};

const tables &field() {
    static const tables t;
    return t;
}

}  // namespace

uint8_t mul(uint8_t a, uint8_t b) {
    if (a == 0 || b == 0) return 0;
    const tables &t = field();
    return t.antilog[size_t(t.log[a] + t.log[b])];
}

uint8_t inv(uint8_t a) {
    if (a == 0) throw std::domain_error("GF(2^8): 0 has no inverse");
    const tables &t = field();
    return t.antilog[size_t(255 - t.log[a])];
}

uint8_t div(uint8_t a, uint8_t b) {
    if (b == 0) throw std::domain_error("GF(2^8): division by 0");
    return mul(a, inv(b));
}

uint8_t pow_g(int e) {
    const int r = ((e % 255) + 255) % 255;
    return field().antilog[size_t(r)];
}

int log_g(uint8_t a) {
    if (a == 0) throw std::domain_error("GF(2^8): log of 0");
    return field().log[a];
}

uint64_t scale_token(uint8_t c, uint64_t token) {
    if (c == 1) return token;
    if (c == 0 || token == 0) return 0;
    const tables &t = field();
    const int lc = t.log[c];
    uint64_t out = 0;
    for (int lane = 0; lane < 8; ++lane) {
        const unsigned byte = unsigned(token >> (8 * lane)) & 0xff;
        if (byte) out |= uint64_t(t.antilog[size_t(lc + t.log[byte])]) << (8 * lane);
    }
    return out;
}

void multiply_accumulate_tokens(const std::vector<const uint64_t *> &in, const std::vector<uint8_t> &coefficients,
                                uint64_t sectors, uint64_t *out) {
    if (coefficients.size() != in.size())
        throw std::invalid_argument("GF multiply-accumulate: one coefficient per input expected");
    for (uint64_t s = 0; s < sectors; ++s) {
        uint64_t x = 0;
        for (size_t k = 0; k < in.size(); ++k) x ^= scale_token(coefficients[k], in[k][s]);
        out[s] = x;
    }
}

}  // namespace raidtlm::rtl_models::gf256
