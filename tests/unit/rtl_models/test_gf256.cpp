// GF(2^8) over 0x11d (Anvin, "The mathematics of RAID-6") and P/Q recovery over tokens.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

#include "controller/layouts/pq_parity.h"
#include "rtl_models/xor/gf256.h"

namespace gf = raidtlm::rtl_models::gf256;
namespace pq = raidtlm::controller::pq;

namespace {

// Carry-less multiplication reduced by 0x11d, bit by bit: an independent reference.
uint8_t slow_mul(uint8_t a, uint8_t b) {
    unsigned r = 0, x = a;
    for (int bit = 0; bit < 8; ++bit) {
        if (b & (1u << bit)) r ^= x;
        x <<= 1;
        if (x & 0x100) x ^= 0x11d;
    }
    return uint8_t(r);
}

}  // namespace

TEST(gf256, multiplication_matches_carry_less_reduction_for_every_pair) {
    for (int a = 0; a < 256; ++a)
        for (int b = 0; b < 256; ++b) ASSERT_EQ(gf::mul(uint8_t(a), uint8_t(b)), slow_mul(uint8_t(a), uint8_t(b))) << a << " " << b;
}

TEST(gf256, generator_two_has_order_255_and_known_powers) {
    std::set<int> seen;
    for (int e = 0; e < 255; ++e) seen.insert(gf::pow_g(e));
    EXPECT_EQ(seen.size(), 255u);
    EXPECT_EQ(seen.count(0), 0u);
    EXPECT_EQ(gf::pow_g(8), 0x1d);  // x^8 = x^4 + x^3 + x^2 + 1
    EXPECT_EQ(gf::pow_g(255), 1);
    EXPECT_EQ(gf::pow_g(-1), gf::inv(2));
    EXPECT_EQ(gf::inv(2), 0x8e);  // Anvin's table: {02}^-1 = {8e}
}

TEST(gf256, inverse_division_and_log_are_consistent) {
    for (int a = 1; a < 256; ++a) {
        EXPECT_EQ(gf::mul(uint8_t(a), gf::inv(uint8_t(a))), 1);
        EXPECT_EQ(gf::pow_g(gf::log_g(uint8_t(a))), a);
        for (int b = 1; b < 256; b += 37) EXPECT_EQ(gf::mul(gf::div(uint8_t(a), uint8_t(b)), uint8_t(b)), a);
    }
    EXPECT_THROW(gf::inv(0), std::domain_error);
    EXPECT_THROW(gf::div(3, 0), std::domain_error);
    EXPECT_THROW(gf::log_g(0), std::domain_error);
}

TEST(gf256, token_scaling_multiplies_every_byte_lane) {
    const uint64_t t = 0x0123456789abcdefULL;
    const uint64_t s = gf::scale_token(0x53, t);
    for (int lane = 0; lane < 8; ++lane)
        EXPECT_EQ(uint8_t(s >> (8 * lane)), slow_mul(0x53, uint8_t(t >> (8 * lane))));
    EXPECT_EQ(gf::scale_token(1, t), t);
    EXPECT_EQ(gf::scale_token(0, t), 0u);
    // Distributive over XOR, lane-wise: scaling commutes with parity.
    const uint64_t u = 0xfedcba9876543210ULL;
    EXPECT_EQ(gf::scale_token(0x9a, t ^ u), gf::scale_token(0x9a, t) ^ gf::scale_token(0x9a, u));
}

TEST(gf256, multiply_accumulate_with_unit_coefficients_is_xor) {
    const uint64_t a[2] = {0x11, 0x2200}, b[2] = {0x33, 0x4400};
    uint64_t out[2];
    gf::multiply_accumulate_tokens({a, b}, {1, 1}, 2, out);
    EXPECT_EQ(out[0], 0x11u ^ 0x33u);
    EXPECT_EQ(out[1], 0x2200u ^ 0x4400u);
    gf::multiply_accumulate_tokens({a, b}, {2, 3}, 2, out);
    EXPECT_EQ(out[0], gf::scale_token(2, 0x11) ^ gf::scale_token(3, 0x33));
    EXPECT_THROW(gf::multiply_accumulate_tokens({a, b}, {1}, 2, out), std::invalid_argument);
}

