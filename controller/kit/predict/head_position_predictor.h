// The firmware's prediction of where a drive's head is and how long an access will take —
// separate from the drive's true state, which the firmware never sees. It knows the drive's
// layout, seek profile and overheads (a disk_spec, as the paper's calibration layer measures
// them) and the datasheet latencies between the media and its own channel (drive_latency). It
// believes a revolution period and a spindle phase (angle(t) = t / period + phase, in
// revolutions), which start unknown (the nominal period, phase 0) and come only from reference
// reads (spindle_calibration turns their controller-side times into sector passes):
//   - observe_reference_read: the sector's end passed under the head at pass_ms: the phase is
//     reset, and the period re-measured from the first reference read (a whole number of
//     revolutions plus the angle between the two). The whole number is only certain while the
//     period is known to better than half a revolution over the interval, so, as the paper does,
//     reference reads start close together and space out.
// From ordinary commands it learns nothing about the spindle (the paper did not): the head is
// believed to end on the command's last sector (command_ended_on), and the time the channel sees
// the status against expected_status_ms tells a rotational miss (about a revolution late), which
// drives the k-sector rotation_slack's feedback loop (record_outcome).
// It has a configurable model error (seek times scaled or biased, period and phase off).
//
// Times are in ms of simulated time. The caller passes the time the drive starts positioning
// (after its command overhead); or, through predict_command / at_command, the time the command
// reaches the drive, and the predictor adds the drive's command overhead for that kind of
// command (the spec's read/write, hit/miss, after read/after write overheads).
//
// Write-back drives: a write acknowledged from the drive's cache is written to the media by the
// drive afterwards, out of the firmware's sight; the drive starts it once its command overhead
// is over and its mechanism is free, which moves the head. expect_media_write() predicts that
// media write (it is not an observation: the phase is not corrected) and moves the believed head
// to the write's last sector; later predictions start no earlier than its predicted end.
#pragma once

#include "controller/kit/queues/disk_scheduler.h"
#include "controller/kit/predict/drive_latency.h"
#include "controller/kit/predict/rotation_slack.h"
#include "controller/kit/predict/spindle_calibration.h"
#include "disks/disk_layout.h"
#include "disks/disk_spec.h"
#include "disks/mechanics.h"

namespace raidtlm::controller {

struct access_prediction {
    double start_ms = 0;        // positioning starts (the mechanism done with earlier work)
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
        double phase_turns = 0;     // the phase believed before the first reference read
    };
    struct config {
        spindle_calibration::config calibration;  // reference reads: how many, how often
        double min_revolutions_for_period = 10;
        rotation_slack::config slack;
        model_error error;
    };

    // latency: the drive on the firmware's channel (default: a free bus, no phase costs).
    head_position_predictor(const disks::disk_spec &spec, const config &cfg);
    head_position_predictor(const disks::disk_spec &spec, const config &cfg, const drive_latency &latency);

    disks::head_position head() const { return m_head; }
    double period_ms() const { return m_period_ms; }
    double phase() const { return m_phase; }
    // Believed angle under the heads at t, in revolutions [0, 1).
    double angle_at(double t_ms) const;
    double slack_sectors() const { return m_slack.sectors(); }
    const disks::disk_layout &geometry() const { return m_layout; }
    const drive_latency &latency() const { return m_latency; }
    // The drive acknowledges every write from its cache (Fast write level 2, from its spec).
    bool write_back_drive() const { return m_write_back_drive; }
    // A reference read has set the phase.
    bool calibrated() const { return m_have_reference; }

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

    // When the channel should see the status of a command of `sectors` sectors from `first` to
    // `last` (on the firmware's geometry) predicted as `a` (a write: write-through).
    double expected_status_ms(const disks::physical_address &first, const disks::physical_address &last, int sectors,
                              bool write, const access_prediction &a) const;
    // A command that reached the media ended: the head is on its last sector's track.
    void command_ended_on(const disks::physical_address &last);
    // A read's last sector passed at last_sector_ms: a drive that reads ahead (its spec) goes on
    // reading that track, and a new command's positioning waits for the end of the sector under
    // the head unless the drive may stop mid-sector ("Stop prefetch in sector").
    void reading_ahead_from(double last_sector_ms);
    // The angle (revolutions) at which a sector's end passes under the head.
    double sector_end_angle(const disks::physical_address &s) const { return end_angle(s); }
    // The end of the reference sector `sector` passed under the head at pass_ms.
    void observe_reference_read(const disks::physical_address &sector, double pass_ms);
    // A command's status came (observed - expected) late: more than half a revolution is a miss.
    bool is_miss(double late_ms) const { return late_ms > m_period_ms / 2; }
    // One predicted command's outcome, for the slack's feedback loop.
    void record_outcome(bool missed) { m_slack.record(missed); }

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
    // When the mechanism can start positioning for work that could start at t_ms.
    double mechanism_free_ms(double t_ms) const;

    config m_cfg;
    drive_latency m_latency;
    disks::overhead_spec m_overheads;
    bool m_write_back_drive;
    bool m_read_ahead_holds_sector;  // read-ahead, stopped only at a sector's end
    int m_max_read_ahead_blocks;
    double m_read_ahead_until_ms = -1e300;
    bool m_after_write = false;
    double m_busy_until_ms = -1e300;
    disks::disk_layout m_layout;
    disks::mechanics m_mech;  // positioning times only; rotation is the believed spindle below
    double m_period_ms;
    double m_phase;
    disks::head_position m_head;
    double m_first_reference_ms = 0;
    double m_first_reference_angle = 0;
    bool m_have_reference = false;
    rotation_slack m_slack;
};

}  // namespace raidtlm::controller
