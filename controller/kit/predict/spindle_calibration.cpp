#include "controller/kit/predict/spindle_calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace raidtlm::controller {

namespace {
double turn(double x) { return x - std::floor(x); }
double angle_gap(double a, double b) { return turn(a - b + 0.5) - 0.5; }
}  // namespace

spindle_calibration::spindle_calibration(const config &cfg, const drive_latency &latency)
    : m_cfg(cfg), m_latency(latency), m_interval_ms(std::min(cfg.first_interval_ms, cfg.interval_ms)) {
    if (cfg.startup_reads < 1 || cfg.periodic_reads < 1)
        throw std::invalid_argument("spindle_calibration: a burst needs at least one reference read");
}

std::optional<double> spindle_calibration::pass_ms(const reference_sample &s, double command_overhead_ms) const {
    const double pass = s.status_ms - m_latency.read_after_media_ms(1);
    if (pass < m_latency.read_reconnect_floor_ms(s.arrived_ms, command_overhead_ms)) return std::nullopt;
    return pass;
}

double spindle_calibration::least_delayed(const std::vector<double> &passes, double sector_end_angle,
                                          double period_ms) {
    if (passes.empty()) throw std::invalid_argument("spindle_calibration::least_delayed: no passes");
    const double reference = turn(sector_end_angle - passes.front() / period_ms);
    double best = passes.front(), best_gap = -std::numeric_limits<double>::infinity();
    for (double p : passes) {
        const double gap = angle_gap(turn(sector_end_angle - p / period_ms), reference);
        if (gap > best_gap) best_gap = gap, best = p;
    }
    return best;
}

void spindle_calibration::burst_done(double now_ms) {
    if (m_bursts++ > 0) m_interval_ms = std::min(2 * m_interval_ms, m_cfg.interval_ms);
    m_next_due_ms = m_cfg.interval_ms > 0 ? now_ms + m_interval_ms : std::numeric_limits<double>::infinity();
}

}  // namespace raidtlm::controller