TEST(pq_parity, q_of_a_single_unit_row_is_the_unit_and_p_is_xor) {
    EXPECT_EQ(pq::q_of({0xabcdefULL}), 0xabcdefULL);
    EXPECT_EQ(pq::p_of({1, 2, 4}), 7u);
    EXPECT_EQ(pq::q_of({0, 1}), 2u);  // g^1 * {01}
}

TEST(pq_parity, two_data_units_use_anvins_closed_form) {
    // D_x = A (P + Pxy) + B (Q + Qxy), A = g^(y-x)/(g^(y-x)+1), B = g^-x/(g^(y-x)+1).
    const int n = 6, x = 1, y = 4;
    const auto c = pq::recovery_coefficients(n, x, y, x);
    const uint8_t g_yx = gf::pow_g(y - x);
    EXPECT_EQ(c[size_t(pq::p_member(n))], gf::div(g_yx, uint8_t(g_yx ^ 1)));
    EXPECT_EQ(c[size_t(pq::q_member(n))], gf::div(gf::pow_g(-x), uint8_t(g_yx ^ 1)));
    EXPECT_EQ(c[size_t(x)], 0);
    EXPECT_EQ(c[size_t(y)], 0);
}

TEST(pq_parity, one_lost_data_unit_is_rebuilt_by_xor_from_p) {
    const auto c = pq::recovery_coefficients(5, 2, -1, 2);
    EXPECT_TRUE(pq::xor_only(c));
    EXPECT_EQ(c[size_t(pq::q_member(5))], 0);
    EXPECT_EQ(c[size_t(pq::p_member(5))], 1);
    // ... and so is one lost data unit beside a lost Q.
    EXPECT_EQ(pq::recovery_coefficients(5, 2, pq::q_member(5), 2), c);
    // With P lost too it needs Q: not XOR.
    EXPECT_FALSE(pq::xor_only(pq::recovery_coefficients(5, 2, pq::p_member(5), 2)));
}

TEST(pq_parity, bad_arguments_are_refused) {
    EXPECT_THROW(pq::recovery_coefficients(4, 1, 2, 3), std::invalid_argument);   // target not lost
    EXPECT_THROW(pq::recovery_coefficients(4, 1, 1, 1), std::invalid_argument);   // same member twice
    EXPECT_THROW(pq::recovery_coefficients(4, 6, -1, 6), std::invalid_argument);  // out of range
    EXPECT_THROW(pq::recovery_coefficients(0, 0, -1, 0), std::invalid_argument);
}

// Property: random token rows, every stripe width 1 .. 20, every pair (and every single) of lost
// members, each lost member rebuilt from the others exactly.
TEST(pq_parity, every_erasure_pair_recovers_random_tokens) {
    std::mt19937_64 rng(20261123);
    for (int n = 1; n <= 20; ++n)
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<uint64_t> data(static_cast<size_t>(n));
            for (auto &d : data) d = rng();
            std::vector<uint64_t> members = data;
            members.push_back(pq::p_of(data));
            members.push_back(pq::q_of(data));
            const int m = n + 2;
            for (int a = 0; a < m; ++a)
                for (int b = -1; b < m; ++b) {
                    if (b == a) continue;
                    std::vector<uint64_t> damaged = members;
                    damaged[size_t(a)] = rng();  // what the lost disks held must not matter
                    if (b >= 0) damaged[size_t(b)] = rng();
                    ASSERT_EQ(pq::recover(damaged, a, b, a), members[size_t(a)]) << n << " " << a << " " << b;
                    if (b >= 0) {
                        ASSERT_EQ(pq::recover(damaged, a, b, b), members[size_t(b)]) << n << " " << a << " " << b;
                    }
                }
        }
}

