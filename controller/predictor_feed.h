// What feeds the firmware's head-position predictor, in one place: the prediction made before a
// drive command, what is learnt from its completion, and the reference-sector reads of idle
// disks (Yu et al. 3.2's head tracking). Only disk_queues calls it.
//
// TEMPORARY: the learning block still reads the drive's own timing breakdown through
// drive_completion::drive_timing_for_legacy_predictor; the honest predictor (issue 10 item 2)
// replaces this file's learning with controller-side completion times only.
#pragma once

#include "controller/disk_queues.h"

namespace raidtlm::controller {

struct pending_prediction {
    access_prediction predicted;
    double granted_ms = 0, arrive_ms = 0, overhead_ms = 0;
    bool after_expected_media_write = false;
};

// Before the command (its tag granted now): the firmware's prediction, also attached to the
// request for the platform's prediction probe.
pending_prediction predict_before_command(disk_queues::disk_state &ds, drive_request &request, double now_ms);
// After its completion.
void learn_after_command(disk_queues::disk_state &ds, const drive_request &request, const drive_completion &done,
                         const pending_prediction &p, disk_queue_statistics &stats);
// The reference reader's thread body (never returns): a disk idle for interval_ms after its last
// command gets a read of its reference sector, from which its predictor re-anchors the phase
// and re-measures the period.
void run_reference_reader(disk_queues &queues, firmware_platform &platform, double interval_ms);

}  // namespace raidtlm::controller
