// Bookkeeping of a run: warm-up, the measured window, per-request statistics and when to stop.
// Plain C++, no SystemC (times are passed in, in ms).
//
// A request is measured when it was issued after warmup_requests requests had completed; the
// window opens at that completion (at 0 without warm-up) and closes when the run stops:
//   requests    the `requests`-th measured request completed (0: no such cap);
//   ci          the stopping rule: with ci_target > 0, at least min_requests measured, and the
//               ci_level confidence interval of the mean response time (batch means, see
//               confidence.h) no wider than ci_target of the mean on either side, with the batch
//               means' lag-1 autocorrelation at most max_lag1 (batches long enough to be
//               independent); checked whenever a batch completes;
//   source_end  the request source ran dry (end of a trace) and everything issued completed:
//               finish() is called.
// Throughput is measured requests over the window.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "testbench/measurement/confidence.h"
#include "testbench/measurement/response_statistics.h"

namespace raidtlm::testbench {

struct stopping_rule {
    double ci_target = 0;  // relative half-width; 0: off
    double ci_level = 0.95;
    uint64_t min_requests = 0;
    double max_lag1 = 0.2;
};

enum class stop_reason { running, requests, ci, source_end };
const char *to_string(stop_reason r);

class run_measurement {
public:
    run_measurement(uint64_t warmup_requests, uint64_t requests, double histogram_bucket_ms,
                    double histogram_max_ms, const stopping_rule &rule = {});

    // Called when the warm-up ends, with the time (ms), before any measured request is issued.
    // Several may be registered; they run in order.
    void on_warmup_end(std::function<void(double)> fn) { m_on_warmup_end.push_back(std::move(fn)); }

    // Whether a request issued now is measured.
    bool measuring() const { return m_warm; }
    // Records a completion; returns true when the run is complete (stop the simulation).
    bool complete(bool measured, bool read, uint32_t sectors, double issue_ms, double complete_ms, bool ok);
    // The source has no more requests and all have completed, at now_ms: ends the run.
    void finish(double now_ms);
    bool done() const { return m_done; }
    stop_reason stopped_by() const { return m_reason; }
    const stopping_rule &rule() const { return m_rule; }

    uint64_t warmup_requests() const { return m_warmup; }
    uint64_t target_requests() const { return m_target; }
    uint64_t completed_total() const { return m_completed_total; }  // including warm-up
    uint64_t measured() const { return m_all.count() + m_measured_errors; }
    uint64_t errors() const { return m_errors; }
    uint64_t measured_sectors() const { return m_measured_sectors; }
    double window_start_ms() const { return m_window_start_ms; }
    double window_end_ms() const { return m_window_end_ms; }
    double window_ms() const { return m_window_end_ms - m_window_start_ms; }
    double iops() const;
    double mb_per_s() const;  // 10^6 bytes per second, 512-byte sectors

    const response_statistics &all() const { return m_all; }
    const response_statistics &reads() const { return m_reads; }
    const response_statistics &writes() const { return m_writes; }
    // The confidence interval of the mean response time, over the measured requests so far.
    const batch_means &ci() const { return m_ci; }
    double ci_half_width_ms() const { return m_ci.half_width(m_rule.ci_level); }
    double ci_relative() const { return m_ci.relative_half_width(m_rule.ci_level); }

private:
    void stop(stop_reason why, double now_ms);

    uint64_t m_warmup, m_target;
    stopping_rule m_rule;
    stop_reason m_reason = stop_reason::running;
    batch_means m_ci;
    bool m_warm;
    bool m_done = false;
    uint64_t m_completed_total = 0;
    uint64_t m_errors = 0, m_measured_errors = 0;
    uint64_t m_measured_sectors = 0;
    double m_window_start_ms = 0, m_window_end_ms = 0;
    response_statistics m_all, m_reads, m_writes;
    std::vector<std::function<void(double)>> m_on_warmup_end;
};

}  // namespace raidtlm::testbench