// The read-modify-write identity the firmware relies on: Q' = Q + g^j (old + new).
TEST(pq_parity, q_delta_updates_q_like_a_recomputation) {
    std::mt19937_64 rng(7);
    std::vector<uint64_t> data(7);
    for (auto &d : data) d = rng();
    const uint64_t q = pq::q_of(data);
    const uint64_t fresh = rng();
    const int j = 5;
    const uint64_t updated = q ^ gf::scale_token(pq::q_coefficient(j), data[size_t(j)] ^ fresh);
    data[size_t(j)] = fresh;
    EXPECT_EQ(updated, pq::q_of(data));
}

// The triple-parity code's coefficients: P's are 1, Q's g^j, R's (g^j)^2; any 3x3 submatrix of
// the check rows over distinct data columns is nonsingular (the determinant is nonzero).
TEST(pq_parity, check_coefficients_form_an_invertible_vandermonde_code) {
    for (int j = 0; j < 255; ++j) {
        ASSERT_EQ(pq::check_coefficient(0, j), 1);
        ASSERT_EQ(pq::check_coefficient(1, j), pq::q_coefficient(j));
        ASSERT_EQ(pq::check_coefficient(2, j), gf::mul(pq::q_coefficient(j), pq::q_coefficient(j)));
    }
    auto c = [](int k, int j) { return pq::check_coefficient(k, j); };
    for (int a = 0; a < 24; ++a)
        for (int b = a + 1; b < 24; ++b)
            for (int d = b + 1; d < 24; ++d) {
                // Determinant over GF(2^8) by cofactor expansion along the first row (P's, all 1).
                const uint8_t det = uint8_t(gf::mul(c(1, b), c(2, d)) ^ gf::mul(c(1, d), c(2, b)) ^
                                            gf::mul(c(1, a), c(2, d)) ^ gf::mul(c(1, d), c(2, a)) ^
                                            gf::mul(c(1, a), c(2, b)) ^ gf::mul(c(1, b), c(2, a)));
                ASSERT_NE(det, 0) << a << " " << b << " " << d;
            }
}

namespace {

// Every set of at most `size` distinct members of 0 .. members-1 (ascending).
std::vector<std::vector<int>> erasure_sets(int members, int size) {
    std::vector<std::vector<int>> out;
    std::vector<int> set;
    auto grow = [&](auto &&self, int from) -> void {
        if (!set.empty()) out.push_back(set);
        if (int(set.size()) == size) return;
        for (int m = from; m < members; ++m) {
            set.push_back(m);
            self(self, m + 1);
            set.pop_back();
        }
    };
    grow(grow, 0);
    return out;
}

}  // namespace

// Property: random token rows with P, Q and R, stripe widths 1 .. 12 and 20, 50, 252; every
// erasure set of size 1, 2 and 3 (at 252 a random sample of the triples), each lost member rebuilt
// exactly from the others with the solver's coefficients, whatever the lost disks held.
TEST(pq_parity, every_erasure_set_of_up_to_three_recovers_random_tokens_with_p_q_and_r) {
    std::mt19937_64 rng(20261127);
    for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 50, 252}) {
        std::vector<uint64_t> data(static_cast<size_t>(n));
        for (auto &d : data) d = rng();
        std::vector<uint64_t> members = data;
        for (int k = 0; k < 3; ++k) members.push_back(pq::check_of(k, data));
        ASSERT_EQ(members[size_t(pq::p_member(n))], pq::p_of(data));
        ASSERT_EQ(members[size_t(pq::q_member(n))], pq::q_of(data));
        std::vector<std::vector<int>> sets = erasure_sets(n + 3, n > 50 ? 2 : 3);
        if (n > 50)  // 2.7 million triples at 252: a random 3000 of them
            for (int k = 0; k < 3000; ++k) {
                std::set<int> t;
                while (t.size() < 3) t.insert(int(rng() % uint64_t(n + 3)));
                sets.emplace_back(t.begin(), t.end());
            }
        size_t tried = 0;
        for (const std::vector<int> &lost : sets) {
            std::vector<uint64_t> damaged = members;
            for (int m : lost) damaged[size_t(m)] = rng();
            for (int target : lost)
                ASSERT_EQ(pq::recover_erasures(damaged, 3, lost, target), members[size_t(target)])
                    << "n " << n << " lost " << lost.size() << " target " << target;
            ++tried;
        }
        EXPECT_GT(tried, size_t(n));
    }
}

