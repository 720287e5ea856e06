#include "rtl_models/buses/host_link.h"
#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"


#include <algorithm>

namespace raidtlm::rtl_models {

host_link::host_link(sc_core::sc_module_name name, const host_link_config &config)
    : sc_module(name), command("command"), to_controller("to_controller"), dma("dma"), dram("dram"), m_config(config) {
    command.bind(*this);
    dma.register_b_transport(this, &host_link::dma_transport);
}

void host_link::dma_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    auto *d = gp.get_extension<protocol::dma_command>();
    if (!d) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    const int dir = gp.is_write() ? 0 : 1;  // into the buffer = from the host
    const double rate = m_config.mb_per_s() * 1e6;
    if (rate <= 0 && m_config.dma_latency_us <= 0) {
        // An unlimited link: straight to the DRAM.
        ++m_stats.dmas[size_t(dir)];
        m_stats.bytes[size_t(dir)] += double(d->bytes);
        m_stats.wait.add(0);
        d->cap_bytes_per_s = 0;
        dram->b_transport(gp, delay);
        return;
    }
    channel &ch = m_channels[m_config.full_duplex() ? size_t(dir) : 0];
    const double t0 = now_s();
    if (ch.busy) {
        sc_core::sc_event turn;
        ch.queue.push_back(&turn);
        ++m_trace_waiting;
        sc_core::wait(turn);  // handed over by the DMA before (ch.busy stays set)
        --m_trace_waiting;
    } else {
        ch.busy = true;
    }
    const double start = now_s();
    m_stats.wait.add(start - t0);
    m_trace_busy[size_t(dir)] = true;
    ++m_stats.dmas[size_t(dir)];
    m_stats.bytes[size_t(dir)] += double(d->bytes);
    if (m_config.dma_latency_us > 0) sc_core::wait(span_s(m_config.dma_latency_us * 1e-6));
    // The data stream at the slower of the link and the DRAM's share.
    const double stream_start = now_s();
    d->cap_bytes_per_s = rate;
    dram->b_transport(gp, delay);
    if (rate > 0) {
        const double left = double(d->bytes) / rate - (now_s() - stream_start);
        if (left > 1e-12) sc_core::wait(span_s(left));
    }
    const double end = now_s();
    m_stats.busy_s[size_t(dir)] += end - start;
    m_trace_busy[size_t(dir)] = false;
    if (ch.queue.empty()) {
        ch.busy = false;
    } else {
        sc_core::sc_event *next = ch.queue.front();
        ch.queue.erase(ch.queue.begin());
        next->notify(sc_core::SC_ZERO_TIME);
    }
}

void host_link::reset_statistics() {
    host_link_statistics fresh;
    fresh.since_s = now_s();
    m_stats = fresh;
}

double host_link::utilisation() const {
    const double busy = m_config.full_duplex() ? std::max(m_stats.busy_s[0], m_stats.busy_s[1])
                                               : m_stats.busy_s[0] + m_stats.busy_s[1];
    return fraction_since(busy, m_stats.since_s);
}

void host_link::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_trace_busy[0], prefix + ".to_controller");
    waveforms::trace(tf, m_trace_busy[1], prefix + ".to_host");
    waveforms::trace(tf, m_trace_waiting, prefix + ".waiting");
}

}  // namespace raidtlm::rtl_models
