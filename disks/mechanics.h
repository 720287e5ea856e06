// The mechanism: spindle rotation (angle from simulated time and a phase), positioning (seek,
// head switch, write settle) and the media timing of an access laid out as track runs.
// Pure C++: times are doubles in milliseconds of simulated time.
#pragma once

#include <cstdint>
#include <vector>

#include "disks/disk_layout.h"
#include "disks/disk_spec.h"
#include "disks/seek_model.h"

namespace raidtlm::disks {

struct head_position {
    int cyl = 0;
    int head = 0;
};

// Consecutive LBNs whose media transfer completes at a steady rate on one track: LBN first_lbn+i
// is in (read) or out of (write) the buffer at first_done_ms + i * sector_ms.
struct media_segment {
    int64_t first_lbn = 0;
    int count = 0;
    double first_done_ms = 0;
    double sector_ms = 0;
    head_position track;
    double done_ms(int i) const { return first_done_ms + i * sector_ms; }
    double end_ms() const { return done_ms(count - 1); }
};

// When write data reaches the drive's buffer: LBN l is there at first_ms + (l - base_lbn) * per_sector_ms.
struct data_arrival {
    int64_t base_lbn = 0;
    double first_ms = 0;
    double per_sector_ms = 0;
    double not_before_ms = 0;  // e.g. a minimum delay before a non-sequential write may start
    double at(int64_t lbn) const {
        const double t = first_ms + double(lbn - base_lbn) * per_sector_ms;
        return t > not_before_ms ? t : not_before_ms;
    }
};

struct media_access_result {
    double end_ms = 0;
    head_position end;
    double seek_ms = 0;      // positioning before the first run
    double rotation_ms = 0;  // rotational latency before the first run's first sector
    double transfer_ms = 0;  // everything after, including later switches
    int seek_distance_cyl = 0;
};

class mechanics {
public:
    mechanics(const disk_spec &spec, const disk_layout &layout, double spindle_phase);

    double period_ms() const { return m_period_ms; }
    // Angle under the heads at time t, as a fraction of a revolution.
    double angle_at(double t_ms) const;
    // Time from t until the heads are over angle a (fraction of a revolution).
    double wait_for_angle(double t_ms, double a) const;
    double sector_ms(int cyl) const { return m_period_ms / m_layout.sectors_per_track(cyl); }
    // Seek (or head switch) plus write settle to move between two tracks.
    double positioning_ms(head_position from, head_position to, bool write) const;
    double seek_ms(int distance_cyl) const { return m_seek.seek_ms(distance_cyl); }

    // Times the media access of `runs` starting at start_ms with the heads on `from`. Appends the
    // per-run completion segments to `out` in LBN order. Writes never start a sector before its
    // data has arrived (`arrival`); a zero-latency access starts on whichever sector of a track
    // run comes first under the head.
    media_access_result access(double start_ms, head_position from, const std::vector<track_run> &runs, bool write,
                               bool zero_latency, const data_arrival *arrival,
                               std::vector<media_segment> &out) const;

private:
    const disk_layout &m_layout;
    seek_model m_seek;
    access_time_type m_access_type;
    double m_constant_access_ms;
    double m_head_switch_ms;
    double m_write_settle_ms;
    double m_period_ms;
    double m_phase;
};

}  // namespace raidtlm::disks
