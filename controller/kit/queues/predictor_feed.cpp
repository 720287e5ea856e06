#include "controller/kit/queues/predictor_feed.h"

#include <algorithm>
#include <limits>

namespace raidtlm::controller {

void calibrate_if_due(disk_queues &queues, int d) {
    disk_queues::disk_state &ds = queues.state(d);
    if (!ds.calibration || ds.reference_pending) return;
    if (ds.used_since_burst && ds.calibration->started() && ds.calibration->due(queues.platform().now_ms()))
        reference_burst(queues, d);
    ds.used_since_burst = true;
}

pending_prediction predict_before_command(disk_queues::disk_state &ds, drive_request &request, double now_ms) {
    // satf: what the firmware predicts for this command, starting from the tag grant.
    pending_prediction p;
    p.granted_ms = now_ms;
    if (!ds.predictor) return p;
    const bool write = request.write;
    p.arrive_ms = p.granted_ms + std::max(0.0, ds.start_offset_ms);
    p.overhead_ms = ds.predictor->command_overhead_ms(write);
    p.after_expected_media_write = ds.predictor->busy_until_ms() > p.arrive_ms + p.overhead_ms;
    p.predicted = ds.predictor->predict(ds.geometry->to_physical(int64_t(request.lbn)), write, p.arrive_ms + p.overhead_ms);
    if (!ds.reference_pending) {
        request.predicted_access_ms = p.predicted.access_ms();
        request.predicted_period_ms = ds.predictor->period_ms();
    }
    return p;
}

void learn_after_command(disk_queues::disk_state &ds, const drive_request &request, const drive_completion &done,
                         const pending_prediction &p, disk_queue_statistics &stats) {
    const bool ok = done.ok;
    const bool write = request.write;
    const bool rotate_write = request.old_tokens != nullptr;
    if (ds.reference_pending) {
        // A reference read: reference_burst turns its times into the sector's pass.
        if (ok) ds.last_reference = {done.delivered_ms, done.status_ms};
    } else if (ds.predictor && ok) {
        head_position_predictor &predictor = *ds.predictor;
        // What the firmware learns from a command: only its own clock. The time from the tag
        // grant to the command being at the drive (CPU work, bus arbitration and selection)...
        const double offset = done.delivered_ms - p.granted_ms;
        ds.start_offset_ms = ds.start_offset_learned ? ds.start_offset_ms + 0.1 * (offset - ds.start_offset_ms) : offset;
        ds.start_offset_learned = true;
        const int sectors = int(request.sectors);
        const disks::physical_address first = ds.geometry->to_physical(int64_t(request.lbn));
        // A relocated read-rotate-write ends where the firmware sent its data.
        const int64_t written_at = rotate_write && request.relocate_lbn >= 0 ? request.relocate_lbn : int64_t(request.lbn);
        const disks::physical_address last = ds.geometry->to_physical(written_at + sectors - 1);
        if (write && !rotate_write && predictor.write_back_drive()) {
            // The drive takes the data into its cache and writes them to the media itself, right
            // after its command overhead: the firmware cannot see when, so it predicts that write
            // (the head ends on the last sector).
            predictor.expect_media_write(first, last, sectors, p.arrive_ms + p.overhead_ms);
        } else {
            // ...and whether the status came about a revolution late: a rotational miss, for the
            // slack's feedback loop. (A read-rotate-write spends a revolution by design; behind an
            // expected write-back media write the lateness is that guess's, not the positioning's.)
            if (!rotate_write && !p.after_expected_media_write) {
                const double expected = predictor.expected_status_ms(first, last, sectors, write, p.predicted);
                predictor.record_outcome(predictor.is_miss(done.status_ms - expected));
                stats.slack_sectors_sum += predictor.slack_sectors();
                ++stats.slack_samples;
            }
            predictor.command_ended_on(last);
            if (!write && !rotate_write)
                predictor.reading_ahead_from(done.status_ms - predictor.latency().read_after_media_ms(sectors));
        }
    }
    if (ds.predictor && ok) ds.predictor->command_done(write);
}

void reference_burst(disk_queues &queues, int d) {
    disk_queues::disk_state &ds = queues.state(d);
    firmware_platform &platform = queues.platform();
    head_position_predictor &predictor = *ds.predictor;
    // The reference sector: the disk's first LBN (any fixed, known sector serves).
    const disks::physical_address sector = ds.geometry->to_physical(0);
    std::vector<double> passes;
    const int reads = ds.calibration->reads_in_next_burst();
    for (int i = 0; i < reads && platform.powered(); ++i) {
        const double overhead_ms = predictor.command_overhead_ms(false);
        ds.reference_pending = true;
        ++queues.statistics().reference_reads;
        drive_request r;
        r.disk = d;
        r.lbn = 0;
        r.sectors = 1;
        r.force_unit_access = true;  // from the media, whatever the drive's cache holds
        const bool ok = queues.drive_command(r, 1);
        ds.reference_pending = false;
        if (!ok) continue;
        if (const auto pass = ds.calibration->pass_ms(ds.last_reference, overhead_ms)) passes.push_back(*pass);
    }
    if (!passes.empty())
        predictor.observe_reference_read(
            sector, spindle_calibration::least_delayed(passes, predictor.sector_end_angle(sector), predictor.period_ms()));
    ds.calibration->burst_done(platform.now_ms());
    ds.used_since_burst = false;
}

void run_reference_reader(disk_queues &queues) {
    firmware_platform &platform = queues.platform();
    platform.join_epoch(platform.power_epoch());
    // Before any command: each disk's calibration has held all its tags since construction.
    // The disks calibrate in parallel (their reads share only the channels and the CPU).
    platform.parallel(size_t(queues.disks()), [&queues](size_t d) {
        if (queues.state(int(d)).calibration) reference_burst(queues, int(d));
        return true;
    });
    for (int d = 0; d < queues.disks(); ++d)
        if (queues.state(d).calibration)
            for (int k = 0; k < queues.state(d).tags; ++k) queues.release_tag(d);
    for (;;) {
        // Bursts due on idle disks run here (those on busy disks before their next command:
        // calibrate_if_due); a disk unused since its last burst waits for its next command.
        const double now_ms = platform.now_ms();
        double next_ms = std::numeric_limits<double>::infinity();
        for (int d = 0; d < queues.disks() && platform.powered(); ++d) {
            disk_queues::disk_state &ds = queues.state(d);
            if (!ds.calibration || !ds.used_since_burst) continue;
            if (ds.calibration->due(now_ms) && ds.in_use == 0 && ds.queue.empty()) {
                platform.join_epoch(platform.power_epoch());
                ++ds.in_use;
                reference_burst(queues, d);
                queues.release_tag(d);
            } else if (!ds.calibration->due(now_ms)) {
                next_ms = std::min(next_ms, ds.calibration->next_due_ms());
            }
        }
        const double after_ms = platform.now_ms();
        if (!platform.powered() || next_ms == std::numeric_limits<double>::infinity())
            sc_core::wait(queues.activity());
        else if (next_ms > after_ms)
            sc_core::wait(sc_core::sc_time(next_ms - after_ms, sc_core::SC_MS));
    }
}

}  // namespace raidtlm::controller
