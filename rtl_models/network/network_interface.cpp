#include "rtl_models/network/network_interface.h"

#include <stdexcept>

namespace raidtlm::rtl_models {

network_interface::network_interface(sc_core::sc_module_name name, int address)
    : sc_module(name), to_switch("to_switch"), from_switch("from_switch"), m_address(address) {
    from_switch.register_b_transport(this, &network_interface::b_transport);
}

void network_interface::send(const protocol::network_message &m) {
    // A payload per send: several threads of one brick may send at once.
    tlm::tlm_generic_payload trans;
    protocol::network_payload ext;
    ext.message = m;
    ext.message.source = m_address;
    trans.set_extension(&ext);
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_data_length(0);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    to_switch->b_transport(trans, delay);
    trans.clear_extension(&ext);
    if (trans.get_response_status() != tlm::TLM_OK_RESPONSE)
        throw std::runtime_error("network_interface: the switch refused a message (no such port)");
    ++m_sent;
}

bool network_interface::receive(protocol::network_message &m) {
    if (m_received.empty())
        return false;
    m = m_received.front();
    m_received.pop_front();
    m_trace_queued = int(m_received.size());
    return true;
}

void network_interface::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::network_payload *ext = nullptr;
    trans.get_extension(ext);
    if (!ext) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    m_received.push_back(ext->message);
    m_trace_queued = int(m_received.size());
    m_arrived.notify(sc_core::SC_ZERO_TIME);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void network_interface::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_trace_queued, prefix + ".received_queue");
}

}  // namespace raidtlm::rtl_models
