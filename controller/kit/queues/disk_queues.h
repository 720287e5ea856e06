// The firmware's per-disk command queues: a drive's tags (commands outstanding at it), the
// commands waiting for one, the scheduler that picks the next (controller.scheduler, from the
// scheduler registry) and, for rotation-aware schedulers, the head-position predictor fed by
// predictor_feed.cpp. Requests a replicated layout may serve from several disks are queued on
// every holder and cancelled on the others when one disk schedules them (acquire_any).
//
// Used by every firmware family (firmware_kit owns one); a family that keeps delayed work per
// disk hooks `on_idle` (a disk's queue emptied with a tag free).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "controller/kit/queues/disk_scheduler.h"
#include "controller/kit/queues/duplicate_request_tracker.h"
#include "controller/firmware_api/firmware_api.h"
#include "controller/kit/predict/head_position_predictor.h"
#include "controller/kit/predict/spindle_calibration.h"
#include "controller/kit/queues/queued_request.h"
#include "disks/disk_layout.h"
#include "rtl_models/common/resource_stats.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

struct disk_queue_statistics {
    rtl_models::wait_stats tag_wait;  // a command waiting in the firmware's per-disk queue
    // Requests queued on every holder's disk (mirror reads, first writes) and the copies cancelled.
    uint64_t duplicated_requests = 0;
    uint64_t cancelled_duplicates = 0;
    // The predictors' slack at each command whose outcome fed their feedback loop, and how many.
    double slack_sectors_sum = 0;
    uint64_t slack_samples = 0;
    uint64_t reference_reads = 0;     // the predictors' calibration reads (start-up and periodic)
    uint64_t read_rotate_writes = 0;  // drive commands issued as read-rotate-write
};

class disk_queues {
public:
    // A disk holding a copy of a chunk, with the placements there that can serve it.
    struct holder {
        int disk = 0;
        std::vector<placement> choices;
    };
    struct grant {
        size_t holder = 0, placement = 0;
        uint64_t n = 1;  // entries the scheduling decision examined
    };
    struct waiter {
        sc_core::sc_event go;
        bool granted = false;
        size_t placement = 0;  // the placement the scheduler picked
        uint64_t n = 0;        // entries the scheduling decision looked at
        queued_request request;
        // A request duplicated into several holders' queues: its id in the tracker, this copy's
        // holder index, and the waiter the requesting thread waits on (told the holder granted).
        uint64_t dup = 0;
        size_t holder = 0;
        waiter *primary = nullptr;
        size_t granted_holder = 0;
        double queued_s = 0;  // when it joined the queue (traced: the oldest waiter's age)
        // A request another controller may take first (a storage brick's D-SPTF read): its key
        // for cancel(), and whether it was cancelled instead of granted.
        uint64_t cancel_key = 0;
        bool cancelled = false;
    };
    // The firmware's idea of the head without a predictor: where the disk's last command ended.
    struct head_oracle final : access_time_oracle {
        int cylinder = 0;
        int head_cylinder() const override { return cylinder; }
        double access_ms(const placement &p, bool) const override { return std::abs(p.first.cyl - cylinder); }
    };
    struct disk_state {
        int channel = 0;
        int tags = 1;
        int in_use = 0;
        std::deque<waiter *> queue;
        const disks::disk_layout *geometry = nullptr;  // the firmware's copy (schedulers but fcfs)
        std::unique_ptr<disk_scheduler> scheduler;    // none: first come, first served
        head_oracle head;
        // The head-position predictor, and its estimate of the time from granting a tag to the
        // command reaching the drive (CPU work, bus arbitration and selection, timed on the
        // controller's own clock by predictor_feed.cpp; the drive's own command overhead, which
        // depends on the kind of command, the predictor adds).
        std::unique_ptr<head_position_predictor> predictor;
        double start_offset_ms = 0;
        bool start_offset_learned = false;
        // Reference reads: the calibration schedule, whether one is at the drive now and the
        // controller-side times of the last one.
        std::unique_ptr<spindle_calibration> calibration;
        bool reference_pending = false;
        bool used_since_burst = false;  // a disk nobody uses needs no periodic calibration
        reference_sample last_reference;
        std::vector<queued_request> snapshot;  // the queue as the scheduler sees it
        // The command a decision picks is sent this long after it (a brick's CLAIM wait): the
        // predictor ranks the queue for then.
        double issue_delay_ms = 0;
        // The next decision picks a waiter at random instead of asking the scheduler (a brick's
        // random backoff after a duplicate read, Lumb 7.1); cleared by that decision.
        bool pick_at_random_once = false;
        uint64_t random_state = 0x9e3779b97f4a7c15ULL;
        uint64_t next_id = 0;
        // Traced (trace()): commands queued, tags in use, the oldest waiter's age when the queue
        // last changed, and whether a command waits for a tag.
        waveforms::traced_int traced_queue_depth = 0, traced_tags_in_use = 0, traced_oldest_wait_us = 0;
        waveforms::traced_flag traced_tag_wait = false;
    };

