#include "rtl_models/memory/buffer_dram.h"
#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"


#include <algorithm>
#include <cmath>
#include <limits>

namespace raidtlm::rtl_models {

namespace {
constexpr double done_bytes = 1e-3;  // below this a transfer is complete (floating-point slack)
}  // namespace

struct buffer_dram::flow {
    int port = 0;
    double remaining = 0;
    double cap = 0;
    double rate = 0;
    // Exact, so that a start a fraction of a picosecond ahead in doubles cannot schedule a wake-up
    // that rounds to zero time and loops in delta cycles (seen at ~2,000 s simulated).
    sc_core::sc_time start;
    double start_s = 0;
    double ideal_s = 0;  // duration alone at its cap
    bool active = false;
    bool finished = false;
    sc_core::sc_event *done = nullptr;  // blocking transfer
    dma_tracker *tracker = nullptr;     // transfer_at
    bool pooled = false;
};

struct buffer_dram::waiter {
    uint64_t bytes;
    sc_core::sc_event granted;
    bool ok = false;
};

buffer_dram::buffer_dram(sc_core::sc_module_name name, const dram_config &config, const std::vector<dram_port> &ports)
    : sc_module(name), port("port", ports.size()), space("space"), m_config(config), m_ports(ports) {
    for (size_t i = 0; i < ports.size(); ++i) port[i].register_b_transport(this, &buffer_dram::b_transport, int(i));
    space.bind(*this);
    m_stats.ports.resize(ports.size());
    m_grant.assign(ports.size(), false);
    SC_METHOD(on_wake);
    sensitive << m_wake;
    dont_initialize();
}

buffer_dram::~buffer_dram() = default;

int buffer_dram::port_index(const std::string &name) const {
    for (size_t i = 0; i < m_ports.size(); ++i)
        if (m_ports[i].name == name) return int(i);
    return -1;
}

// ---- buffer space ---------------------------------------------------------------------------

protocol::buffer_block *buffer_dram::allocate(uint64_t bytes, uint64_t token_sectors) {
    const uint64_t cap = m_config.capacity_bytes;
    if (cap && bytes > cap)
        SC_REPORT_FATAL("/raidtlm/rtl_models/buffer_dram", "a buffer larger than the whole DRAM was requested");
    const double t0 = now_s();
    if (cap && (!m_alloc_queue.empty() || m_used + bytes > cap)) {
        waiter w{bytes, {}, false};
        m_alloc_queue.push_back(&w);
        m_alloc_waiting = int(m_alloc_queue.size());
        while (!w.ok) sc_core::wait(w.granted);
    } else {
        m_used += bytes;
    }
    m_stats.alloc_wait.add(now_s() - t0);
    ++m_stats.allocations;
    set_occupancy(now_s());
    protocol::buffer_block *b;
    if (m_free_blocks.empty()) {
        m_block_pool.push_back(std::make_unique<protocol::buffer_block>());
        b = m_block_pool.back().get();
    } else {
        b = m_free_blocks.back();
        m_free_blocks.pop_back();
    }
    b->bytes = bytes;
    b->tokens.assign(token_sectors, 0);
    return b;
}

void buffer_dram::free(protocol::buffer_block *b) {
    m_used -= b->bytes;
    b->bytes = 0;
    m_free_blocks.push_back(b);
    // Grant waiting requests in order while they fit.
    size_t granted = 0;
    while (granted < m_alloc_queue.size() && m_used + m_alloc_queue[granted]->bytes <= m_config.capacity_bytes) {
        waiter *w = m_alloc_queue[granted++];
        m_used += w->bytes;
        w->ok = true;
        w->granted.notify(sc_core::SC_ZERO_TIME);
    }
    m_alloc_queue.erase(m_alloc_queue.begin(), m_alloc_queue.begin() + long(granted));
    m_alloc_waiting = int(m_alloc_queue.size());
    set_occupancy(now_s());
}

void buffer_dram::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    auto *r = gp.get_extension<buffer_request>();
    if (!r) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (r->what == buffer_request::action::allocate) r->block = allocate(r->bytes, r->token_sectors);
    else free(r->block);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void buffer_dram::set_occupancy(double now) {
    m_stats.occupancy_bytes.set(now, double(m_used));
    m_occupancy_kib = int(m_used >> 10);
}

void buffer_dram::power_fail() {
    for (auto &b : m_block_pool) std::fill(b->tokens.begin(), b->tokens.end(), poison_token);
}

void buffer_dram::power_restore() {
    m_used = 0;
    m_alloc_queue.clear();
    m_alloc_waiting = 0;
    m_free_blocks.clear();
    for (auto &b : m_block_pool) {
        b->bytes = 0;
        m_free_blocks.push_back(b.get());
    }
    set_occupancy(now_s());
}

// ---- bandwidth ------------------------------------------------------------------------------

void buffer_dram::b_transport(int p, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    auto *d = gp.get_extension<protocol::dma_command>();
    if (const auto *posted = gp.get_extension<posted_dma>(); d && posted && posted->tracker) {
        // Starts at now + delay; the caller does not wait for it.
        transfer_at(p, d->bytes, sc_core::sc_time_stamp() + delay, d->cap_bytes_per_s, *posted->tracker);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    protocol::wait_annotated(delay);
    if (!d) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    transfer(p, d->bytes, d->cap_bytes_per_s);
    protocol::move_dma_tokens(gp, *d);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Counts a transfer on port p; false when it takes no DRAM time (unlimited bandwidth, no bytes).
bool buffer_dram::costs_time(int p, uint64_t bytes) {
    dram_port_statistics &ps = m_stats.ports[size_t(p)];
    ++ps.transfers;
    if (!m_config.unlimited_bandwidth() && bytes > 0) return true;
    const double charged = double(m_config.charged_bytes(bytes));
    ps.bytes += charged;
    m_stats.bytes += charged;
    ps.wait.add(0);
    return false;
}

void buffer_dram::add_flow(flow &f, int p, uint64_t bytes, double cap, const sc_core::sc_time &start) {
    const double now = now_s();
    advance();
    const double charged = double(m_config.charged_bytes(bytes));
    const double bw = m_config.bandwidth_bytes_per_s();
    f.port = p;
    f.remaining = charged;
    f.cap = cap;
    f.start = std::max(sc_core::sc_time_stamp(), start);
    f.start_s = f.start.to_seconds();
    f.ideal_s = charged / (cap > 0 ? std::min(cap, bw) : bw);
    m_flows.push_back(&f);
    settle(now);
}

void buffer_dram::transfer(int p, uint64_t bytes, double cap) {
    if (!costs_time(p, bytes)) return;
    sc_core::sc_event done;
    flow f;
    f.done = &done;
    add_flow(f, p, bytes, cap, sc_core::sc_time_stamp());
    while (!f.finished) sc_core::wait(done);
}

void buffer_dram::transfer_at(int p, uint64_t bytes, const sc_core::sc_time &start, double cap, dma_tracker &t) {
    if (!costs_time(p, bytes)) return;
    flow *f;
    if (m_free_flows.empty()) {
        m_flow_pool.push_back(std::make_unique<flow>());
        f = m_flow_pool.back().get();
    } else {
        f = m_free_flows.back();
        m_free_flows.pop_back();
    }
    *f = flow{};
    f->pooled = true;
    f->tracker = &t;
    ++t.pending;
    add_flow(*f, p, bytes, cap, start);
}

// Moves every active transfer forward to the current time at its current rate.
// Durations come from integer kernel time: differences of seconds in doubles lose whole
// picoseconds past ~10^3 s simulated, and a step that moved nothing would never finish.
void buffer_dram::advance() {
    const sc_core::sc_time stamp = sc_core::sc_time_stamp();
    if (stamp > m_last) {
        const double dt = (stamp - m_last).to_seconds();
        std::vector<char> &moving = m_moving;
        moving.assign(m_ports.size(), 0);
        for (flow *f : m_flows) {
            if (!f->active || f->rate <= 0) continue;
            const double moved = std::min(f->remaining, f->rate * dt);
            f->remaining -= moved;
            m_stats.ports[size_t(f->port)].bytes += moved;
            m_stats.bytes += moved;
            moving[size_t(f->port)] = 1;
        }
        for (size_t i = 0; i < moving.size(); ++i)
            if (moving[i]) m_stats.ports[i].busy_s += dt;
    }
    m_last = std::max(m_last, stamp);
}

// Completes what is done, starts what is due, reshares the bandwidth, schedules the next change.
void buffer_dram::settle(double now) {
    const sc_core::sc_time stamp = sc_core::sc_time_stamp();
    for (size_t i = 0; i < m_flows.size();) {
        flow *f = m_flows[i];
        const bool complete = f->active && (f->remaining <= done_bytes || (f->rate > 0 && f->remaining / f->rate < sc_core::sc_get_time_resolution().to_seconds()));
        if (!complete) {
            if (!f->active && f->start <= stamp) f->active = true;
            ++i;
            continue;
        }
        m_stats.ports[size_t(f->port)].bytes += f->remaining;
        m_stats.bytes += f->remaining;
        m_stats.ports[size_t(f->port)].wait.add(std::max(0.0, (now - f->start_s) - f->ideal_s));
        f->finished = true;
        if (f->done) f->done->notify(sc_core::SC_ZERO_TIME);
        if (f->tracker) {
            if (--f->tracker->pending == 0) f->tracker->done.notify(sc_core::SC_ZERO_TIME);
        }
        if (f->pooled) m_free_flows.push_back(f);
        m_flows[i] = m_flows.back();
        m_flows.pop_back();
    }
    m_demands.clear();
    for (flow *f : m_flows)
        if (f->active) m_demands.push_back({m_ports[size_t(f->port)].priority, f->cap});
    share_bandwidth(m_config.bandwidth_bytes_per_s(), m_config.arbitration, m_demands, m_rates);
    sc_core::sc_time next = sc_core::sc_max_time();  // the first completion or start
    size_t k = 0;
    std::fill(m_grant.begin(), m_grant.end(), false);
    for (flow *f : m_flows) {
        if (f->active) {
            f->rate = m_rates[k++];
            if (f->rate > 0) {
                // At least one kernel tick: not yet complete means more than a tick is left.
                next = std::min(next, std::max(span_s(f->remaining / f->rate), sc_core::sc_get_time_resolution()));
                m_grant[size_t(f->port)] = true;
            }
        } else {
            f->rate = 0;
            next = std::min(next, f->start - stamp);
        }
    }
    m_wake.cancel();
    if (next != sc_core::sc_max_time()) m_wake.notify(next);
}

void buffer_dram::on_wake() {
    advance();
    settle(now_s());
}

double buffer_dram::utilisation() const {
    const double window = now_s() - m_stats.since_s;
    if (m_config.unlimited_bandwidth() || window <= 0) return 0.0;
    return m_stats.bytes / (m_config.bandwidth_bytes_per_s() * window);
}

void buffer_dram::reset_statistics() {
    const double now = now_s();
    advance();
    dram_statistics fresh;
    fresh.ports.resize(m_ports.size());
    fresh.occupancy_bytes = m_stats.occupancy_bytes;
    fresh.occupancy_bytes.restart(now);
    fresh.since_s = now;
    m_stats = fresh;
}

void buffer_dram::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_occupancy_kib, prefix + ".occupancy_kib");
    waveforms::trace(tf, m_alloc_waiting, prefix + ".alloc_waiting");
    for (size_t i = 0; i < m_ports.size(); ++i) waveforms::trace(tf, m_grant[i], prefix + ".grant_" + m_ports[i].name);
}

}  // namespace raidtlm::rtl_models
