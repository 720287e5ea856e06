// How well the firmware predicted access times (positioning + rotational latency), as in Yu et
// al.'s Table 2: misses (the drive took more than half a revolution longer than predicted:
// it missed the sector and waited a revolution), mean and standard deviation of the error
// (actual - predicted) over the requests on target, mean actual access time, and the
// Ruemmler-Wilkes demerit between the predicted and actual distributions (all requests).
// Keeps every (predicted, actual) pair for the demerit: 16 bytes a request.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::controller {

class prediction_statistics {
public:
    void add(double predicted_ms, double actual_ms, double period_ms);

    uint64_t count() const { return m_predicted.size(); }
    uint64_t misses() const { return m_misses; }
    double miss_rate() const { return count() ? double(m_misses) / double(count()) : 0.0; }
    double mean_error_ms() const { return m_on_target ? m_error_mean : 0.0; }
    double stddev_error_ms() const;
    double mean_access_ms() const;
    double demerit_ms() const;
    // Demerit as a fraction of the mean actual access time.
    double relative_demerit() const;

    // The pairs recorded from index `from` on (for statistics of a later window).
    prediction_statistics since(uint64_t from) const;

private:
    std::vector<double> m_predicted, m_actual, m_period;
    uint64_t m_misses = 0;
    uint64_t m_on_target = 0;
    double m_error_mean = 0, m_error_m2 = 0;
};

}  // namespace raidtlm::controller
