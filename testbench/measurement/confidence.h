// Confidence intervals for simulation output. Plain C++, no SystemC.
//
// Response times of successive requests are autocorrelated (a long queue makes several requests in
// a row slow), so the ordinary s/sqrt(n) interval would be far too narrow. batch_means groups the
// samples, in completion order, into consecutive batches and treats the batch means as the
// (nearly independent) observations: the interval is t(k-1) * s_batch / sqrt(k) over k batches.
// Memory is flat: at most max_batches batch means are kept; when they are all full, neighbours
// are merged pairwise and the batch size doubles, so k stays between max_batches/2 and
// max_batches (32..64 by default) however long the run is, and the batches grow with the run as
// batch means need (Schmeiser 1982: 10-30 or more batches; a batch size growing with n). The
// lag-1 autocorrelation of the batch means is reported and checked by the stopping rule: batches
// still too short to be independent show it as a positive correlation.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::testbench {

// Standard normal quantile, p in (0, 1) (Acklam's rational approximation, one Halley step:
// relative error below 1e-12).
double normal_quantile(double p);
// Student's t distribution with df > 0 degrees of freedom: CDF, and quantile for p in (0, 1).
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);
// Half-width factor of a two-sided `level` interval (e.g. 0.95) with df degrees of freedom.
double t_factor(double level, double df);

class batch_means {
public:
    // max_batches must be even and >= 4.
    explicit batch_means(int max_batches = 64);

    // Adds a sample; returns true when it completed a batch.
    bool add(double x) {
        m_sum_all += x;
        ++m_count;
        m_partial += x;
        if (++m_in_partial < m_batch_size) return false;
        close_batch();
        return true;
    }

    uint64_t count() const { return m_count; }
    double mean() const { return m_count ? m_sum_all / static_cast<double>(m_count) : 0.0; }
    int batches() const { return static_cast<int>(m_means.size()); }  // full batches
    uint64_t batch_size() const { return m_batch_size; }
    // Two-sided `level` half-width of the mean over the full batches; infinity with < 2 batches.
    double half_width(double level) const;
    // half_width / mean; infinity when the mean is 0 or there are < 2 batches.
    double relative_half_width(double level) const;
    // Lag-1 autocorrelation of the batch means (0 with < 3 batches).
    double lag1_autocorrelation() const;

private:
    void close_batch();

    int m_max;
    // t factors by degrees of freedom for m_t_level (the quantile costs a few thousand flops).
    mutable double m_t_level = -1;
    mutable std::vector<double> m_t_cache;
    uint64_t m_batch_size = 1;
    uint64_t m_count = 0;
    uint64_t m_in_partial = 0;
    double m_sum_all = 0;
    double m_partial = 0;
    std::vector<double> m_means;
};

// Mean and spread of a few independent values (e.g. one per seed).
struct spread_summary {
    int n = 0;
    double mean = 0;
    double stddev = 0;       // sample standard deviation (n - 1)
    double min = 0, max = 0;
    double spread = 0;       // (max - min) / |mean|; 0 when the mean is 0
    double ci95_half_width = 0;  // t(n-1) * stddev / sqrt(n); 0 with n < 2
};
spread_summary summarize(const std::vector<double> &values);

}  // namespace raidtlm::testbench
