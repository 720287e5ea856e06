// Drives host requests from a workload_generator (or a trace) into an initiator socket and reports
// each completion to a run_measurement; stops the simulation (sc_stop) when the measurement is done.
//   closed  `outstanding` client threads, each: issue, wait for completion, think, repeat. Client i
//           asks the generator for stream i (the streams address pattern). Think times come from
//           a think_time_source when one is given (distributions, tuning to a target throughput),
//           else they are the constant think_time_ms.
//   open    arrivals from one thread, at the generator's times (Poisson, or a rate schedule) or
//           at a trace_source's times; each request is handed to an idle worker thread of a pool
//           that grows to the peak number in flight (no thread spawned per request). More than
//           max_in_flight() in flight means the disks cannot keep up: the simulation stops and
//           overloaded() says so. When the source runs dry (end of the trace, a final rate of 0)
//           the run ends once everything issued has completed. A trace error stops the
//           simulation and is kept in error().
// Every completion also goes to the optional request log and, when a timeline sample is due, to
// the sample callback. Payloads come from a payload_pool and carry no data (timing only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "testbench/workloads/distributions.h"
#include "tlm/payload_pool.h"
#include "testbench/measurement/progress_meter.h"
#include "testbench/measurement/request_log.h"
#include "testbench/bench/run_measurement.h"
#include "testbench/measurement/timeline.h"
#include "testbench/workloads/trace_formats.h"
#include "testbench/workloads/workload_generator.h"
#include "waveforms/traced_value.h"

namespace raidtlm::testbench {

using protocol::payload_pool;
// Optional parts of a driver; each must outlive the simulation.
struct driver_options {
    progress_meter *progress = nullptr;
    think_time_source *think = nullptr;  // closed loop
    trace_source *trace = nullptr;       // replaces the generator's arrivals and requests
    request_log *log = nullptr;
    timeline *samples = nullptr;         // sampled through `sample` when due
    std::function<void(double now_ms)> sample;
};

class workload_driver : public sc_core::sc_module {
public:
    static constexpr int default_max_in_flight = 10000;

    tlm_utils::simple_initiator_socket<workload_driver> socket;

    // The generator and measurement must outlive the simulation.
    workload_driver(sc_core::sc_module_name name, const workload_config &config, workload_generator &generator,
                    run_measurement &measurement, const driver_options &options = {});
    ~workload_driver() override;

    uint64_t issued() const { return m_issued; }
    int in_flight() const { return m_in_flight; }
    int peak_in_flight() const { return m_peak_in_flight; }
    int workers() const { return static_cast<int>(m_workers.size()); }
    bool overloaded() const { return m_overloaded; }
    int max_in_flight() const { return m_max_in_flight; }
    void set_max_in_flight(int n) { m_max_in_flight = n; }
    // Completions so far (warm-up included) and the sum of their response times, ms.
    uint64_t completed() const { return m_completed; }
    double response_sum_ms() const { return m_response_sum_ms; }
    // A trace error that stopped the run ("" if none).
    const std::string &error() const { return m_error; }
    // The arrival or think time (ms of simulated time) that would have passed the kernel's time
    // range (sc_max_time()) and stopped the run; 0 if none.
    double beyond_kernel_time_ms() const { return m_beyond_kernel_time_ms; }

    // A power loss took the controller's requests in flight (and those that arrived while the
    // power was off) with it: the host counts each as failed now, and a closed loop's clients go
    // on with new requests. Returns how many were abandoned.
    size_t abandon_in_flight();
    uint64_t abandoned() const { return m_abandoned; }
    // Traces "<prefix>.in_flight": requests issued and not yet completed.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) const;

private:
    struct worker;

    void client_loop(int client);
    void arrival_loop();
    bool next_arrival(double &delay_ms, host_request &r);
    void dispatch(const host_request &r);
    void worker_loop(worker *w);
    // Whether now + delay_ms is a time the kernel can represent; if not, stops the run.
    bool within_kernel_time(double delay_ms);
    // false: the request was abandoned (abandon_in_flight) before its response came.
    bool issue(const host_request &r, int client = -1);
    struct pending_issue {
        int client;
        double issue_ms;
        bool read;
        uint64_t lbn;
        uint32_t sectors;
        bool measured;
        uint64_t id;  // issue number: a slot reused after an abandon holds another
        bool live;
    };

    workload_config m_config;
    workload_generator &m_generator;
    run_measurement &m_measurement;
    driver_options m_options;
    payload_pool m_pool;
    std::vector<std::unique_ptr<worker>> m_workers;
    std::vector<worker *> m_idle;
    uint64_t m_issued = 0;
    waveforms::traced_int m_in_flight = 0;  // traced
    int m_peak_in_flight = 0;
    bool m_overloaded = false;
    bool m_source_done = false;
    int m_dispatched = 0;  // handed to a worker that has not issued it yet
    int m_max_in_flight = default_max_in_flight;
    uint64_t m_completed = 0;
    double m_response_sum_ms = 0;
    std::string m_error;
    double m_beyond_kernel_time_ms = 0;
    // Requests in flight, in reusable slots (no allocation per request on the hot path).
    std::vector<pending_issue> m_pending;
    std::vector<size_t> m_free_slots;
    uint64_t m_abandoned = 0;
};

}  // namespace raidtlm::testbench
