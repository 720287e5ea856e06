#include "rtl_models/xor/xor_logic.h"

#include <cmath>

namespace raidtlm::rtl_models {

void xor_tokens(const std::vector<const uint64_t *> &in, uint64_t sectors, uint64_t *out) {
    for (uint64_t s = 0; s < sectors; ++s) {
        uint64_t x = 0;
        for (const uint64_t *b : in) x ^= b[s];
        out[s] = x;
    }
}

uint64_t xor_config::cycles(uint64_t block_bytes, bool gf) const {
    return setup_cycles + uint64_t(std::ceil(double(block_bytes) / (gf ? gf_bytes_per_cycle : bytes_per_cycle) - 1e-9));
}

}  // namespace raidtlm::rtl_models
