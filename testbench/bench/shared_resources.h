// The controller's shared resources as the timeline samples them (utilisation.png plots every
// one, not only the disks): the CPU (busy cores / cores), each SCSI channel, the XOR engine, the
// buffer DRAM's bandwidth, the NVRAM port and the host link. Each block counts its busy time in
// the measured window; this carries the count across the restart at the end of the warm-up so
// the timeline sees busy time since the start of the run, as it does for the disks.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "controller/platform/controller_top.h"

namespace raidtlm::testbench {

class shared_resources {
public:
    explicit shared_resources(const controller::controller_top &c);

    const std::vector<std::string> &names() const { return m_names; }
    // Busy ms since the start of the run of each resource, in names() order, appended to `out`.
    void append_busy_ms(std::vector<double> &out) const;
    // Call just before the blocks' statistics restart.
    void carry_over();

private:
    std::vector<std::string> m_names;
    std::vector<std::function<double()>> m_window_busy_ms;  // within the blocks' current window
    std::vector<double> m_carried_ms;
};

}  // namespace raidtlm::testbench
