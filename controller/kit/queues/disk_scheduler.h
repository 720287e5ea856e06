// The per-disk scheduler's choice functions: which queued request (and which of its placements)
// the disk serves next, given the firmware's prediction of where the head is.
//
//   fcfs    oldest first (queue order)
//   sstf    shortest seek (cylinder distance) first
//   look    elevator: nearest cylinder in the sweep direction, reversing at the last request;
//           within a cylinder, LBN order in the sweep direction
//   c_look  one-way elevator: upwards, then back to the lowest cylinder
//   cvscan  V-SCAN(R) (Geist and Daniel): cylinder distance plus R * cylinders for requests
//           behind the sweep; R = 0 is SSTF, R = 1 close to LOOK
//   satf    shortest access time (positioning + rotational latency) first, primary placement
//   rlook   LOOK over all placements; in the chosen cylinder, the rotationally closest
//           placement of any request there (Yu et al.'s RLOOK)
//   rsatf   shortest access time over every placement of every request (RSATF)
//
// The rotation-aware policies ask an access_time_oracle (the head-position predictor), whose
// times already count a revolution for placements within the predictor's slack. Every
// decision reports its cost as the number of (request, placement) entries it examined, so the
// CPU can be charged a + b * entries cycles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "controller/kit/queues/queued_request.h"

namespace raidtlm::controller {

enum class scheduling_policy { fcfs, sstf, look, c_look, cvscan, satf, rlook, rsatf };
std::string to_string(scheduling_policy p);
// "fcfs", "sstf", "look", "c-look", "cvscan", "satf", "rlook", "rsatf"; throws
// std::invalid_argument naming the accepted names.
scheduling_policy parse_scheduling_policy(const std::string &name);
bool is_replica_aware(scheduling_policy p);

class access_time_oracle {
public:
    virtual ~access_time_oracle() = default;
    // Cylinder the head is on when the next request starts.
    virtual int head_cylinder() const = 0;
    // Predicted time from the start of the request until its first sector is under the head.
    virtual double access_ms(const placement &p, bool write) const = 0;
};

struct scheduling_decision {
    size_t request = 0;    // index into the queue
    size_t placement = 0;  // index into that request's placements
    uint64_t entries_examined = 0;
};

class disk_scheduler {
public:
    struct config {
        scheduling_policy policy = scheduling_policy::fcfs;
        double cvscan_r = 0.2;
        int cylinders = 1;  // of the disk, for V-SCAN(R)'s bias
    };
    explicit disk_scheduler(const config &cfg) : m_cfg(cfg) {}
    virtual ~disk_scheduler() = default;

    // Nothing for an empty queue. Updates the sweep direction. A scheduler plug-in
    // (plugins.h: scheduler_factory) derives and overrides this.
    virtual std::optional<scheduling_decision> choose(const std::vector<queued_request> &queue,
                                                      const access_time_oracle &oracle);

    scheduling_policy policy() const { return m_cfg.policy; }
    bool sweeping_up() const { return m_up; }

private:
    scheduling_decision elevator(const std::vector<queued_request> &queue, int head, bool all_placements,
                                 const access_time_oracle &oracle);
    scheduling_decision circular(const std::vector<queued_request> &queue, int head);
    scheduling_decision shortest_seek(const std::vector<queued_request> &queue, int head, double behind_penalty_cyl);
    scheduling_decision shortest_access(const std::vector<queued_request> &queue, bool all_placements,
                                        const access_time_oracle &oracle);

    config m_cfg;
    bool m_up = true;
};

}  // namespace raidtlm::controller