// The solver at two checks gives exactly the closed forms' coefficients (so P+Q keeps them) for
// every erasure set; and one lost data unit comes from P alone (XOR) whenever P is readable, at
// two or three checks, from Q when P is lost, from R when P and Q are.
TEST(pq_parity, the_solver_agrees_with_the_closed_forms_and_prefers_p) {
    for (int n = 1; n <= 16; ++n)
        for (const std::vector<int> &lost : erasure_sets(n + 2, 2))
            for (int target : lost)
                ASSERT_EQ(pq::solved_erasure_coefficients(n, 2, lost, target),
                          pq::recovery_coefficients(n, lost[0], lost.size() > 1 ? lost[1] : -1, target))
                    << n << " " << lost.size() << " " << target;
    const int n = 6, p = pq::p_member(n), q = pq::q_member(n), r = pq::check_member(n, 2);
    EXPECT_EQ(r, n + 2);
    for (const std::vector<int> &lost : {std::vector<int>{2}, {2, q}, {2, r}, {2, q, r}}) {
        const std::vector<uint8_t> c = pq::erasure_coefficients(n, 3, lost, 2);
        EXPECT_TRUE(pq::xor_only(c));
        EXPECT_EQ(c[size_t(p)], 1);
        EXPECT_EQ(c[size_t(q)], 0);
        EXPECT_EQ(c[size_t(r)], 0);
    }
    const std::vector<uint8_t> from_q = pq::erasure_coefficients(n, 3, {2, p}, 2);
    EXPECT_NE(from_q[size_t(q)], 0);
    EXPECT_EQ(from_q[size_t(r)], 0);
    const std::vector<uint8_t> from_r = pq::erasure_coefficients(n, 3, {2, p, q}, 2);
    EXPECT_NE(from_r[size_t(r)], 0);
    // A lost check with nothing else lost: from the data alone, R's coefficients g^(2j).
    const std::vector<uint8_t> r_only = pq::erasure_coefficients(n, 3, {r}, r);
    for (int j = 0; j < n; ++j) EXPECT_EQ(r_only[size_t(j)], pq::check_coefficient(2, j));
    EXPECT_EQ(r_only[size_t(p)], 0);
}

TEST(pq_parity, erasure_sets_the_code_cannot_rebuild_are_refused) {
    EXPECT_THROW(pq::erasure_coefficients(4, 3, {0, 1, 2, 3}, 0), std::invalid_argument);  // four lost
    EXPECT_THROW(pq::erasure_coefficients(4, 2, {0, 1, 2}, 0), std::invalid_argument);     // three of P+Q
    EXPECT_THROW(pq::erasure_coefficients(4, 3, {0, 0}, 0), std::invalid_argument);        // twice
    EXPECT_THROW(pq::erasure_coefficients(4, 3, {1, 7}, 7), std::invalid_argument);        // out of range
    EXPECT_THROW(pq::erasure_coefficients(4, 3, {1, 2}, 3), std::invalid_argument);        // target not lost
    EXPECT_THROW(pq::erasure_coefficients(4, 4, {1}, 1), std::invalid_argument);           // four checks
    EXPECT_THROW(pq::erasure_coefficients(4, 3, {}, 1), std::invalid_argument);
}
