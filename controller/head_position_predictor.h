// The firmware's prediction of where a drive's head is and how long an access will take —
// separate from the drive's true state, which the firmware never sees. It knows the drive's
// layout and seek profile (a disk_spec, as the paper's calibration layer measures them) and
// believes a revolution period and a spindle phase (angle(t) = t / period + phase, in
// revolutions). It learns from:
//   - completions: at the end of a request's media transfer the head is on the last sector's
//     track and just past that sector; each completion moves the phase estimate a fraction
//     (completion_phase_gain) of the way to what it shows;
//   - reference reads of a known sector: reset the phase, and re-measure the period from the
//     first reference read (a whole number of revolutions plus the angle between the two). The
//     whole number is only certain while the period is known to better than half a revolution
//     over the interval, so, as the paper does, reference reads start close together and
//     space out (each interval can be about 1 / (2 * relative period error) revolutions).
// It has a configurable model error (seek times scaled or biased, period and phase off), and a
// k-sector rotation_slack with its feedback loop; record() compares predictions with what the
// drive did (prediction_statistics).
//
// Times are in ms of simulated time. The caller passes the time the drive starts positioning
// (after its command overhead) and the time the media transfer ended; or, through
// predict_command / at_command, the time the command reaches the drive, and the predictor adds
// the drive's command overhead for that kind of command (the spec's read/write, hit/miss, after
// read/after write overheads, as calibration measures them).
//
// Write-back drives: a write acknowledged from the drive's cache is written to the media by the
// drive afterwards, out of the firmware's sight; the drive starts it once its command overhead
// is over and its mechanism is free, which moves the head. expect_media_write() predicts that
// media write (it is not an observation: the phase is not corrected) and moves the believed head
// to the write's last sector; later predictions start no earlier than its predicted end.
#pragma once

#include "controller/disk_scheduler.h"
#include "controller/prediction_statistics.h"
#include "controller/rotation_slack.h"
#include "disks/disk_layout.h"
#include "disks/disk_spec.h"
#include "disks/mechanics.h"

namespace raidtlm::controller {

struct access_prediction {
    double positioning_ms = 0;  // seek or head switch, plus write settle
    double rotation_ms = 0;     // then the wait for the first sector, as the drive will wait
    bool within_slack = false;  // arrives less than the slack ahead of the sector
    double period_ms = 0;
    double access_ms() const { return positioning_ms + rotation_ms; }
    // What schedulers rank by: a placement within the slack counts one revolution more.
    double ranking_ms() const { return access_ms() + (within_slack ? period_ms : 0.0); }
};

class head_position_predictor {
public:
    // Deliberate error of the firmware's model of the drive.
    struct model_error {
        double seek_scale = 1.0;    // multiplies every predicted seek or head switch
        double seek_bias_ms = 0;    // added to every predicted non-zero positioning
        double period_ppm = 0;      // error of the believed revolution period
        double phase_turns = 0;     // error of the initial spindle phase
    };
    struct config {
        double spindle_phase = 0;  // the drive's phase as calibration measured it
        double completion_phase_gain = 0.25;
        double reference_interval_ms = 120000;  // the paper re-calibrates every two minutes
        double min_revolutions_for_period = 10;
        rotation_slack::config slack;
        model_error error;
    };

    head_position_predictor(const disks::disk_spec &spec, const config &cfg);

    disks::head_position head() const { return m_head; }
    double period_ms() const { return m_period_ms; }
    double phase() const { return m_phase; }
    // Believed angle under the heads at t, in revolutions [0, 1).
    double angle_at(double t_ms) const;
    double slack_sectors() const { return m_slack.sectors(); }
    const disks::disk_layout &geometry() const { return m_layout; }

    // An access to `first` whose positioning starts at start_ms from the predicted head.
    access_prediction predict(const disks::physical_address &first, bool write, double start_ms) const;

    // The drive's command overhead before it starts positioning the next command, from the spec;
    // a write is taken as write-back (a "hit") when the drive acknowledges every write from its
    // cache (Fast write level 2).
    double command_overhead_ms(bool write) const;
    // The command reaches the drive at arrive_ms: predict() from arrive_ms + command_overhead_ms().
    access_prediction predict_command(const disks::physical_address &first, bool write, double arrive_ms) const {
        return predict(first, write, arrive_ms + command_overhead_ms(write));
    }
    // Every command the drive completes (the drive's overheads depend on the previous command).
    void command_done(bool write) { m_after_write = write; }
    // A write-back write of `sectors` sectors from `first` to `last` whose positioning could start
    // at start_ms: the drive writes it when its mechanism is free.
    void expect_media_write(const disks::physical_address &first, const disks::physical_address &last, int sectors,
                            double start_ms);
    // Until then the mechanism is believed busy with expected media writes.
    double busy_until_ms() const { return m_busy_until_ms; }

    // The media transfer of a request ended at media_end_ms with `last` its last sector.
    void observe_completion(const disks::physical_address &last, double media_end_ms);
    // A read of the reference sector ended at media_end_ms.
    void observe_reference_read(const disks::physical_address &sector, double media_end_ms);
    bool reference_read_due(double now_ms) const { return now_ms - m_last_reference_ms >= m_cfg.reference_interval_ms; }

    // What the drive did: predicted (access_ms(), without slack) vs measured access time.
    void record(double predicted_access_ms, double actual_access_ms);
    const prediction_statistics &statistics() const { return m_stats; }

    // Predictions for requests that start at start_ms, for disk_scheduler.
    class oracle final : public access_time_oracle {
    public:
        oracle(const head_position_predictor &p, double start_ms) : m_p(p), m_start_ms(start_ms) {}
        int head_cylinder() const override { return m_p.head().cyl; }
        double access_ms(const placement &pl, bool write) const override {
            return m_p.predict(pl.first, write, m_start_ms).ranking_ms();
        }

    private:
        const head_position_predictor &m_p;
        double m_start_ms;
    };
    oracle at(double start_ms) const { return oracle(*this, start_ms); }
    // As oracle, for commands that reach the drive at arrive_ms (each kind after its overhead).
    class command_oracle final : public access_time_oracle {
    public:
        command_oracle(const head_position_predictor &p, double arrive_ms) : m_p(p), m_arrive_ms(arrive_ms) {}
        int head_cylinder() const override { return m_p.head().cyl; }
        double access_ms(const placement &pl, bool write) const override {
            return m_p.predict_command(pl.first, write, m_arrive_ms).ranking_ms();
        }

    private:
        const head_position_predictor &m_p;
        double m_arrive_ms;
    };
    command_oracle at_command(double arrive_ms) const { return command_oracle(*this, arrive_ms); }

private:
    double end_angle(const disks::physical_address &last) const;

    config m_cfg;
    disks::overhead_spec m_overheads;
    bool m_write_back_drive;
    bool m_after_write = false;
    double m_busy_until_ms = -1e300;
    disks::disk_layout m_layout;
    disks::mechanics m_mech;  // positioning times only; rotation is the believed spindle below
    double m_period_ms;
    double m_phase;
    disks::head_position m_head;
    double m_last_reference_ms = -1e300;
    double m_first_reference_ms = 0;
    double m_first_reference_angle = 0;
    bool m_have_reference = false;
    rotation_slack m_slack;
    prediction_statistics m_stats;
};

}  // namespace raidtlm::controller
