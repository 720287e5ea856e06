// controller_top's internal state shared by the files of its firmware (controller_top.cpp,
// replicated_firmware.cpp, parity_firmware.cpp): the per-disk firmware queue and the channel DMA.
// Not part of the controller's interface.
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "controller/controller_top.h"
#include "rtl_models/sim_time.h"

namespace raidtlm::controller {

struct controller_top::disk_state {
    struct waiter {
        sc_core::sc_event go;
        bool granted = false;
        size_t placement = 0;  // the placement the scheduler picked
        uint64_t n = 0;  // entries the scheduling decision looked at
        queued_request request;
        // A request duplicated into several holders' queues: its id in the tracker, this copy's
        // holder index, and the waiter the requesting thread waits on (told the holder granted).
        uint64_t dup = 0;
        size_t holder = 0;
        waiter *primary = nullptr;
        size_t granted_holder = 0;
    };
    // The firmware's idea of the head: where the disk's last command ended.
    struct head_oracle final : access_time_oracle {
        int cylinder = 0;
        int head_cylinder() const override { return cylinder; }
        double access_ms(const placement &p, bool) const override { return std::abs(p.first.cyl - cylinder); }
    };
    int channel = 0;
    int target = 0;
    int tags = 1;
    int in_use = 0;
    std::deque<waiter *> queue;
    const disks::disk_layout *geometry = nullptr;
    std::unique_ptr<disk_scheduler> scheduler;  // none: first come, first served
    head_oracle head;
    // satf: the firmware's head-position predictor, and its estimate of the time from granting a
    // tag to the command reaching the drive (controller and bus; learned from completions; the
    // drive's own command overhead, which depends on the kind of command, the predictor adds).
    std::unique_ptr<head_position_predictor> predictor;
    double start_offset_ms = 0;
    bool start_offset_learned = false;
    // Reference reads: when the disk's last command ended, whether a reference read followed
    // (nothing to re-anchor until the next command), and whether one is at the drive now.
    double last_activity_ms = 0;
    bool referenced = true;
    bool reference_pending = false;
    std::vector<queued_request> snapshot;  // the queue as the scheduler sees it
    uint64_t next_id = 0;
};

// Adds a piece, merged with an earlier one contiguous both on the disk and in the request (as
// host_address_map does; other pieces stay separate commands since their data are not contiguous
// in the buffer).
inline void add_fragment(std::vector<disk_fragment> &out, const disk_fragment &f) {
    for (auto &o : out)
        if (o.disk == f.disk && o.lbn + o.sectors == f.lbn && o.host_offset + o.sectors == f.host_offset) {
            o.sectors += f.sectors;
            return;
        }
    out.push_back(f);
}


}  // namespace raidtlm::controller
