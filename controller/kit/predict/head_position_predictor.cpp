#include "controller/kit/predict/head_position_predictor.h"

#include <cmath>

namespace raidtlm::controller {

namespace {
double turn(double x) { return x - std::floor(x); }
// Signed distance between two angles, in [-0.5, 0.5).
double angle_gap(double a, double b) { return turn(a - b + 0.5) - 0.5; }
}  // namespace

head_position_predictor::head_position_predictor(const disks::disk_spec &spec, const config &cfg)
    : head_position_predictor(spec, cfg, drive_latency(spec)) {}

head_position_predictor::head_position_predictor(const disks::disk_spec &spec, const config &cfg,
                                                 const drive_latency &latency)
    : m_cfg(cfg),
      m_latency(latency),
      m_overheads(spec.overheads),
      m_write_back_drive(spec.cache.enabled && spec.cache.fast_write_level >= 2),
      m_read_ahead_holds_sector(spec.cache.enabled && spec.cache.max_read_ahead_blocks > 0 &&
                                spec.cache.continuous_read != disks::prefetch_scheme::none &&
                                !spec.cache.stop_prefetch_in_sector),
      m_max_read_ahead_blocks(spec.cache.max_read_ahead_blocks),
      m_layout(spec),
      m_mech(spec, m_layout, 0.0),
      m_period_ms(60000.0 / spec.mech.rpm * (1 + cfg.error.period_ppm * 1e-6)),
      m_phase(turn(cfg.error.phase_turns)),
      m_slack(cfg.slack) {}

double head_position_predictor::angle_at(double t_ms) const { return turn(t_ms / m_period_ms + m_phase); }

access_prediction head_position_predictor::predict(const disks::physical_address &first, bool write,
                                                   double start_ms) const {
    access_prediction a;
    a.period_ms = m_period_ms;
    const double moving = m_mech.positioning_ms(m_head, {first.cyl, first.head}, write);
    a.positioning_ms = moving > 0 ? moving * m_cfg.error.seek_scale + m_cfg.error.seek_bias_ms : 0.0;
    // The mechanism first finishes the media writes the firmware expects of it, or the sector its
    // read-ahead is reading.
    a.start_ms = mechanism_free_ms(std::max(start_ms, m_busy_until_ms));
    const double ready = a.start_ms + a.positioning_ms;
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
    const access_prediction a = predict(first, true, start_ms);
    m_busy_until_ms = a.start_ms + a.access_ms() + double(sectors) * m_period_ms / m_layout.sectors_per_track(first.cyl);
    m_head = {last.cyl, last.head};
    m_read_ahead_until_ms = -1e300;
}

double head_position_predictor::end_angle(const disks::physical_address &last) const {
    return m_layout.slot_angle(last.cyl, last.head, last.slot + 1);
}

double head_position_predictor::expected_status_ms(const disks::physical_address &first,
                                                   const disks::physical_address &last, int sectors, bool write,
                                                   const access_prediction &a) const {
    const double first_sector_ms = a.start_ms + a.access_ms();
    // One track's worth of sectors a revolution; head and cylinder switches are hidden by the
    // skews, so the end is where the last sector's end passes nearest to that.
    const double nominal_end = first_sector_ms + double(sectors) * m_period_ms / m_layout.sectors_per_track(first.cyl);
    const double last_sector_end = nominal_end + angle_gap(end_angle(last), angle_at(nominal_end)) * m_period_ms;
    return last_sector_end + (write ? m_latency.write_after_media_ms() : m_latency.read_after_media_ms(sectors));
}

void head_position_predictor::command_ended_on(const disks::physical_address &last) {
    m_head = {last.cyl, last.head};
    m_busy_until_ms = -1e300;  // the drive did this access, so it had done the media writes before it
    m_read_ahead_until_ms = -1e300;
}

void head_position_predictor::reading_ahead_from(double last_sector_ms) {
    if (!m_read_ahead_holds_sector) return;
    // At most the spec's maximum read-ahead; the firmware does not follow it across tracks.
    m_read_ahead_until_ms = last_sector_ms + m_max_read_ahead_blocks * m_period_ms / m_layout.sectors_per_track(m_head.cyl);
}

double head_position_predictor::mechanism_free_ms(double t_ms) const {
    if (t_ms >= m_read_ahead_until_ms) return t_ms;
    // The next sector boundary of the head's track after t_ms.
    const int spt = m_layout.sectors_per_track(m_head.cyl);
    const double sectors = turn(angle_at(t_ms) - m_layout.slot_angle(m_head.cyl, m_head.head, 0)) * spt;
    const double to_boundary = std::ceil(sectors - 1e-9) - sectors;
    return t_ms + std::max(0.0, to_boundary) * m_period_ms / spt;
}

void head_position_predictor::observe_reference_read(const disks::physical_address &sector, double pass_ms) {
    m_head = {sector.cyl, sector.head};
    m_busy_until_ms = -1e300;
    const double a = end_angle(sector);
    if (!m_have_reference) {
        m_first_reference_ms = pass_ms;
        m_first_reference_angle = a;
        m_have_reference = true;
    } else {
        // Whole revolutions since the first reference read, plus the angle between the two.
        const double elapsed = pass_ms - m_first_reference_ms;
        const double extra = turn(a - m_first_reference_angle);
        const double revolutions = std::round(elapsed / m_period_ms - extra) + extra;
        if (revolutions >= m_cfg.min_revolutions_for_period) m_period_ms = elapsed / revolutions;
    }
    m_phase = turn(a - pass_ms / m_period_ms);
    reading_ahead_from(pass_ms);
}

}  // namespace raidtlm::controller
