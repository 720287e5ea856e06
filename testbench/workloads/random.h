// A small, fully specified random source, so a seed gives the same workload on every platform
// and standard library (std::*_distribution are implementation-defined; these are not).
// xoshiro256** seeded through splitmix64.
#pragma once

#include <cmath>
#include <cstdint>

namespace raidtlm::testbench {

// Seeds of a workload's random streams. The first three (addresses, directions, arrivals) are
// seed * 3 + 0, 1, 2; streams added later (sizes, sequential choice, think times) take k = 0, 1,
// 2 here, far from those, so adding them moved no existing sequence.
constexpr uint64_t extra_stream_seed(uint64_t seed, int k) { return seed * 3 + (1ULL << 62) + static_cast<uint64_t>(k); }

class random_source {
public:
    explicit random_source(uint64_t seed) {
        uint64_t x = seed;
        for (auto &s : m_state) s = splitmix64(x);
    }

    uint64_t next_u64() {
        const uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

    // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift with rejection, unbiased).
    uint64_t below(uint64_t n) {
        __uint128_t m = static_cast<__uint128_t>(next_u64()) * n;
        uint64_t low = static_cast<uint64_t>(m);
        if (low < n) {
            const uint64_t threshold = (0 - n) % n;
            while (low < threshold) {
                m = static_cast<__uint128_t>(next_u64()) * n;
                low = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

    bool bernoulli(double p) { return uniform() < p; }

    // Exponential with the given mean.
    double exponential(double mean) { return -mean * std::log1p(-uniform()); }

    // Standard normal (Box-Muller, both values used).
    double normal() {
        if (m_has_spare) {
            m_has_spare = false;
            return m_spare;
        }
        double u1 = 0;
        while (u1 <= 0) u1 = uniform();
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 6.283185307179586476925 * u2;
        m_spare = r * std::sin(a);
        m_has_spare = true;
        return r * std::cos(a);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix64(uint64_t &x) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    uint64_t m_state[4];
    double m_spare = 0;
    bool m_has_spare = false;
};

}  // namespace raidtlm::testbench
