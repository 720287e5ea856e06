#include "controller/data_token.h"

namespace raidtlm::controller {

uint64_t make_token(int64_t lbn, uint64_t write_sequence) {
    // splitmix64 finaliser over the pair.
    uint64_t z = uint64_t(lbn) * 0x9e3779b97f4a7c15ULL + write_sequence * 0xd1b54a32d192ed03ULL + 0x632be59bd9b4e019ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z == 0 ? 1 : z;
}

uint64_t parity_of(const std::vector<uint64_t> &data_tokens) {
    uint64_t p = 0;
    for (uint64_t t : data_tokens) p ^= t;
    return p;
}

}  // namespace raidtlm::controller
