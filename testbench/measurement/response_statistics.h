// Streaming, memory-flat statistics of a response time (or any non-negative duration) in ms.
// Plain C++, no SystemC.
//
// Nothing is stored per sample: mean and standard deviation are Welford's running moments; the
// histogram has fixed-width buckets (bucket_ms wide up to max_ms, then one overflow count); the
// percentiles come from a second, logarithmic histogram of 64 buckets per factor of two from
// 100 ns to ~3 hours, so a percentile is exact to within percentile_relative_error (0.55 %) of
// the true sample quantile, and always within [min, max].
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace raidtlm::testbench {

class response_statistics {
public:
    static constexpr int log_buckets_per_octave = 64;
    static constexpr double log_lowest_ms = 1e-4;
    static constexpr int log_octaves = 37;  // 1e-4 ms * 2^37 ~ 1.4e7 ms
    // Worst-case relative error of percentile_ms() against the exact nearest-rank sample quantile.
    static constexpr double percentile_relative_error = 0.0055;  // 2^(1/128) - 1, rounded up

    explicit response_statistics(double bucket_ms = 0.5, double max_ms = 200.0);

    void add(double ms);
    // Adds another set of samples (same bucket layout).
    void merge(const response_statistics &other);

    uint64_t count() const { return m_count; }
    double mean_ms() const { return m_count ? m_mean : 0.0; }
    // Sample standard deviation (n - 1 in the denominator); 0 with fewer than two samples.
    double stddev_ms() const;
    double min_ms() const { return m_count ? m_min : 0.0; }
    double max_ms() const { return m_count ? m_max : 0.0; }
    double sum_ms() const { return m_mean * static_cast<double>(m_count); }
    // Nearest-rank quantile, p in [0, 1]: the smallest sample value with at least p*count samples at
    // or below it, to within percentile_relative_error. 0 when empty.
    double percentile_ms(double p) const;

    double bucket_ms() const { return m_bucket_ms; }
    const std::vector<uint64_t> &buckets() const { return m_buckets; }  // bucket i: [i*w, (i+1)*w)
    uint64_t overflow() const { return m_overflow; }                      // samples >= buckets()*w

    // {count, mean_ms, stddev_ms, min_ms, p50_ms, p90_ms, p99_ms, max_ms, histogram{...}}
    nlohmann::json to_json() const;

private:
    double m_bucket_ms;
    uint64_t m_count = 0;
    double m_mean = 0, m_m2 = 0;
    double m_min = 0, m_max = 0;
    std::vector<uint64_t> m_buckets;
    uint64_t m_overflow = 0;
    std::vector<uint64_t> m_log;  // [0]: below log_lowest_ms; [1 + i]: octave bucket i
};

}  // namespace raidtlm::testbench
