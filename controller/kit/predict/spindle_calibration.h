// Spindle calibration from reference reads, as the SR-Array paper's predictor does it (Yu et al.
// 3.2): the firmware reads one fixed sector and takes the time its own channel saw the status;
// the time between two such reads is a whole number of revolutions plus overheads it cannot
// predict, so the reads start close together and space out as the period becomes known.
//
// What it uses, and only this: when the command reached the drive (the channel's selection
// finished: its own hardware's clock), when the channel saw the status, the drive's command
// overhead and the datasheet latencies of drive_latency. From those it infers when the sector's
// end passed under the head. A read whose sector came round before the drive had disconnected
// tells nothing (its completion is set by the disconnect) and is dropped. Any contention (bus
// busy at the reconnection, an interrupt late) only ever makes a completion late, so of a burst
// of reads of the same sector the one implying the latest spindle angle is the least delayed.
//
// The schedule: a burst of startup_reads before the first command (the paper calibrates first),
// then a burst of periodic_reads after first_interval_ms, the interval doubling up to
// interval_ms (the paper's two minutes).
#pragma once

#include <optional>
#include <vector>

#include "controller/kit/predict/drive_latency.h"

namespace raidtlm::controller {

struct reference_sample {
    double arrived_ms = 0;  // the command reached the drive (selection done)
    double status_ms = 0;   // the channel saw the status
};

class spindle_calibration {
public:
    struct config {
        int startup_reads = 8;
        int periodic_reads = 2;
        double first_interval_ms = 250;
        double interval_ms = 120000;  // 0: no periodic calibration (startup only)
    };
    spindle_calibration(const config &cfg, const drive_latency &latency);

    // When the reference sector's end passed under the head; none if the read cannot tell.
    std::optional<double> pass_ms(const reference_sample &s, double command_overhead_ms) const;
    // Of passes of one sector (angle of its end `sector_end_angle`, revolutions), the least
    // delayed: the one implying the latest spindle phase for the believed period.
    static double least_delayed(const std::vector<double> &passes, double sector_end_angle, double period_ms);

    int reads_in_next_burst() const { return m_bursts == 0 ? m_cfg.startup_reads : m_cfg.periodic_reads; }
    // A burst done at now_ms: the next one is due after the current interval.
    void burst_done(double now_ms);
    bool started() const { return m_bursts > 0; }
    double next_due_ms() const { return m_next_due_ms; }
    // (Within a nanosecond: a simulator's clock rounds, and a wait for less than its resolution
    // would not advance it.)
    bool due(double now_ms) const { return now_ms >= m_next_due_ms - 1e-6; }

private:
    config m_cfg;
    drive_latency m_latency;
    int m_bursts = 0;
    double m_interval_ms;
    double m_next_due_ms = 0;
};

}  // namespace raidtlm::controller
