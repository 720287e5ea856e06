// sc_spawn needs the dynamic-process API, which <systemc> only declares when asked.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "testbench/workloads/workload_driver.h"
#include "controller/kit/data_token.h"

#include <algorithm>
#include <cmath>

namespace raidtlm::testbench {

struct workload_driver::worker {
    sc_core::sc_event go;
    host_request request;
    bool busy = false;
};

namespace {
constexpr size_t thread_stack_bytes = 128 * 1024;
double now_ms() { return sc_core::sc_time_stamp().to_seconds() * 1e3; }
}  // namespace

workload_driver::workload_driver(sc_core::sc_module_name name, const workload_config &config,
                                 workload_generator &generator, run_measurement &measurement,
                                 const driver_options &options)
    : sc_module(name),
      socket("socket"),
      m_config(config),
      m_generator(generator),
      m_measurement(measurement),
      m_options(options) {
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(thread_stack_bytes);
    if (config.arrival == arrival_process::closed) {
        for (int i = 0; i < config.outstanding; ++i)
            sc_core::sc_spawn([this, i] { client_loop(i); }, sc_core::sc_gen_unique_name("client"), &opts);
    } else {
        sc_core::sc_spawn([this] { arrival_loop(); }, "arrivals", &opts);
    }
}

workload_driver::~workload_driver() = default;

void workload_driver::trace(sc_core::sc_trace_file *tf, const std::string &prefix) const {
    waveforms::trace(tf, m_in_flight, prefix + ".in_flight");
}

bool workload_driver::issue(const host_request &r, int client) {
    tlm::tlm_generic_payload *gp = m_pool.acquire();
    gp->set_command(r.read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp->set_address(r.lbn * protocol::sector_bytes);
    auto *cmd = gp->get_extension<protocol::scsi_command>();
    cmd->lbn = r.lbn;
    cmd->blocks = r.sectors;
    std::vector<uint64_t> tokens;
    if (m_config.data_tokens) {
        // Writes: a token no earlier write of the sector carried; reads: filled by the array.
        tokens.resize(r.sectors);
        if (!r.read)
            for (uint32_t i = 0; i < r.sectors; ++i) tokens[i] = controller::make_token(int64_t(r.lbn + i), m_issued);
        gp->set_data_ptr(reinterpret_cast<unsigned char *>(tokens.data()));
        gp->set_data_length(uint64_t(r.sectors) * protocol::token_bytes);
        gp->set_streaming_width(uint64_t(r.sectors) * protocol::token_bytes);
    }
    const bool measured = m_measurement.measuring();
    const double issue_ms = now_ms();
    const uint64_t id = m_issued;
    cmd->host_request = int64_t(id);
    size_t slot = m_pending.size();
    if (m_free_slots.empty()) {
        m_pending.emplace_back();
    } else {
        slot = m_free_slots.back();
        m_free_slots.pop_back();
    }
    m_pending[slot] = {client, issue_ms, r.read, r.lbn, r.sectors, measured, id, true};
    ++m_issued;
    m_peak_in_flight = std::max<int>(m_peak_in_flight, ++m_in_flight);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(*gp, delay);
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    if (!m_pending[slot].live || m_pending[slot].id != id) return false;  // abandoned and counted meanwhile
    m_pending[slot].live = false;
    m_free_slots.push_back(slot);
    --m_in_flight;
    const bool ok = gp->is_response_ok();
    gp->release();
    const double done_ms = now_ms();
    ++m_completed;
    m_response_sum_ms += done_ms - issue_ms;
    if (m_options.progress) m_options.progress->tick(done_ms, m_measurement.completed_total() + 1);
    if (m_options.think) m_options.think->on_response(done_ms - issue_ms);
    if (m_options.log) m_options.log->add(issue_ms, done_ms, r.read, r.lbn, r.sectors, measured, ok);
    if (m_options.samples && m_options.samples->due(done_ms)) m_options.sample(done_ms);
    if (m_measurement.complete(measured, r.read, r.sectors, issue_ms, done_ms, ok)) {
        sc_core::sc_stop();
    } else if (m_source_done && m_in_flight == 0 && m_dispatched == 0) {
        m_measurement.finish(done_ms);
        sc_core::sc_stop();
    }
    return true;
}

size_t workload_driver::abandon_in_flight() {
    const double now = now_ms();
    std::vector<pending_issue *> in_flight;  // in issue order
    for (size_t k = 0; k < m_pending.size(); ++k)
        if (m_pending[k].live) {
            in_flight.push_back(&m_pending[k]);
            m_pending[k].live = false;
            m_free_slots.push_back(k);
        }
    std::sort(in_flight.begin(), in_flight.end(), [](const auto *a, const auto *b) { return a->id < b->id; });
    const size_t n = in_flight.size();
    bool done = false;
    std::vector<int> clients;
    for (const pending_issue *q : in_flight) {
        const pending_issue &p = *q;
        --m_in_flight;
        ++m_completed;
        ++m_abandoned;
        if (m_options.log) m_options.log->add(p.issue_ms, now, p.read, p.lbn, p.sectors, p.measured, false);
        done = m_measurement.complete(p.measured, p.read, p.sectors, p.issue_ms, now, false) || done;
        if (p.client >= 0) clients.push_back(p.client);
    }
    if (done) {
        sc_core::sc_stop();
        return n;
    }
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(thread_stack_bytes);
    for (int c : clients)
        sc_core::sc_spawn([this, c] { client_loop(c); }, sc_core::sc_gen_unique_name("client"), &opts);
    if (m_source_done && m_in_flight == 0 && m_dispatched == 0) {
        m_measurement.finish(now);
        sc_core::sc_stop();
    }
    return n;
}

void workload_driver::client_loop(int client) {
    if (!m_options.think && !within_kernel_time(m_config.think_time_ms)) return;
    const sc_core::sc_time think = sc_core::sc_time(m_config.think_time_ms, sc_core::SC_MS);
    while (!m_measurement.done()) {
        if (!issue(m_generator.next(client), client)) return;  // abandoned: a new client took over
        if (m_measurement.done()) break;
        if (m_options.think) {
            const double z = m_options.think->next_ms();
            if (!within_kernel_time(z)) return;
            if (z > 0) sc_core::wait(sc_core::sc_time(z, sc_core::SC_MS));
        } else if (think > sc_core::SC_ZERO_TIME) {
            if (!within_kernel_time(m_config.think_time_ms)) return;  // the run may end beyond the range
            sc_core::wait(think);
        }
    }
}

bool workload_driver::next_arrival(double &delay_ms, host_request &r) {
    if (m_options.trace) {
        double at_ms;
        if (!m_options.trace->next(at_ms, r)) return false;
        delay_ms = std::max(0.0, at_ms - now_ms());
        return true;
    }
    delay_ms = m_generator.next_interarrival_ms(now_ms());
    if (std::isinf(delay_ms)) return false;
    r = m_generator.next();
    return true;
}

bool workload_driver::within_kernel_time(double delay_ms) {
    // sc_time(ms) of a value past the range wraps or saturates silently (1e300 ms ran as
    // 9,223,372 s simulated, issue 13), so the run stops here instead.
    const double limit_ms = sc_core::sc_max_time().to_seconds() * 1e3;
    if (delay_ms <= limit_ms - now_ms()) return true;
    if (m_beyond_kernel_time_ms == 0) {  // the first thread to get there stops the run
        m_beyond_kernel_time_ms = now_ms() + delay_ms;
        sc_core::sc_stop();
    }
    return false;
}

void workload_driver::arrival_loop() {
    try {
        while (!m_measurement.done()) {
            double delay_ms;
            host_request r;
            if (!next_arrival(delay_ms, r)) break;
            if (!within_kernel_time(delay_ms)) return;
            sc_core::wait(sc_core::sc_time(delay_ms, sc_core::SC_MS));
            if (m_measurement.done()) return;
            if (m_in_flight >= m_max_in_flight) {
                m_overloaded = true;
                sc_core::sc_stop();
                return;
            }
            dispatch(r);
        }
    } catch (const trace_error &e) {
        m_error = e.what();
        sc_core::sc_stop();
        return;
    }
    if (m_measurement.done()) return;
    m_source_done = true;
    if (m_in_flight == 0 && m_dispatched == 0) {
        m_measurement.finish(now_ms());
        sc_core::sc_stop();
    }
}

void workload_driver::dispatch(const host_request &r) {
    ++m_dispatched;
    if (m_idle.empty()) {
        sc_core::sc_spawn_options opts;
        opts.set_stack_size(thread_stack_bytes);
        m_workers.push_back(std::make_unique<worker>());
        worker *w = m_workers.back().get();
        w->request = r;
        w->busy = true;
        // The new thread starts with its request already assigned.
        sc_core::sc_spawn([this, w] { worker_loop(w); }, sc_core::sc_gen_unique_name("worker"), &opts);
    } else {
        worker *w = m_idle.back();
        m_idle.pop_back();
        w->request = r;
        w->busy = true;
        w->go.notify();
    }
}

void workload_driver::worker_loop(worker *w) {
    for (;;) {
        while (!w->busy) sc_core::wait(w->go);
        --m_dispatched;
        if (!issue(w->request)) return;  // abandoned: this worker's request never comes back
        w->busy = false;
        m_idle.push_back(w);
    }
}

}  // namespace raidtlm::testbench
