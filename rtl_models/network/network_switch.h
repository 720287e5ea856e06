// The switched network between storage bricks and clients (network_timing.h has the timing).
// Each port has a TLM target socket `from_port[p]` (the port's network interface sends a
// generic payload with a protocol::network_payload extension; b_transport returns when the
// message has left the sender's link) and an initiator socket `to_port[p]` on which the switch
// delivers the message when its last byte has reached the receiver (the receiver's b_transport
// must not wait: it takes the message and returns).
//
// Statistics: messages and bytes by kind, each link's busy time. Traced per port:
// <prefix>.portN.to_switch and .from_switch, the messages on each link (sending or queued
// behind one): the port's occupancy.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/network/network_timing.h"
#include "tlm/network_message.h"
#include "waveforms/scheduled_trace.h"

namespace raidtlm::rtl_models {

struct network_statistics {
    std::array<uint64_t, protocol::message_kinds> messages{};
    std::array<double, protocol::message_kinds> bytes{};
    double since_s = 0;
    uint64_t total_messages() const {
        uint64_t n = 0;
        for (uint64_t m : messages) n += m;
        return n;
    }
};

class network_switch : public sc_core::sc_module {
public:
    sc_core::sc_vector<tlm_utils::simple_target_socket_tagged<network_switch>> from_port;
    sc_core::sc_vector<tlm_utils::simple_initiator_socket_tagged<network_switch>> to_port;

    network_switch(sc_core::sc_module_name name, const network_config &config, int ports);

    int ports() const { return m_timing.ports(); }
    const network_config &config() const { return m_timing.config(); }
    const network_timing &timing() const { return m_timing; }
    const network_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    SC_HAS_PROCESS(network_switch);
    void b_transport(int port, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void deliver();

    struct in_flight {
        double delivered_s;
        uint64_t order;
        protocol::network_message message;
        bool operator>(const in_flight &o) const {
            return delivered_s != o.delivered_s ? delivered_s > o.delivered_s : order > o.order;
        }
    };
    network_timing m_timing;
    network_statistics m_stats;
    std::priority_queue<in_flight, std::vector<in_flight>, std::greater<in_flight>> m_pending;
    uint64_t m_order = 0;
    sc_core::sc_event m_arrival;
    tlm::tlm_generic_payload m_delivery;
    protocol::network_payload *m_delivery_ext;  // owned by m_delivery
    std::unique_ptr<waveforms::scheduled_trace> m_waves;  // when traced
    std::vector<int> m_to_switch_level, m_from_switch_level;
};

}  // namespace raidtlm::rtl_models
