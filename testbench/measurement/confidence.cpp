#include "testbench/measurement/confidence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace raidtlm::testbench {

double normal_quantile(double p) {
    if (!(p > 0 && p < 1)) throw std::invalid_argument("normal_quantile: p must be in (0, 1)");
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double lo = 0.02425;
    double x;
    if (p < lo) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - lo) {
        const double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    // One Halley step against the exact CDF.
    const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
    const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

namespace {

// Continued fraction of the regularized incomplete beta function (modified Lentz).
double beta_cf(double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (std::fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1) < 1e-15) break;
    }
    return h;
}

// Regularized incomplete beta I_x(a, b).
double incomplete_beta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double ln_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    if (x < (a + 1) / (a + b + 2)) return std::exp(ln_front) * beta_cf(a, b, x) / a;
    return 1 - std::exp(ln_front) * beta_cf(b, a, 1 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double df) {
    if (!(df > 0)) throw std::invalid_argument("student_t_cdf: df must be > 0");
    const double x = df / (df + t * t);
    const double tail = 0.5 * incomplete_beta(df / 2, 0.5, x);
    return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
    if (!(p > 0 && p < 1)) throw std::invalid_argument("student_t_quantile: p must be in (0, 1)");
    if (!(df > 0)) throw std::invalid_argument("student_t_quantile: df must be > 0");
    if (p == 0.5) return 0;
    if (p < 0.5) return -student_t_quantile(1 - p, df);
    // Bracket and bisect on the CDF (monotone), starting from the normal quantile.
    double lo = 0, hi = std::max(1.0, 2 * normal_quantile(p));
    while (student_t_cdf(hi, df) < p) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (student_t_cdf(mid, df) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double t_factor(double level, double df) { return student_t_quantile(0.5 + level / 2, df); }

batch_means::batch_means(int max_batches) : m_max(max_batches) {
    if (max_batches < 4 || max_batches % 2) throw std::invalid_argument("batch_means: max_batches must be even, >= 4");
    m_means.reserve(static_cast<size_t>(max_batches));
}

void batch_means::close_batch() {
    m_means.push_back(m_partial / static_cast<double>(m_batch_size));
    m_partial = 0;
    m_in_partial = 0;
    if (static_cast<int>(m_means.size()) == m_max) {
        for (int i = 0; i < m_max / 2; ++i) m_means[i] = 0.5 * (m_means[2 * i] + m_means[2 * i + 1]);
        m_means.resize(static_cast<size_t>(m_max / 2));
        m_batch_size *= 2;
    }
}

double batch_means::half_width(double level) const {
    const size_t k = m_means.size();
    if (k < 2) return std::numeric_limits<double>::infinity();
    double mean = 0;
    for (double m : m_means) mean += m;
    mean /= static_cast<double>(k);
    double ss = 0;
    for (double m : m_means) ss += (m - mean) * (m - mean);
    const double s = std::sqrt(ss / static_cast<double>(k - 1));
    if (level != m_t_level) {
        m_t_level = level;
        m_t_cache.assign(static_cast<size_t>(m_max), 0.0);
    }
    double &t = m_t_cache[k - 1];
    if (t == 0) t = t_factor(level, static_cast<double>(k - 1));
    return t * s / std::sqrt(static_cast<double>(k));
}

double batch_means::relative_half_width(double level) const {
    const double m = mean();
    if (m == 0) return std::numeric_limits<double>::infinity();
    return half_width(level) / std::fabs(m);
}

double batch_means::lag1_autocorrelation() const {
    const size_t k = m_means.size();
    if (k < 3) return 0;
    double mean = 0;
    for (double m : m_means) mean += m;
    mean /= static_cast<double>(k);
    double num = 0, den = 0;
    for (size_t i = 0; i < k; ++i) {
        den += (m_means[i] - mean) * (m_means[i] - mean);
        if (i + 1 < k) num += (m_means[i] - mean) * (m_means[i + 1] - mean);
    }
    return den > 0 ? num / den : 0;
}

spread_summary summarize(const std::vector<double> &v) {
    spread_summary s;
    s.n = static_cast<int>(v.size());
    if (v.empty()) return s;
    s.min = *std::min_element(v.begin(), v.end());
    s.max = *std::max_element(v.begin(), v.end());
    for (double x : v) s.mean += x;
    s.mean /= static_cast<double>(v.size());
    if (v.size() >= 2) {
        double ss = 0;
        for (double x : v) ss += (x - s.mean) * (x - s.mean);
        s.stddev = std::sqrt(ss / static_cast<double>(v.size() - 1));
        s.ci95_half_width = t_factor(0.95, static_cast<double>(v.size() - 1)) * s.stddev /
                            std::sqrt(static_cast<double>(v.size()));
    }
    s.spread = s.mean != 0 ? (s.max - s.min) / std::fabs(s.mean) : 0;
    return s;
}

}  // namespace raidtlm::testbench
