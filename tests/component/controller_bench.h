// A controller with real drives behind it and a host tester in front: the bench of the controller
// component tests.
#pragma once

#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "component_support.h"
#include "controller/controller_top.h"
#include "disks/disk_drive.h"

namespace component_test {

struct controller_bench {
    std::vector<std::unique_ptr<raidtlm::disks::disk_drive>> drives;
    std::unique_ptr<raidtlm::controller::controller_top> ctl;
    host_tester host{"tester"};

    controller_bench(int n, const raidtlm::controller::controller_config &config,
                     const raidtlm::disks::disk_spec &spec = cheetah()) {
        std::vector<raidtlm::controller::disk_info> infos;
        for (int i = 0; i < n; ++i) {
            raidtlm::disks::drive_options o;
            o.spindle_phase = 0.13 * i;
            drives.push_back(std::make_unique<raidtlm::disks::disk_drive>(sc_core::sc_gen_unique_name("disk"), spec, o));
            infos.push_back({uint64_t(drives.back()->capacity_blocks()), spec.interface.max_queue_length});
        }
        ctl = std::make_unique<raidtlm::controller::controller_top>("controller", config, infos);
        for (int i = 0; i < n; ++i) ctl->disk[size_t(i)].bind(drives[size_t(i)]->target);
        host.socket.bind(ctl->host);
    }
};

// Runs `body` on the bench's host thread and the simulation to its end; the body must have
// finished (an ASSERT inside stops it early and fails here).
template <class Fn>
void run_to_end(controller_bench &b, Fn body) {
    bool done = false;
    b.host.spawn([&] {
        body();
        done = true;
    });
    sc_core::sc_start();
    EXPECT_TRUE(done);
}

// run_to_end, and the scoreboard saw no integrity error.
template <class Fn>
void run_clean(controller_bench &b, Fn body) {
    run_to_end(b, body);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

}  // namespace component_test
