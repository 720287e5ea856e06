#include "rtl_models/network/network_switch.h"

#include <fmt/format.h>

#include "tlm/annotated_delay.h"

namespace raidtlm::rtl_models {

using sc_core::SC_SEC;
using sc_core::sc_time;

network_switch::network_switch(sc_core::sc_module_name name, const network_config &config, int ports)
    : sc_module(name), from_port("from_port", size_t(ports)), to_port("to_port", size_t(ports)),
      m_timing(config, ports), m_to_switch_level(size_t(ports), 0), m_from_switch_level(size_t(ports), 0) {
    for (int p = 0; p < ports; ++p)
        from_port[size_t(p)].register_b_transport(this, &network_switch::b_transport, p);
    m_delivery_ext = new protocol::network_payload;
    m_delivery.set_extension(m_delivery_ext);
    SC_THREAD(deliver);
}

void network_switch::b_transport(int port, tlm::tlm_generic_payload &trans, sc_time &delay) {
    protocol::wait_annotated(delay);
    protocol::network_payload *ext = nullptr;
    trans.get_extension(ext);
    if (!ext || ext->message.destination < 0 || ext->message.destination >= ports()) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    protocol::network_message m = ext->message;
    m.source = port;
    const double now = sc_core::sc_time_stamp().to_seconds();
    const double out_start = std::max(now, m_timing.to_switch_free_s(port));
    const message_timing t = m_timing.send(port, m.destination, m.bytes, now);
    const size_t k = size_t(m.kind);
    ++m_stats.messages[k];
    m_stats.bytes[k] += m.bytes;
    // The receiver's link starts on it one wire time before it is delivered.
    const double in_start = t.delivered_s - m_timing.wire_s(m.bytes);
    if (m_waves) {
        m_waves->add_at(m_to_switch_level[size_t(port)], 1, out_start);
        m_waves->add_at(m_to_switch_level[size_t(port)], -1, t.sent_s);
        m_waves->add_at(m_from_switch_level[size_t(m.destination)], 1, in_start);
        m_waves->add_at(m_from_switch_level[size_t(m.destination)], -1, t.delivered_s);
    }
    m_pending.push({t.delivered_s, m_order++, m});
    m_arrival.notify(sc_core::SC_ZERO_TIME);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    // The sender's interface is busy until its link has sent the last byte.
    if (t.sent_s > now)
        sc_core::wait(sc_time(t.sent_s - now, SC_SEC));
}

void network_switch::deliver() {
    for (;;) {
        if (m_pending.empty()) {
            sc_core::wait(m_arrival);
            continue;
        }
        // Compared on the kernel's time grid: a difference below its resolution would be a
        // zero wait, forever.
        const sc_time due(m_pending.top().delivered_s, SC_SEC);
        if (due > sc_core::sc_time_stamp()) {
            // A message sent meanwhile may be due earlier.
            sc_core::wait(due - sc_core::sc_time_stamp(), m_arrival);
            continue;
        }
        m_delivery_ext->message = m_pending.top().message;
        m_pending.pop();
        m_delivery.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time zero = sc_core::SC_ZERO_TIME;
        to_port[size_t(m_delivery_ext->message.destination)]->b_transport(m_delivery, zero);
    }
}

void network_switch::reset_statistics() {
    m_stats = network_statistics{};
    m_stats.since_s = sc_core::sc_time_stamp().to_seconds();
    m_timing.reset_statistics();
}

void network_switch::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    if (!m_waves) m_waves = std::make_unique<waveforms::scheduled_trace>(tf);
    for (int p = 0; p < ports(); ++p) {
        sc_core::sc_trace(tf, m_to_switch_level[size_t(p)], fmt::format("{}.port{}.to_switch", prefix, p));
        sc_core::sc_trace(tf, m_from_switch_level[size_t(p)], fmt::format("{}.port{}.from_switch", prefix, p));
    }
}

}  // namespace raidtlm::rtl_models
