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
#include "rtl_models/resource_stats.h"
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

class host_link : public sc_core::sc_module {
public:
    // Host commands from the host, to the controller (both may stay unbound: a link for DMA only).
    tlm_utils::simple_target_socket_optional<host_link> command;
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
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void command_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);

    host_link_config m_config;
    std::array<channel, 2> m_channels;  // PCI-X uses m_channels[0] for both directions
    host_link_statistics m_stats;
    std::array<waveforms::traced_flag, 2> m_trace_busy{};
    waveforms::traced_int m_trace_waiting = 0;
};

}  // namespace raidtlm::rtl_models
