// One SCSI channel of the controller: the host adapter chip that is the initiator on a SCSI bus,
// with the DMA engine that follows each data phase into or out of the buffer DRAM.
//   command        target socket <- the firmware's side of the platform: a drive command (generic
//                  payload + protocol::scsi_command with target_id set); b_transport returns once
//                  status has come back and the DMA has drained the data.
//   bus            initiator socket -> scsi_bus::from_initiator: the command on the bus.
//   data_phases    target socket <- scsi_bus::data_phases: each data phase of a command this
//                  channel has under way (protocol::scsi_bus_phase `data`); the DMA moves the
//                  bytes on the channel's DRAM port from the data phase's start, at the bus's pace
//                  at best.
//   dram           initiator socket -> the channel's buffer DRAM port: each data phase's DMA as a
//                  protocol::dma_command posted at the phase's start (posted_dma.h, the delay
//                  being the time to the start), counted until done on the command's tracker.
// A bus of someone else's making works if it speaks the same sockets.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/common/blocking_target.h"
#include "rtl_models/memory/posted_dma.h"
#include "tlm/dma_command.h"

namespace raidtlm::rtl_models {

// The module is its `command` socket's forward interface (b_transport only).
class scsi_channel : public sc_core::sc_module, private blocking_target {
public:
    tlm::tlm_target_socket<> command;
    tlm_utils::simple_initiator_socket<scsi_channel> bus;
    tlm_utils::simple_target_socket<scsi_channel> data_phases;
    tlm_utils::simple_initiator_socket<scsi_channel> dram;

    explicit scsi_channel(sc_core::sc_module_name name);

    // Power loss: the commands under way are gone (their threads never come back); later data
    // phases of theirs move nothing, and what a drive still returns for them reaches no buffer.
    void abandon_all();

private:
    // Selection, the command, its data phases (followed by the DMA) and status; blocks the calling
    // SC_THREAD until all are done. The payload's response status is the target's. The chip's own
    // observations go into the payload's protocol::scsi_command: the bus stamps delivered_at
    // (selection and CDB done), the channel status_at (status phase over, before the DMA drains).
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) override;
    void data_phase(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);

    // Commands under way and the tracker their DMA counts on.
    std::vector<std::pair<tlm::tlm_generic_payload *, dma_tracker *>> m_active;
    // Where the data of abandoned reads go until their drives answer (abandon_all).
    std::map<const tlm::tlm_generic_payload *, std::vector<unsigned char>> m_sinks;
    std::vector<std::unique_ptr<dma_tracker>> m_trackers;
    std::vector<dma_tracker *> m_idle_trackers;
    tlm::tlm_generic_payload m_dma;  // the DMA's transaction (posted: never in use twice at once)
    protocol::dma_command *m_dma_command = nullptr;  // its extensions, owned by it
    posted_dma *m_dma_posted = nullptr;
};

}  // namespace raidtlm::rtl_models
