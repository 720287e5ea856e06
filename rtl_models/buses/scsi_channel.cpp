#include "rtl_models/buses/scsi_channel.h"

#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"

namespace raidtlm::rtl_models {

scsi_channel::scsi_channel(sc_core::sc_module_name name, buffer_dram &buffer, int dram_port)
    : sc_module(name), bus("bus"), data_phases("data_phases"), dram("dram"), m_buffer(buffer), m_port(dram_port) {
    data_phases.register_b_transport(this, &scsi_channel::data_phase);
}

void scsi_channel::execute(tlm::tlm_generic_payload &command) {
    if (m_idle_trackers.empty()) {
        m_trackers.push_back(std::make_unique<dma_tracker>());
        m_idle_trackers.push_back(m_trackers.back().get());
    }
    dma_tracker &tracker = *m_idle_trackers.back();
    m_idle_trackers.pop_back();
    m_active.emplace_back(&command, &tracker);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(command, delay);
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    // The status phase is over: the chip's own time stamp, which firmware may read.
    if (auto *cmd = command.get_extension<protocol::scsi_command>()) cmd->status_at = sc_core::sc_time_stamp();
    tracker.wait_all();  // the DMA has drained the data
    for (auto &a : m_active)
        if (a.first == &command) {
            a = m_active.back();
            m_active.pop_back();
            break;
        }
    m_idle_trackers.push_back(&tracker);
}

void scsi_channel::data_phase(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    const auto *phase = trans.get_extension<protocol::scsi_bus_phase>();
    if (!phase || phase->request != protocol::scsi_bus_request::data) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    for (auto &[c, tracker] : m_active)
        if (c == phase->command) {
            const double bytes = double(phase->sectors) * protocol::sector_bytes;
            const double span = (phase->end - phase->start).to_seconds();
            m_buffer.transfer_at(m_port, uint64_t(bytes), phase->start, span > 0 ? bytes / span : 0.0,
                                 *tracker);
            return;
        }
}

}  // namespace raidtlm::rtl_models
