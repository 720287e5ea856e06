// The storage-brick topology of `raidtlm run` when bricks.count > 0 (Lumb chapters 5-6): a
// switched network (rtl_models::network_switch), `count` bricks, each a controller platform
// (controller_top) with one disk of disks.spec and a network interface, running the brick
// firmware of bricks.distribution (dsptf, brick_hashing, brick_weighted_hashing), in replica
// groups of bricks.replicas consecutive bricks; one client per group on the network
// (brick_client). Ports: bricks 0 .. count-1, then the clients.
// bricks.distribution central is Lumb's centralized ideal, "a centralized version of D-SPTF (via
// a single outside-the-disk SPTF across disks)" (5.2): the group's bricks run dsptf as parts of
// one controller (their forwards and claims cross no network, network_config::controller_of_port,
// and wait no latency), so every disk schedules from the group's whole queue with current
// knowledge; their caches together are the group's one cache. Clients still reach it over the
// network. array_controller replaces each group's bricks by one controller with the group's
// disks (raid1: every disk a full copy, the replicated firmware with controller.scheduler,
// writing through to the disks: the conventional array of Lumb 5.2's last paragraph), which its
// client reaches directly (brick_client.h).
//
// Module names: network, brickN (its controller), brickN.nic, diskN, clientG (+ .nic), or
// groupG (array_controller).
// bricks.slow_replica_speed < 1 gives the last replica of each group a slower copy of the drive
// (slowed_disk_spec.h; Lumb Table 6.5).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "controller/platform/controller_top.h"
#include "disks/disk_drive.h"
#include "rtl_models/network/network_interface.h"
#include "rtl_models/network/network_switch.h"
#include "testbench/bricks/brick_client.h"
#include "testbench/scenario/scenario.h"
#include "testbench/workloads/workload_generator.h"

namespace raidtlm::testbench {

class bricks_bench : public sc_core::sc_module {
public:
    // Throws scenario_error for a configuration the bricks cannot run.
    bricks_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
                 bricks_measurement &measurement);
    ~bricks_bench() override;

    int groups() const { return int(m_clients.size()); }
    // Everything measured after the warm-up, for stats.json's "bricks".
    nlohmann::json report() const;
    void trace(sc_core::sc_trace_file *tf);

private:
    const scenario &m_scenario;
    bricks_measurement &m_measurement;
    std::unique_ptr<disks::disk_spec> m_slow_spec;  // bricks.slow_replica_speed < 1
    std::unique_ptr<rtl_models::network_switch> m_network;
    std::vector<std::unique_ptr<disks::disk_drive>> m_disks;
    std::vector<std::unique_ptr<controller::controller_top>> m_controllers;  // bricks, or one per group
    std::vector<std::unique_ptr<rtl_models::network_interface>> m_nics;      // bricks, then clients
    std::vector<std::unique_ptr<workload_generator>> m_generators;
    std::vector<std::unique_ptr<brick_client>> m_clients;
    std::vector<double> m_disk_busy_at_warmup_ms;
    std::vector<uint64_t> m_disk_reads_at_warmup;
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<bricks_bench>>> m_idle_hosts;
};

}  // namespace raidtlm::testbench
