#include "disks/mechanics.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace raidtlm::disks {

namespace {
double frac(double x) { return x - std::floor(x); }
}  // namespace

mechanics::mechanics(const disk_spec &spec, const disk_layout &layout, double spindle_phase)
    : m_layout(layout),
      m_seek(spec.mech.seek),
      m_access_type(spec.mech.access),
      m_constant_access_ms(spec.mech.constant_access_ms),
      m_head_switch_ms(spec.mech.head_switch_ms),
      m_write_settle_ms(spec.mech.write_settle_ms),
      m_period_ms(60000.0 / spec.mech.rpm),
      m_phase(frac(spindle_phase)) {}

double mechanics::angle_at(double t_ms) const { return frac(t_ms / m_period_ms + m_phase); }

double mechanics::wait_for_angle(double t_ms, double a) const {
    double w = frac(a - angle_at(t_ms));
    // Treat a hair's breadth short of the target (a millionth of a turn, nanoseconds) as on
    // target: floating-point residue in long runs must not cost a revolution.
    if (w > 1.0 - 1e-6) w = 0.0;
    return w * m_period_ms;
}

double mechanics::positioning_ms(head_position from, head_position to, bool write) const {
    const int d = std::abs(to.cyl - from.cyl);
    double t = 0.0;
    if (d > 0) t = m_seek.seek_ms(d);
    else if (to.head != from.head) t = m_head_switch_ms;
    else return 0.0;
    // Writing needs the head settled more precisely after it moved (DiskSim "Add. write settling delay").
    // DiskSim accepts a negative delay (the DEC RZ26's is -0.483 ms): diskmodel adds it to every
    // non-zero positioning time of a write. It cannot make positioning take less than nothing.
    if (write) t = std::max(0.0, t + m_write_settle_ms);
    return t;
}

media_access_result mechanics::access(double start_ms, head_position from, const std::vector<track_run> &runs,
                                      bool write, bool zero_latency, const data_arrival *arrival,
                                      std::vector<media_segment> &out) const {
    media_access_result r;
    double t = start_ms;
    head_position cur = from;
    bool first = true;
    const size_t out_begin = out.size();
    for (const track_run &run : runs) {
        const head_position to{run.cyl, run.head};
        const double tau = sector_ms(run.cyl);
        const double pos = positioning_ms(cur, to, write);
        if (first) r.seek_distance_cyl = std::abs(to.cyl - cur.cyl);
        double ready = t + pos;
        if (write && arrival) {
            // Start no earlier than lets every sector of the run find its data in the buffer.
            const double need_first = arrival->at(run.first_lbn);
            const double need_last = arrival->at(run.first_lbn + run.lbns - 1) - (run.slots - 1) * tau;
            ready = std::max(ready, std::max(need_first, need_last));
        }
        const double a = m_layout.slot_angle(run.cyl, run.head, run.first_slot);
        double wait;
        if (first && m_access_type == access_time_type::constant) {
            wait = 0.0;
            ready = t + m_constant_access_ms;
        } else if (first && m_access_type == access_time_type::average_rotation) {
            wait = m_period_ms / 2;
        } else {
            wait = wait_for_angle(ready, a);
        }
        const double begin = ready + wait;
        bool wrapped = false;
        if (zero_latency && wait > 0 && run.slots > 1) {
            // Head position in sectors past the run's first slot when it arrives on the track.
            const int spt = m_layout.sectors_per_track(run.cyl);
            const double x = frac(angle_at(ready) - a) * spt;
            const int j = int(std::ceil(x - 1e-9));
            if (j > 0 && j < run.slots) {
                const double to_boundary = (j - x) * tau;
                const double s0 = ready + to_boundary;  // slot j starts under the head
                const int tail = run.slots - j;
                out.push_back({run.first_lbn + j, std::min(run.lbns - j, tail), s0 + tau, tau, to});
                out.push_back({run.first_lbn, std::min(j, run.lbns), s0 + (spt - j + 1) * tau, tau, to});
                if (out.back().count <= 0) out.pop_back();
                if (first) {
                    r.seek_ms = pos;
                    r.rotation_ms = to_boundary;
                    r.transfer_ms = spt * tau;
                } else {
                    r.transfer_ms += pos + to_boundary + spt * tau;
                }
                t = s0 + spt * tau;
                wrapped = true;
            }
        }
        if (!wrapped) {
            out.push_back({run.first_lbn, run.lbns, begin + tau, tau, to});
            const double end = begin + run.slots * tau;
            if (first) {
                r.seek_ms = ready - t;
                r.rotation_ms = wait;
                r.transfer_ms = end - begin;
            } else {
                r.transfer_ms += end - t;
            }
            t = end;
        }
        cur = to;
        first = false;
    }
    // Zero-latency runs emit their pieces out of LBN order; consumers want LBN order.
    std::sort(out.begin() + long(out_begin), out.end(),
              [](const media_segment &x, const media_segment &y) { return x.first_lbn < y.first_lbn; });
    r.end_ms = t;
    r.end = cur;
    return r;
}

}  // namespace raidtlm::disks
