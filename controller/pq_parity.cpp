#include "controller/pq_parity.h"

#include <stdexcept>
#include <string>

#include "rtl_models/gf256.h"

namespace raidtlm::controller::pq {

namespace gf = rtl_models::gf256;

uint8_t q_coefficient(int j) { return gf::pow_g(j); }

uint8_t check_coefficient(int k, int j) { return gf::pow_g(k * j); }

namespace {

// Member `target` of a stripe with one member lost (`target` itself): every other member it
// depends on, from P for a data unit, from the data for P and Q.
void one_lost(int n, int target, std::vector<uint8_t> &c) {
    const int p = p_member(n), q = q_member(n);
    if (target == q) {
        for (int i = 0; i < n; ++i) c[size_t(i)] = q_coefficient(i);
        return;
    }
    for (int i = 0; i < n; ++i) c[size_t(i)] = i == target ? 0 : 1;
    if (target != p) c[size_t(p)] = 1;
}

}  // namespace

std::vector<uint8_t> recovery_coefficients(int n, int lost_a, int lost_b, int target) {
    const int members = n + 2;
    auto in_range = [&](int m) { return m >= 0 && m < members; };
    if (n < 1 || !in_range(lost_a) || (lost_b != -1 && !in_range(lost_b)) || lost_a == lost_b ||
        (target != lost_a && target != lost_b))
        throw std::invalid_argument("pq::recovery_coefficients: " + std::to_string(n) + " data units, lost " +
                                    std::to_string(lost_a) + " and " + std::to_string(lost_b) + ", target " +
                                    std::to_string(target));
    std::vector<uint8_t> c(size_t(members), 0);
    const int p = p_member(n), q = q_member(n);
    const int other = target == lost_a ? lost_b : lost_a;
    const bool target_is_check = target == p || target == q;
    const bool other_is_check = other == p || other == q;
    // Nothing else lost, or only a check the target is not rebuilt from: the data and P for a
    // data unit, the data alone for P or Q.
    if (other == -1 || (target_is_check && other_is_check) || (!target_is_check && other == q)) {
        one_lost(n, target, c);
        return c;
    }
    if (target == q) {
        // Q with data unit x lost too: D_x = P + sum_{i != x} D_i, so
        // Q = g^x P + sum_{i != x} (g^i + g^x) D_i.
        const int x = other;
        const uint8_t gx = q_coefficient(x);
        c[size_t(p)] = gx;
        for (int i = 0; i < n; ++i)
            if (i != x) c[size_t(i)] = uint8_t(q_coefficient(i) ^ gx);
        return c;
    }
    if (other == p || target == p) {
        // Data unit x and P lost: D_x = g^-x (Q + sum_{i != x} g^i D_i) (Anvin, section 4);
        // P = D_x + sum_{i != x} D_i.
        const int x = target == p ? other : target;
        const uint8_t inv_gx = gf::pow_g(-x);
        const uint8_t add = target == p ? 1 : 0;
        c[size_t(q)] = inv_gx;
        for (int i = 0; i < n; ++i)
            if (i != x) c[size_t(i)] = uint8_t(gf::mul(q_coefficient(i), inv_gx) ^ add);
        return c;
    }
    // Two data units x (the target) and y lost (Anvin, section 4):
    //   D_x = A (P + P_xy) + B (Q + Q_xy), A = g^(y-x) / (g^(y-x) + 1), B = g^-x / (g^(y-x) + 1)
    // where P_xy and Q_xy are P and Q over the surviving data units.
    const int x = target, y = other;
    const uint8_t g_yx = gf::pow_g(y - x);
    const uint8_t denominator = uint8_t(g_yx ^ 1);
    const uint8_t a = gf::div(g_yx, denominator);
    const uint8_t b = gf::div(gf::pow_g(-x), denominator);
    c[size_t(p)] = a;
    c[size_t(q)] = b;
    for (int i = 0; i < n; ++i)
        if (i != x && i != y) c[size_t(i)] = uint8_t(a ^ gf::mul(b, q_coefficient(i)));
    return c;
}

bool xor_only(const std::vector<uint8_t> &coefficients) {
    for (uint8_t c : coefficients)
        if (c > 1) return false;
    return true;
}

uint64_t p_of(const std::vector<uint64_t> &data) {
    uint64_t p = 0;
    for (uint64_t d : data) p ^= d;
    return p;
}

uint64_t q_of(const std::vector<uint64_t> &data) {
    uint64_t q = 0;
    for (size_t j = 0; j < data.size(); ++j) q ^= gf::scale_token(q_coefficient(int(j)), data[j]);
    return q;
}

uint64_t recover(const std::vector<uint64_t> &members, int lost_a, int lost_b, int target) {
    const std::vector<uint8_t> c = recovery_coefficients(int(members.size()) - 2, lost_a, lost_b, target);
    uint64_t x = 0;
    for (size_t m = 0; m < members.size(); ++m) x ^= gf::scale_token(c[m], members[m]);
    return x;
}

}  // namespace raidtlm::controller::pq
