#include "testbench/bench/run_measurement.h"

namespace raidtlm::testbench {

const char *to_string(stop_reason r) {
    switch (r) {
    case stop_reason::running: return "running";
    case stop_reason::requests: return "requests";
    case stop_reason::ci: return "ci";
    case stop_reason::source_end: return "source_end";
    }
    return "?";
}

run_measurement::run_measurement(uint64_t warmup_requests, uint64_t requests, double histogram_bucket_ms,
                                 double histogram_max_ms, const stopping_rule &rule)
    : m_warmup(warmup_requests),
      m_target(requests ? requests : UINT64_MAX),
      m_rule(rule),
      m_warm(warmup_requests == 0),
      m_all(histogram_bucket_ms, histogram_max_ms),
      m_reads(histogram_bucket_ms, histogram_max_ms),
      m_writes(histogram_bucket_ms, histogram_max_ms) {}

bool run_measurement::complete(bool measured, bool read, uint32_t sectors, double issue_ms, double complete_ms,
                               bool ok) {
    if (m_done) return true;
    ++m_completed_total;
    if (!ok) ++m_errors;
    if (measured) {
        bool batch_done = false;
        if (ok) {
            const double rt = complete_ms - issue_ms;
            m_all.add(rt);
            (read ? m_reads : m_writes).add(rt);
            m_measured_sectors += sectors;
            batch_done = m_ci.add(rt);
        } else {
            ++m_measured_errors;
        }
        if (this->measured() >= m_target) {
            stop(stop_reason::requests, complete_ms);
        } else if (batch_done && m_rule.ci_target > 0 && this->measured() >= m_rule.min_requests &&
                   m_ci.batches() >= 2 && ci_relative() <= m_rule.ci_target &&
                   m_ci.lag1_autocorrelation() <= m_rule.max_lag1) {
            stop(stop_reason::ci, complete_ms);
        }
    }
    if (!m_warm && m_completed_total >= m_warmup) {
        m_warm = true;
        m_window_start_ms = complete_ms;
        for (auto &fn : m_on_warmup_end) fn(complete_ms);
    }
    return m_done;
}

void run_measurement::stop(stop_reason why, double now_ms) {
    m_done = true;
    m_reason = why;
    m_window_end_ms = now_ms;
}

void run_measurement::finish(double now_ms) {
    if (m_done) return;
    stop(stop_reason::source_end, now_ms);
    if (!m_warm) m_window_start_ms = now_ms;  // the source ended during the warm-up: an empty window
}

double run_measurement::iops() const {
    const double w = window_ms();
    return w > 0 ? static_cast<double>(measured()) / (w / 1000.0) : 0.0;
}

double run_measurement::mb_per_s() const {
    const double w = window_ms();
    return w > 0 ? static_cast<double>(m_measured_sectors) * 512.0 / 1e6 / (w / 1000.0) : 0.0;
}

}  // namespace raidtlm::testbench
