#include "rtl_models/buses/scsi_channel.h"

#include "tlm/annotated_delay.h"
#include "tlm/dma_command.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"

namespace raidtlm::rtl_models {

scsi_channel::scsi_channel(sc_core::sc_module_name name)
    : sc_module(name), command("command"), bus("bus"), data_phases("data_phases"), dram("dram") {
    command.bind(*this);
    data_phases.register_b_transport(this, &scsi_channel::data_phase);
    m_dma.set_extension(m_dma_command = new protocol::dma_command);  // owned by the payload
    m_dma.set_extension(m_dma_posted = new posted_dma);
}

void scsi_channel::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    if (m_idle_trackers.empty()) {
        m_trackers.push_back(std::make_unique<dma_tracker>());
        m_idle_trackers.push_back(m_trackers.back().get());
    }
    dma_tracker &tracker = *m_idle_trackers.back();
    m_idle_trackers.pop_back();
    m_active.emplace_back(&trans, &tracker);
    sc_core::sc_time bus_delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(trans, bus_delay);
    if (bus_delay > sc_core::SC_ZERO_TIME) sc_core::wait(bus_delay);
    // The status phase is over: the chip's own time stamp, which firmware may read.
    if (auto *cmd = trans.get_extension<protocol::scsi_command>()) cmd->status_at = sc_core::sc_time_stamp();
    tracker.wait_all();  // the DMA has drained the data
    for (auto &a : m_active)
        if (a.first == &trans) {
            a = m_active.back();
            m_active.pop_back();
            break;
        }
    if (!m_sinks.empty()) m_sinks.erase(&trans);  // an abandoned read's drive has answered: its data went there
    m_idle_trackers.push_back(&tracker);
}

void scsi_channel::abandon_all() {
    // The chip is reset with the power: a drive still working on a read from before moves its data
    // into a sink, not into the buffer DRAM block the command named. That block is handed out
    // again once the power is back, its storage perhaps reallocated: a drive finishing an old read
    // wrote into a new command's data, or into freed memory (explorer cases 161:1002, 161:1117:
    // heap corruption). The old data a read-rotate-write would return are dropped for the same
    // reason. A write keeps its data: they are the firmware's own copy, taken when it went out.
    for (auto &[command, tracker] : m_active) {
        if (auto *cmd = command->get_extension<protocol::scsi_command>()) cmd->old_tokens = nullptr;
        if (!command->is_read() || command->get_data_length() == 0) continue;
        std::vector<unsigned char> &sink = m_sinks[command];
        sink.assign(command->get_data_length(), 0);
        command->set_data_ptr(sink.data());
    }
    m_active.clear();
}

// The phase's times are absolute: the annotated delay adds nothing to them.
void scsi_channel::data_phase(tlm::tlm_generic_payload &trans, sc_core::sc_time &) {
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
            protocol::dma_command &d = *m_dma_command;
            d.bytes = uint64_t(bytes);
            d.cap_bytes_per_s = span > 0 ? bytes / span : 0.0;  // buffer and first_sector stay unset
            m_dma_posted->tracker = tracker;
            m_dma.set_command(phase->command->get_command());
            m_dma.set_data_length(0);  // timing: the drive moves the tokens with the command
            m_dma.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            // Posted at the data phase's start (the DRAM starts it no earlier than now).
            const sc_core::sc_time now = sc_core::sc_time_stamp();
            sc_core::sc_time to_start = phase->start > now ? phase->start - now : sc_core::SC_ZERO_TIME;
            dram->b_transport(m_dma, to_start);
            return;
        }
}

}  // namespace raidtlm::rtl_models