    explicit disk_queues(firmware_platform &platform);
    ~disk_queues();

    int disks() const { return int(m_disk.size()); }
    disk_state &state(int d) { return m_disk[size_t(d)]; }
    const disk_state &state(int d) const { return m_disk[size_t(d)]; }
    bool predicts() const { return !m_disk.empty() && m_disk.front().predictor != nullptr; }
    firmware_platform &platform() { return m_platform; }

    // A tag on disk d for `sectors` at `lbn` (or, `choices` set, any of these placements: the
    // one picked goes to *chosen); returns the entries the decision examined.
    uint64_t acquire_tag(int d, uint64_t lbn, uint32_t sectors, bool write,
                         const std::vector<placement> *choices = nullptr, size_t *chosen = nullptr);
    // As acquire_tag, for a request that cancel(d, key) may withdraw while it waits (key != 0):
    // returns 0 then, else the entries the decision examined (>= 1).
    uint64_t acquire_tag_unless_cancelled(int d, uint64_t lbn, uint32_t sectors, bool write, uint64_t key);
    // Withdraws the waiting request `key` from disk d's queue; false when it is not queued.
    bool cancel(int d, uint64_t key);
    size_t queued(int d) const { return m_disk[size_t(d)].queue.size(); }
    void release_tag(int d);
    // The tag's holder still has its command at the disk but hands the tag on now: the next
    // waiter is picked (ranked for now + issue_delay_ms) and granted it, and the holder must not
    // release it. False, nothing changed: no request waits. (A storage brick's prescheduling
    // picks its next read two one-way latencies before the current command ends.)
    bool pass_tag(int d);
    // A tag on one of the holders: an idle one closest to its copy at once, else one with a free
    // tag, else the request is queued on every holder and the first disk to schedule it wins.
    grant acquire_any(const std::vector<holder> &holders, bool write);
    // The placements of chunk `c` on each disk holding it (but `failed`), one holder per disk.
    void holders_of(const chunk &c, int failed, std::vector<holder> &out) const;

    // The drive command itself on a granted tag (`n`: entries its decision examined): the CPU's
    // scheduling and command set-up, the command, the completion. The caller releases the tag.
    bool drive_command(drive_request request, uint64_t n);

    // Called when a disk's queue is empty and a tag was freed (delayed work may take it).
    std::function<void(int)> on_idle;
    // A drive command completed (the reference reader waits on it for disks to become idle).
    sc_core::sc_event &activity() { return m_activity; }

    // After a power loss: nothing queued, no tag in use.
    void restart();
    // Per disk: <prefix>.disk<i>.queue_depth, .tags_in_use, .oldest_wait_us (sampled at each
    // change of the queue), .tag_wait (1 bit: a command waits for a tag).
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);
    // When a command first waited for a tag while traced (-1: never).
    double first_tag_wait_s() const { return m_first_tag_wait_s; }
    const disk_queue_statistics &statistics() const { return m_stats; }
    disk_queue_statistics &statistics() { return m_stats; }
    void reset_statistics() { m_stats = disk_queue_statistics{}; }

private:
    scheduling_decision choose(disk_state &ds);
    // Removes the waiter the tag goes to from ds's queue (the scheduler's pick) and grants it.
    void grant_next(int d, disk_state &ds);
    void note_traced(disk_state &ds);  // after the queue or the tags in use changed
    uint64_t acquire(int d, uint64_t lbn, uint32_t sectors, bool write, const std::vector<placement> *choices,
                     size_t *chosen, uint64_t cancel_key);

    firmware_platform &m_platform;
    std::vector<disk_state> m_disk;
    std::vector<std::unique_ptr<disks::disk_layout>> m_geometries;  // one per distinct spec
    duplicate_request_tracker m_dups;
    uint64_t m_next_dup = 1;
    sc_core::sc_event m_activity;
    disk_queue_statistics m_stats;
    bool m_traced = false;
    double m_first_tag_wait_s = -1;
};

}  // namespace raidtlm::controller
