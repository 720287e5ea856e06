#include "testbench/run_measurement.h"

namespace raidtlm::testbench {

run_measurement::run_measurement(uint64_t warmup_requests, uint64_t requests, double histogram_bucket_ms,
                                 double histogram_max_ms)
    : m_warmup(warmup_requests),
      m_target(requests),
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
        if (ok) {
            const double rt = complete_ms - issue_ms;
            m_all.add(rt);
            (read ? m_reads : m_writes).add(rt);
            m_measured_sectors += sectors;
        } else {
            ++m_measured_errors;
        }
        if (this->measured() >= m_target) {
            m_done = true;
            m_window_end_ms = complete_ms;
        }
    }
    if (!m_warm && m_completed_total >= m_warmup) {
        m_warm = true;
        m_window_start_ms = complete_ms;
        if (m_on_warmup_end) m_on_warmup_end(complete_ms);
    }
    return m_done;
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
