// A network interface (a brick's or a client's port on the switched network): sends messages
// through its initiator socket to the switch's from_port[address] and takes delivered ones on
// its target socket (bound to the switch's to_port[address]) into a receive queue.
// What firmware sees of the network is `network_port`: its address, send, and the receive
// queue with an event per arrival.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/network_message.h"
#include "waveforms/traced_value.h"

namespace raidtlm::rtl_models {

class network_port {
public:
    virtual ~network_port() = default;
    virtual int address() const = 0;
    // Blocks the calling thread until the message has left this port's link.
    virtual void send(const protocol::network_message &m) = 0;
    // The oldest message received, if any.
    virtual bool receive(protocol::network_message &m) = 0;
    // Notified when a message arrives.
    virtual const sc_core::sc_event &arrived() const = 0;
};

class network_interface : public sc_core::sc_module, public network_port {
public:
    tlm_utils::simple_initiator_socket<network_interface> to_switch;
    tlm_utils::simple_target_socket<network_interface> from_switch;

    network_interface(sc_core::sc_module_name name, int address);

    int address() const override { return m_address; }
    void send(const protocol::network_message &m) override;
    bool receive(protocol::network_message &m) override;
    const sc_core::sc_event &arrived() const override { return m_arrived; }
    size_t queued() const { return m_received.size(); }
    uint64_t sent() const { return m_sent; }
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

    int m_address;
    std::deque<protocol::network_message> m_received;
    sc_core::sc_event m_arrived;
    uint64_t m_sent = 0;
    waveforms::traced_int m_trace_queued = 0;
};

}  // namespace raidtlm::rtl_models
