// What a SCSI target does on its bus, as TLM-2.0 transactions: the small protocol between a
// drive's own initiator socket (disk_drive::bus) and the socket it is bound to (a SCSI bus's
// from_target[id], or a private link). It replaces a pointer to the bus inside the command.
//
// Each transaction is a generic payload with TLM_IGNORE_COMMAND, no data, and this extension; the
// target sends it with b_transport and a zero delay, and the socket answers TLM_OK_RESPONSE.
//   negotiate   once, before the first command (start of simulation): the other side fills in
//               sector_time, contended and observes_data (as SCSI's transfer negotiation settles
//               the rate). Must not wait.
//   reselect    blocks until the target owns the bus (arbitration + reselection). Only sent when
//               the answer to negotiate said contended.
//   disconnect  the target lets the bus go (disconnect, or bus free after status). Only when
//               contended. Never waits.
//   data        `sectors` sectors of `command` cross the bus between the absolute simulated times
//               start and end (ahead of now on an uncontended bus, where the target plans its data
//               phases without waiting for them). Only when observes_data. Never waits.
// `command` names the nexus (I_T_L_Q): the command payload the initiator sent, which the
// initiator's DMA recognises. It is only compared, never dereferenced, by the bus.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

namespace raidtlm::protocol {

enum class scsi_bus_request : uint8_t { negotiate, reselect, disconnect, data };

struct scsi_bus_phase : tlm::tlm_extension<scsi_bus_phase> {
    scsi_bus_request request = scsi_bus_request::negotiate;
    const tlm::tlm_generic_payload *command = nullptr;  // reselect, disconnect, data
    sc_core::sc_time start;                             // data
    sc_core::sc_time end;                               // data
    uint32_t sectors = 0;                               // data
    // negotiate, answered by the bus side:
    // Time for the bus itself to move one 512-byte sector; the transfer runs at the slower of this
    // and the drive's own rate.
    sc_core::sc_time sector_time = sc_core::SC_ZERO_TIME;
    // False when nobody else can want the bus: the target then sends no reselect or disconnect and
    // needs no kernel events for them.
    bool contended = false;
    // Whether the bus side wants data transactions (statistics, waves, the initiator's DMA).
    bool observes_data = false;

    tlm::tlm_extension_base *clone() const override { return new scsi_bus_phase(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        *this = static_cast<const scsi_bus_phase &>(other);
    }
};

// The answer a drive assumes when its bus socket is left unbound: a private link of its own that
// never contends and moves data at no cost (a drive wired straight to a host adapter).
inline scsi_bus_phase unbound_link_answer() { return scsi_bus_phase{}; }

}  // namespace raidtlm::protocol
