#include "controller/head_position_predictor.h"

#include <cmath>

namespace raidtlm::controller {

namespace {
double turn(double x) { return x - std::floor(x); }
// Signed distance between two angles, in [-0.5, 0.5).
double angle_gap(double a, double b) { return turn(a - b + 0.5) - 0.5; }
}  // namespace

head_position_predictor::head_position_predictor(const disks::disk_spec &spec, const config &cfg)
    : m_cfg(cfg),
      m_overheads(spec.overheads),
      m_write_back_drive(spec.cache.enabled && spec.cache.fast_write_level >= 2),
      m_layout(spec),
      m_mech(spec, m_layout, 0.0),
      m_period_ms(60000.0 / spec.mech.rpm * (1 + cfg.error.period_ppm * 1e-6)),
      m_phase(turn(cfg.spindle_phase + cfg.error.phase_turns)),
      m_slack(cfg.slack) {}

double head_position_predictor::angle_at(double t_ms) const { return turn(t_ms / m_period_ms + m_phase); }

access_prediction head_position_predictor::predict(const disks::physical_address &first, bool write,
                                                   double start_ms) const {
    access_prediction a;
    a.period_ms = m_period_ms;
    const double moving = m_mech.positioning_ms(m_head, {first.cyl, first.head}, write);
    a.positioning_ms = moving > 0 ? moving * m_cfg.error.seek_scale + m_cfg.error.seek_bias_ms : 0.0;
    // The mechanism first finishes the media writes the firmware expects of it.
    const double ready = std::max(start_ms, m_busy_until_ms) + a.positioning_ms;
    double wait = turn(m_layout.slot_angle(first.cyl, first.head, first.slot) - angle_at(ready));
    if (wait > 1.0 - 1e-9) wait = 0.0;  // as the drive: floating-point residue is on target
    a.rotation_ms = wait * m_period_ms;
    a.within_slack = a.rotation_ms < m_slack.sectors() * m_period_ms / m_layout.sectors_per_track(first.cyl);
    return a;
}

double head_position_predictor::command_overhead_ms(bool write) const {
    const disks::overhead_spec &o = m_overheads;
    double ms;
    if (write) ms = m_write_back_drive ? (m_after_write ? o.write_hit_after_write_ms : o.write_hit_after_read_ms)
                                       : (m_after_write ? o.write_miss_after_write_ms : o.write_miss_after_read_ms);
    else ms = m_after_write ? o.read_miss_after_write_ms : o.read_miss_after_read_ms;
    return (o.per_request_ms + ms) * o.time_scale;
}

void head_position_predictor::expect_media_write(const disks::physical_address &first,
                                                 const disks::physical_address &last, int sectors, double start_ms) {
    const double begin = std::max(start_ms, m_busy_until_ms);
    const access_prediction a = predict(first, true, begin);
    m_busy_until_ms = begin + a.access_ms() + double(sectors) * m_period_ms / m_layout.sectors_per_track(first.cyl);
    m_head = {last.cyl, last.head};
}

double head_position_predictor::end_angle(const disks::physical_address &last) const {
    return m_layout.slot_angle(last.cyl, last.head, last.slot + 1);
}

void head_position_predictor::observe_completion(const disks::physical_address &last, double media_end_ms) {
    m_head = {last.cyl, last.head};
    m_busy_until_ms = -1e300;  // the drive did this access, so it had done the media writes before it
    const double seen = turn(end_angle(last) - media_end_ms / m_period_ms);
    m_phase = turn(m_phase + m_cfg.completion_phase_gain * angle_gap(seen, m_phase));
}

void head_position_predictor::observe_reference_read(const disks::physical_address &sector, double media_end_ms) {
    m_head = {sector.cyl, sector.head};
    m_busy_until_ms = -1e300;
    const double a = end_angle(sector);
    if (!m_have_reference) {
        m_first_reference_ms = media_end_ms;
        m_first_reference_angle = a;
        m_have_reference = true;
    } else {
        // Whole revolutions since the first reference read, plus the angle between the two.
        const double elapsed = media_end_ms - m_first_reference_ms;
        const double extra = turn(a - m_first_reference_angle);
        const double revolutions = std::round(elapsed / m_period_ms - extra) + extra;
        if (revolutions >= m_cfg.min_revolutions_for_period) m_period_ms = elapsed / revolutions;
    }
    m_phase = turn(a - media_end_ms / m_period_ms);
    m_last_reference_ms = media_end_ms;
}

void head_position_predictor::record(double predicted_access_ms, double actual_access_ms) {
    m_stats.add(predicted_access_ms, actual_access_ms, m_period_ms);
    m_slack.record(actual_access_ms - predicted_access_ms > m_period_ms / 2);
}

}  // namespace raidtlm::controller
