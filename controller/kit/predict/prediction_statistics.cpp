#include "controller/kit/predict/prediction_statistics.h"

#include <cmath>
#include <numeric>

#include "controller/kit/predict/demerit.h"

namespace raidtlm::controller {

void prediction_statistics::add(double predicted_ms, double actual_ms, double period_ms) {
    m_predicted.push_back(predicted_ms);
    m_actual.push_back(actual_ms);
    m_period.push_back(period_ms);
    const double error = actual_ms - predicted_ms;
    if (error > period_ms / 2) {
        ++m_misses;
        return;
    }
    ++m_on_target;
    const double delta = error - m_error_mean;
    m_error_mean += delta / double(m_on_target);
    m_error_m2 += delta * (error - m_error_mean);
}

double prediction_statistics::stddev_error_ms() const {
    return m_on_target > 1 ? std::sqrt(m_error_m2 / double(m_on_target - 1)) : 0.0;
}

double prediction_statistics::mean_access_ms() const {
    return count() ? std::accumulate(m_actual.begin(), m_actual.end(), 0.0) / double(count()) : 0.0;
}

double prediction_statistics::demerit_ms() const { return count() ? demerit(m_predicted, m_actual) : 0.0; }

double prediction_statistics::relative_demerit() const {
    const double mean = mean_access_ms();
    return mean > 0 ? demerit_ms() / mean : 0.0;
}

prediction_statistics prediction_statistics::since(uint64_t from) const {
    prediction_statistics s;
    for (size_t i = size_t(from); i < m_predicted.size(); ++i) s.add(m_predicted[i], m_actual[i], m_period[i]);
    return s;
}

}  // namespace raidtlm::controller
