#include "testbench/measurement/timeline.h"

#include <stdexcept>

namespace raidtlm::testbench {

timeline::timeline(std::vector<std::string> resources, double first_interval_ms, int max_intervals)
    : m_names(std::move(resources)), m_interval_ms(first_interval_ms), m_max(max_intervals), m_next_ms(first_interval_ms) {
    if (!(first_interval_ms > 0) || max_intervals < 2 || max_intervals % 2)
        throw std::invalid_argument("timeline: interval must be > 0 and max_intervals even, >= 2");
    m_last.busy.assign(m_names.size(), 0.0);
}

void timeline::sample(double now_ms, const std::vector<double> &busy_ms, uint64_t completions, double response_sum) {
    if (!m_end_ms.empty() && now_ms <= m_end_ms.back()) return;  // no empty intervals
    totals d;
    d.busy.resize(m_names.size());
    for (size_t i = 0; i < m_names.size(); ++i) d.busy[i] = busy_ms.at(i) - m_last.busy[i];
    d.completions = completions - m_last.completions;
    d.response_sum = response_sum - m_last.response_sum;
    m_last.busy = busy_ms;
    m_last.completions = completions;
    m_last.response_sum = response_sum;
    m_end_ms.push_back(now_ms);
    m_delta.push_back(std::move(d));
    if (static_cast<int>(m_end_ms.size()) == m_max) {
        for (int i = 0; i < m_max / 2; ++i) {
            totals &a = m_delta[2 * i];
            const totals &b = m_delta[2 * i + 1];
            for (size_t k = 0; k < a.busy.size(); ++k) a.busy[k] += b.busy[k];
            a.completions += b.completions;
            a.response_sum += b.response_sum;
            if (i != 2 * i) m_delta[i] = std::move(a);
            m_end_ms[i] = m_end_ms[2 * i + 1];
        }
        m_delta.resize(static_cast<size_t>(m_max / 2));
        m_end_ms.resize(static_cast<size_t>(m_max / 2));
        m_interval_ms *= 2;
    }
    m_next_ms = now_ms + m_interval_ms;
}

nlohmann::json timeline::to_json() const {
    nlohmann::json j;
    j["interval_ms"] = m_interval_ms;
    j["warmup_end_ms"] = m_warmup_end_ms;
    j["t_end_ms"] = m_end_ms;
    std::vector<double> iops, mean;
    std::vector<std::vector<double>> util(m_names.size());
    for (size_t i = 0; i < m_end_ms.size(); ++i) {
        const double span = m_end_ms[i] - (i ? m_end_ms[i - 1] : 0.0);
        const totals &d = m_delta[i];
        iops.push_back(span > 0 ? d.completions / (span / 1000.0) : 0.0);
        mean.push_back(d.completions ? d.response_sum / static_cast<double>(d.completions) : 0.0);
        for (size_t k = 0; k < m_names.size(); ++k) util[k].push_back(span > 0 ? d.busy[k] / span : 0.0);
    }
    j["iops"] = iops;
    j["mean_response_ms"] = mean;
    j["utilisation"] = nlohmann::json::object();
    for (size_t k = 0; k < m_names.size(); ++k) j["utilisation"][m_names[k]] = util[k];
    return j;
}

}  // namespace raidtlm::testbench
