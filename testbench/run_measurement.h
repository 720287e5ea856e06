// Bookkeeping of a run: warm-up, the measured window, per-request statistics and when to stop.
// Plain C++, no SystemC (times are passed in, in ms).
//
// A request is measured when it was issued after warmup_requests requests had completed; the
// window opens at that completion (at 0 without warm-up) and closes when the `requests`-th
// measured request completes, which ends the run. Throughput is measured requests over the window.
#pragma once

#include <cstdint>
#include <functional>

#include "testbench/response_statistics.h"

namespace raidtlm::testbench {

class run_measurement {
public:
    run_measurement(uint64_t warmup_requests, uint64_t requests, double histogram_bucket_ms,
                    double histogram_max_ms);

    // Called when the warm-up ends, with the time (ms), before any measured request is issued.
    void on_warmup_end(std::function<void(double)> fn) { m_on_warmup_end = std::move(fn); }

    // Whether a request issued now is measured.
    bool measuring() const { return m_warm; }
    // Records a completion; returns true when the run is complete (stop the simulation).
    bool complete(bool measured, bool read, uint32_t sectors, double issue_ms, double complete_ms, bool ok);
    bool done() const { return m_done; }

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

private:
    uint64_t m_warmup, m_target;
    bool m_warm;
    bool m_done = false;
    uint64_t m_completed_total = 0;
    uint64_t m_errors = 0, m_measured_errors = 0;
    uint64_t m_measured_sectors = 0;
    double m_window_start_ms = 0, m_window_end_ms = 0;
    response_statistics m_all, m_reads, m_writes;
    std::function<void(double)> m_on_warmup_end;
};

}  // namespace raidtlm::testbench
