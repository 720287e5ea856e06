#include "controller/predictor_feed.h"

#include <algorithm>
#include <limits>

namespace raidtlm::controller {

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
    const uint64_t lbn = request.lbn;
    const uint32_t sectors = request.sectors;
    const protocol::access_timing &tm = done.drive_timing_for_legacy_predictor;
    if (ds.reference_pending) {
        // The reference sector passed under the head when the read ended: re-anchor on it.
        if (ok && tm.media_accessed)
            ds.predictor->observe_reference_read(ds.geometry->to_physical(int64_t(lbn)),
                                                 tm.media_end.to_seconds() * 1e3);
    } else if (ds.predictor && ok && tm.write_back) {
        // The drive took the data into its cache and writes them to the media itself, right after
        // its command overhead: the firmware cannot see when, so it predicts that write (the head
        // ends on the last sector) instead of learning from this completion.
        ds.predictor->expect_media_write(ds.geometry->to_physical(int64_t(lbn)),
                                         ds.geometry->to_physical(int64_t(lbn + sectors) - 1), int(sectors),
                                         p.arrive_ms + p.overhead_ms);
    } else if (ds.predictor && ok && tm.media_accessed) {
        // Learn from the completion: the head is on the reported track just past the last sector.
        disks::physical_address last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
        last.cyl = int(tm.end_cylinder);
        last.head = int(tm.end_head);
        const double media_end_ms = tm.media_end.to_seconds() * 1e3;
        const double actual_ms = (tm.seek + tm.rotation).to_seconds() * 1e3;
        const double period = ds.predictor->period_ms();
        if (!request.old_tokens && !p.after_expected_media_write) {
            // When the drive started positioning: before the seek, the rotational wait and the
            // media transfer of the sectors (one track's worth of sectors per revolution); before
            // that, its command overhead. (Not when an expected media write may have held it.)
            const double xfer_ms = double(sectors) * period / ds.geometry->sectors_per_track(last.cyl);
            const double offset = media_end_ms - xfer_ms - actual_ms - p.overhead_ms - p.granted_ms;
            ds.start_offset_ms =
                ds.start_offset_learned ? ds.start_offset_ms + 0.1 * (offset - ds.start_offset_ms) : offset;
            ds.start_offset_learned = true;
        }
        ds.predictor->record(p.predicted.access_ms(), actual_ms);
        // (The predicted vs actual statistics are the platform's probe: drive_request::predicted_access_ms.)
        stats.slack_sectors_sum += ds.predictor->slack_sectors();
        ++stats.predictions_learned;
        ds.predictor->observe_completion(last, media_end_ms);
    }
    if (ds.predictor && ok) ds.predictor->command_done(write);
}

void run_reference_reader(disk_queues &queues, firmware_platform &platform, double interval_ms) {
    for (;;) {
        // The next disk that will have been idle for the interval (none: wait for a command).
        double next_ms = std::numeric_limits<double>::infinity();
        for (int d = 0; d < queues.disks(); ++d) {
            const disk_queues::disk_state &ds = queues.state(d);
            if (!ds.referenced) next_ms = std::min(next_ms, ds.last_activity_ms + interval_ms);
        }
        const double now_ms = platform.now_ms();
        // Nothing due, or due on a disk still busy (its completion moves its idle start): wait.
        if (!platform.powered() || next_ms <= now_ms || next_ms == std::numeric_limits<double>::infinity())
            sc_core::wait(queues.activity());
        else if (next_ms > now_ms)
            sc_core::wait(sc_core::sc_time(next_ms - now_ms, sc_core::SC_MS), queues.activity());
        for (int d = 0; d < queues.disks() && platform.powered(); ++d) {
            disk_queues::disk_state &ds = queues.state(d);
            if (ds.referenced || ds.in_use > 0 || !ds.queue.empty() ||
                platform.now_ms() - ds.last_activity_ms < interval_ms - 1e-9)
                continue;
            // The reference sector: the disk's first LBN (any fixed, known sector serves).
            platform.join_epoch(platform.power_epoch());
            ++ds.in_use;
            ds.reference_pending = true;
            ++queues.statistics().reference_reads;
            drive_request r;
            r.disk = d;
            r.lbn = 0;
            r.sectors = 1;
            queues.drive_command(r, 1);
            ds.reference_pending = false;
            ds.referenced = true;
            queues.release_tag(d);
        }
    }
}

}  // namespace raidtlm::controller
