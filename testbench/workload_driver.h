// Drives host requests from a workload_generator into an initiator socket and reports each
// completion to a run_measurement; stops the simulation (sc_stop) when the measurement is done.
//   closed  `outstanding` client threads, each: issue, wait for completion, think, repeat.
//   open    Poisson arrivals from one thread; each request is handed to an idle worker thread of
//           a pool that grows to the peak number in flight (no thread spawned per request). More
//           than max_in_flight() in flight means the disks cannot keep up: the simulation stops and
//           overloaded() says so.
// Payloads come from a payload_pool and carry no data (timing only).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/payload_pool.h"
#include "testbench/progress_meter.h"
#include "testbench/run_measurement.h"
#include "testbench/workload_generator.h"

namespace raidtlm::testbench {

using protocol::payload_pool;

class workload_driver : public sc_core::sc_module {
public:
    static constexpr int default_max_in_flight = 10000;

    tlm_utils::simple_initiator_socket<workload_driver> socket;

    // The generator, measurement and progress meter (may be null) must outlive the simulation.
    workload_driver(sc_core::sc_module_name name, const workload_config &config, workload_generator &generator,
                    run_measurement &measurement, progress_meter *progress = nullptr);
    ~workload_driver() override;

    uint64_t issued() const { return m_issued; }
    int in_flight() const { return m_in_flight; }
    int peak_in_flight() const { return m_peak_in_flight; }
    int workers() const { return static_cast<int>(m_workers.size()); }
    bool overloaded() const { return m_overloaded; }
    int max_in_flight() const { return m_max_in_flight; }
    void set_max_in_flight(int n) { m_max_in_flight = n; }
    // Traces "<prefix>.in_flight": requests issued and not yet completed.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) const;

private:
    struct worker;

    void client_loop();
    void arrival_loop();
    void worker_loop(worker *w);
    void issue(const host_request &r);

    workload_config m_config;
    workload_generator &m_generator;
    run_measurement &m_measurement;
    progress_meter *m_progress;
    payload_pool m_pool;
    std::vector<std::unique_ptr<worker>> m_workers;
    std::vector<worker *> m_idle;
    uint64_t m_issued = 0;
    int m_in_flight = 0;  // traced
    int m_peak_in_flight = 0;
    bool m_overloaded = false;
    int m_max_in_flight = default_max_in_flight;
};

}  // namespace raidtlm::testbench
