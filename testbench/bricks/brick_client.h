// A client of one replica group of storage bricks (Lumb 6.1): a closed loop with zero think
// time keeping `outstanding` requests in flight, drawn by a workload_generator (sizes, LBNs,
// reads and writes) over the group's data (one disk's capacity: every brick of the group holds
// a full copy). Each request goes to a brick of the group chosen uniformly at random (the
// entry brick, which forwards as its policy says; LARD: always the first brick); the client takes the first completion of a
// request and squashes any duplicate (Lumb 4.1.1).
//
// The centralized ideal has no bricks: the client reaches its group's controller through the
// controller's host socket, paying a one-way network latency plus the message's wire time each
// way (not contended on the switch: a departure, named).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "rtl_models/network/network_interface.h"
#include "testbench/workloads/random.h"
#include "testbench/workloads/workload_generator.h"

namespace raidtlm::testbench {

// Completions across all clients: warm-up, then the measured requests; sc_stop at the end.
struct bricks_measurement {
    uint64_t warmup = 0, requests = 0;
    uint64_t completed = 0, measured = 0, measured_reads = 0;
    double response_sum_ms = 0, start_s = 0, end_s = 0;
    uint64_t duplicates_squashed = 0;
    std::function<void()> on_warmup_end;
    void complete(double response_ms, bool write);
    bool done() const { return measured >= requests; }
};

struct brick_client_config {
    int outstanding = 16;
    std::vector<int> group_ports;  // the bricks of the group (network mode)
    bool one_entry_brick = false;  // every request to the group's first brick (LARD's dispatcher)
    uint32_t control_message_bytes = 50;
    double one_way_latency_ms = 0.05;  // central mode
    double port_mb_per_s = 125;        // central mode: the wire time of each message
    uint64_t seed = 1;
};

class brick_client : public sc_core::sc_module {
public:
    // nic: the client's network port (nullptr: central mode, through `central`'s socket).
    brick_client(sc_core::sc_module_name name, const brick_client_config &config, workload_generator &generator,
                 bricks_measurement &measurement, rtl_models::network_port *nic);
    // Central mode only: bound to the group's controller host socket.
    std::unique_ptr<tlm_utils::simple_initiator_socket<brick_client>> central;
    int in_flight() const { return m_in_flight; }
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    SC_HAS_PROCESS(brick_client);
    void loop();
    void receive();
    bool request_over_network(uint64_t id, const host_request &r);
    bool request_to_controller(const host_request &r);

    brick_client_config m_config;
    workload_generator &m_generator;
    bricks_measurement &m_measurement;
    rtl_models::network_port *m_nic;
    random_source m_entry;
    uint64_t m_next_id;
    struct waiting {
        bool done = false;
        sc_core::sc_event event;
    };
    std::unordered_map<uint64_t, waiting *> m_waiting;
    int m_in_flight = 0;
};

}  // namespace raidtlm::testbench
