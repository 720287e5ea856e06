#include "testbench/measurement/response_statistics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace raidtlm::testbench {

response_statistics::response_statistics(double bucket_ms, double max_ms)
    : m_bucket_ms(bucket_ms), m_log(1 + log_octaves * log_buckets_per_octave, 0) {
    if (!(bucket_ms > 0) || !(max_ms > 0)) throw std::invalid_argument("response_statistics: bucket and max must be > 0");
    m_buckets.assign(static_cast<size_t>(std::ceil(max_ms / bucket_ms - 1e-9)), 0);
}

void response_statistics::add(double ms) {
    if (!(ms >= 0)) ms = 0;  // negative or NaN cannot happen for a duration; count it as 0
    ++m_count;
    if (m_count == 1) {
        m_min = m_max = ms;
    } else {
        m_min = std::min(m_min, ms);
        m_max = std::max(m_max, ms);
    }
    const double delta = ms - m_mean;
    m_mean += delta / static_cast<double>(m_count);
    m_m2 += delta * (ms - m_mean);

    const double b = ms / m_bucket_ms;
    if (b < static_cast<double>(m_buckets.size()))
        ++m_buckets[static_cast<size_t>(b)];
    else
        ++m_overflow;

    size_t li = 0;
    if (ms >= log_lowest_ms) {
        const double x = std::log2(ms / log_lowest_ms) * log_buckets_per_octave;
        li = 1 + std::min<size_t>(static_cast<size_t>(x), m_log.size() - 2);
    }
    ++m_log[li];
}

void response_statistics::merge(const response_statistics &o) {
    if (o.m_count == 0) return;
    if (o.m_buckets.size() != m_buckets.size() || o.m_bucket_ms != m_bucket_ms)
        throw std::invalid_argument("response_statistics::merge: different bucket layouts");
    if (m_count == 0) {
        *this = o;
        return;
    }
    const double n1 = static_cast<double>(m_count), n2 = static_cast<double>(o.m_count);
    const double delta = o.m_mean - m_mean;
    m_mean += delta * n2 / (n1 + n2);
    m_m2 += o.m_m2 + delta * delta * n1 * n2 / (n1 + n2);
    m_count += o.m_count;
    m_min = std::min(m_min, o.m_min);
    m_max = std::max(m_max, o.m_max);
    for (size_t i = 0; i < m_buckets.size(); ++i) m_buckets[i] += o.m_buckets[i];
    m_overflow += o.m_overflow;
    for (size_t i = 0; i < m_log.size(); ++i) m_log[i] += o.m_log[i];
}

double response_statistics::stddev_ms() const {
    if (m_count < 2) return 0.0;
    return std::sqrt(std::max(0.0, m_m2 / static_cast<double>(m_count - 1)));
}

double response_statistics::percentile_ms(double p) const {
    if (m_count == 0) return 0.0;
    p = std::clamp(p, 0.0, 1.0);
    const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(m_count))));
    if (rank >= m_count) return m_max;  // the extremes are known exactly
    if (rank == 1) return m_min;
    uint64_t seen = 0;
    for (size_t i = 0; i < m_log.size(); ++i) {
        seen += m_log[i];
        if (seen >= rank) {
            double v;
            if (i == 0)
                v = m_min;  // below 100 ns: report the smallest sample
            else
                v = log_lowest_ms * std::exp2((static_cast<double>(i - 1) + 0.5) / log_buckets_per_octave);
            return std::clamp(v, m_min, m_max);
        }
    }
    return m_max;
}

nlohmann::json response_statistics::to_json() const {
    nlohmann::json j;
    j["count"] = m_count;
    j["mean_ms"] = mean_ms();
    j["stddev_ms"] = stddev_ms();
    j["min_ms"] = min_ms();
    j["p50_ms"] = percentile_ms(0.50);
    j["p90_ms"] = percentile_ms(0.90);
    j["p99_ms"] = percentile_ms(0.99);
    j["max_ms"] = max_ms();
    j["percentile_relative_error"] = percentile_relative_error;
    size_t used = m_buckets.size();
    while (used > 0 && m_buckets[used - 1] == 0) --used;
    j["histogram"] = {{"bucket_ms", m_bucket_ms},
                      {"counts", std::vector<uint64_t>(m_buckets.begin(), m_buckets.begin() + used)},
                      {"overflow_from_ms", m_bucket_ms * static_cast<double>(m_buckets.size())},
                      {"overflow", m_overflow}};
    return j;
}

}  // namespace raidtlm::testbench
