// What feeds the firmware's head-position predictor, in one place: the prediction made before a
// drive command, what is learnt from its completion, and the spindle calibration by reference
// reads (Yu et al. 3.2's head tracking). Only disk_queues and firmware_kit call it.
//
// Everything here is what real firmware has: the drive's datasheet (the predictor's geometry,
// seek profile, overheads; drive_latency), the requests it sent and the times its own hardware
// observed (drive_completion: command delivered, status seen). Nothing of the drive's internal
// timing: the spindle's phase and period come only from reference reads
// (spindle_calibration), and from an ordinary command the firmware learns the time from tag
// grant to delivery and whether the status came about a revolution late (a rotational miss,
// for the slack's feedback loop).
#pragma once

#include "controller/kit/queues/disk_queues.h"

namespace raidtlm::controller {

struct pending_prediction {
    access_prediction predicted;
    double granted_ms = 0, arrive_ms = 0, overhead_ms = 0;
    bool after_expected_media_write = false;
};

// Before a command on disk d, whose tag the caller holds: a calibration that fell due while the
// disk was busy runs first, on this tag. (One that fell due while it was idle runs from the
// reference reader.)
void calibrate_if_due(disk_queues &queues, int d);
// Before the command (its tag granted now): the firmware's prediction, also attached to the
// request for the platform's prediction probe.
pending_prediction predict_before_command(disk_queues::disk_state &ds, drive_request &request, double now_ms);
// After its completion: from the controller-side times of `done` only.
void learn_after_command(disk_queues::disk_state &ds, const drive_request &request, const drive_completion &done,
                         const pending_prediction &p, disk_queue_statistics &stats);
// A burst of FUA reads of disk d's reference sector (the caller holds a tag of the disk), from
// which its predictor re-anchors the phase and re-measures the period.
void reference_burst(disk_queues &queues, int d);
// The reference reader's thread body (never returns). First every disk's start-up burst, in
// parallel, on the tags the disk has held since construction (no command goes before its
// calibration); then the periodic bursts that fall due on idle disks that were used since their
// last one (those due on busy disks run before their next command: calibrate_if_due).
void run_reference_reader(disk_queues &queues);

}  // namespace raidtlm::controller
