#include "controller/layouts/pq_parity.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "rtl_models/xor/gf256.h"

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

uint64_t check_of(int k, const std::vector<uint64_t> &data) {
    uint64_t c = 0;
    for (size_t j = 0; j < data.size(); ++j) c ^= gf::scale_token(check_coefficient(k, int(j)), data[j]);
    return c;
}

namespace {

// The inverse of a square matrix over GF(2^8) (Gauss-Jordan); the caller's matrices are
// nonsingular (check_coefficient's rows over distinct data units).
std::vector<std::vector<uint8_t>> inverse(std::vector<std::vector<uint8_t>> a) {
    const size_t s = a.size();
    std::vector<std::vector<uint8_t>> inv(s, std::vector<uint8_t>(s, 0));
    for (size_t i = 0; i < s; ++i) inv[i][i] = 1;
    for (size_t col = 0; col < s; ++col) {
        size_t pivot = col;
        while (pivot < s && a[pivot][col] == 0) ++pivot;
        if (pivot == s) throw std::logic_error("pq::erasure_coefficients: a singular system");
        std::swap(a[col], a[pivot]);
        std::swap(inv[col], inv[pivot]);
        const uint8_t scale = gf::inv(a[col][col]);
        for (size_t k = 0; k < s; ++k) {
            a[col][k] = gf::mul(a[col][k], scale);
            inv[col][k] = gf::mul(inv[col][k], scale);
        }
        for (size_t row = 0; row < s; ++row) {
            const uint8_t f = a[row][col];
            if (row == col || f == 0) continue;
            for (size_t k = 0; k < s; ++k) {
                a[row][k] ^= gf::mul(f, a[col][k]);
                inv[row][k] ^= gf::mul(f, inv[col][k]);
            }
        }
    }
    return inv;
}

}  // namespace

std::vector<uint8_t> solved_erasure_coefficients(int n, int checks, const std::vector<int> &lost, int target) {
    const int members = n + checks;
    auto is_lost = [&](int m) { return std::find(lost.begin(), lost.end(), m) != lost.end(); };
    bool distinct = true;
    for (size_t i = 0; i < lost.size(); ++i)
        for (size_t k = i + 1; k < lost.size(); ++k) distinct = distinct && lost[i] != lost[k];
    const bool in_range = std::all_of(lost.begin(), lost.end(), [&](int m) { return m >= 0 && m < members; });
    if (n < 1 || n > 255 || checks < 1 || checks > max_checks || lost.empty() || int(lost.size()) > checks ||
        !distinct || !in_range || !is_lost(target)) {
        std::string names;
        for (int m : lost) names += (names.empty() ? "" : ", ") + std::to_string(m);
        throw std::invalid_argument("pq::erasure_coefficients: " + std::to_string(n) + " data units, " +
                                    std::to_string(checks) + " checks, lost {" + names + "}, target " +
                                    std::to_string(target));
    }
    // The lost data units X, and the first |X| readable checks in the order P, Q, R (P first:
    // one lost data unit comes from P alone, an XOR, whenever P is there).
    std::vector<int> x, use;
    for (int m : lost)
        if (m < n) x.push_back(m);
    std::sort(x.begin(), x.end());
    for (int k = 0; k < checks && use.size() < x.size(); ++k)
        if (!is_lost(n + k)) use.push_back(k);
    // Check k of the chosen: C_k + sum_{i not in X} g^(k i) D_i = sum_{x in X} g^(k x) D_x, so
    // D_X = A^-1 S with A[r][c] = g^(use_r x_c) and S_r the left side.
    std::vector<std::vector<uint8_t>> a(x.size(), std::vector<uint8_t>(x.size()));
    for (size_t r = 0; r < use.size(); ++r)
        for (size_t c = 0; c < x.size(); ++c) a[r][c] = check_coefficient(use[r], x[c]);
    const std::vector<std::vector<uint8_t>> inv = inverse(a);
    // Lost data unit x_c over the readable members.
    auto data_unit = [&](size_t c) {
        std::vector<uint8_t> out(size_t(members), 0);
        for (size_t r = 0; r < use.size(); ++r) {
            const uint8_t w = inv[c][r];
            out[size_t(n + use[r])] ^= w;
            for (int i = 0; i < n; ++i)
                if (!is_lost(i)) out[size_t(i)] ^= gf::mul(w, check_coefficient(use[r], i));
        }
        return out;
    };
    if (target < n) return data_unit(size_t(std::find(x.begin(), x.end(), target) - x.begin()));
    // A lost check from the data, the lost ones by their recovery.
    const int k = target - n;
    std::vector<uint8_t> out(size_t(members), 0);
    for (int i = 0; i < n; ++i)
        if (!is_lost(i)) out[size_t(i)] = check_coefficient(k, i);
    for (size_t c = 0; c < x.size(); ++c) {
        const uint8_t w = check_coefficient(k, x[c]);
        const std::vector<uint8_t> d = data_unit(c);
        for (int m = 0; m < members; ++m) out[size_t(m)] ^= gf::mul(w, d[size_t(m)]);
    }
    return out;
}

std::vector<uint8_t> erasure_coefficients(int n, int checks, const std::vector<int> &lost, int target) {
    // Two checks: the closed forms above (Anvin), which every P+Q result so far was computed with.
    if (checks == 2 && !lost.empty() && lost.size() <= 2)
        return recovery_coefficients(n, lost[0], lost.size() > 1 ? lost[1] : -1, target);
    return solved_erasure_coefficients(n, checks, lost, target);
}

uint64_t recover_erasures(const std::vector<uint64_t> &members, int checks, const std::vector<int> &lost, int target) {
    const std::vector<uint8_t> c = erasure_coefficients(int(members.size()) - checks, checks, lost, target);
    uint64_t x = 0;
    for (size_t m = 0; m < members.size(); ++m) x ^= gf::scale_token(c[m], members[m]);
    return x;
}

}  // namespace raidtlm::controller::pq
