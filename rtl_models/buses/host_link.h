// The host link (PCI-X or PCIe, host_link_timing.h): DMA between host memory and the buffer DRAM.
//
// Host commands cross the link: `command` (target, bound by the host side) takes them and
// `to_controller` (initiator) passes each on to the controller's command target unchanged, with
// its annotated delay; the command's own bytes cost nothing here (its data move by the firmware's
// DMAs below), and the link counts the commands.
//
// A TLM-2.0 target for DMA requests from the firmware: a generic payload with a
// protocol::dma_command, TLM_WRITE_COMMAND for host memory -> buffer, TLM_READ_COMMAND for
// buffer -> host memory, the payload's data pointer holding the host-side tokens. The link serves
// one DMA per direction at a time (PCI-X: one at a time in all), FIFO: a DMA waits for its
// direction, pays the DMA latency, then streams into or out of the buffer DRAM through its
// initiator socket at the link's rate or the DRAM's share, whichever is slower.
//
// Traced: <prefix>.to_controller and <prefix>.to_host (1 while a DMA holds that direction),
// <prefix>.waiting (DMAs queued).
#pragma once

#include <array>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/buses/host_link_timing.h"
#include "rtl_models/common/resource_stats.h"
#include "tlm/dma_command.h"
#include "waveforms/traced_value.h"

namespace raidtlm::rtl_models {

struct host_link_statistics {
    std::array<double, 2> busy_s{};   // [0] host -> controller, [1] controller -> host
    std::array<double, 2> bytes{};
    std::array<uint64_t, 2> dmas{};
    uint64_t commands = 0;            // host commands passed to the controller
    wait_stats wait;                  // waiting for the direction
    double since_s = 0;
};

// The module is its `command` socket's forward interface: b_transport, debug and DMI calls are
// passed on through `to_controller` as they are (a non-blocking call is refused).
class host_link : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
public:
    // Host commands from the host, to the controller (both may stay unbound: a link for DMA only).
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND> command;
    tlm_utils::simple_initiator_socket_optional<host_link> to_controller;
    tlm_utils::simple_target_socket<host_link> dma;               // from the firmware
    tlm_utils::simple_initiator_socket<host_link> dram;           // to the buffer DRAM's host port

    host_link(sc_core::sc_module_name name, const host_link_config &config);

    const host_link_config &config() const { return m_config; }
    const host_link_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    // Busy time / window of the busier direction (PCI-X: of the one shared channel).
    double utilisation() const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    struct channel {
        bool busy = false;
        double since_s = 0;
        std::vector<sc_core::sc_event *> queue;
    };
    // `command`
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) override {
        ++m_stats.commands;
        to_controller->b_transport(gp, delay);
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload &gp, tlm::tlm_phase &, sc_core::sc_time &) override {
        gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);  // host commands are blocking
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &gp, tlm::tlm_dmi &dmi) override {
        return to_controller->get_direct_mem_ptr(gp, dmi);
    }
    unsigned int transport_dbg(tlm::tlm_generic_payload &gp) override { return to_controller->transport_dbg(gp); }
    void dma_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    host_link_config m_config;
    std::array<channel, 2> m_channels;  // PCI-X uses m_channels[0] for both directions
    host_link_statistics m_stats;
    std::array<waveforms::traced_flag, 2> m_trace_busy{};
    waveforms::traced_int m_trace_waiting = 0;
};

}  // namespace raidtlm::rtl_models
