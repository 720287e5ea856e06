// The drive's view of the bus it sits on: what a target needs to reconnect (reselect) and move
// data or status. A SCSI bus model implements it; a drive without a bus uses the zero-cost link.
#pragma once

#include <systemc>

namespace raidtlm::protocol {

class scsi_link_if {
public:
    virtual ~scsi_link_if() = default;
    // Blocks the calling SC_THREAD until target_id owns the bus (arbitration + reselection).
    virtual void acquire(int target_id) = 0;
    // Gives the bus up (disconnect or bus free after status).
    virtual void release(int target_id) = 0;
    // Time for the bus itself to move one 512-byte sector; the transfer runs at the slower of
    // this and the drive's own rate.
    virtual sc_core::sc_time sector_transfer_time() const = 0;
    // False when nobody else can want the bus: the drive then needs no kernel events for its
    // disconnects and reselections, only for the command's completion.
    virtual bool contended() const { return true; }
};

// A link that costs nothing and never contends: for drives attached directly to a host adapter,
// and for DiskSim-style validation where bus and controller costs are folded into the drive.
class zero_cost_link final : public scsi_link_if {
public:
    void acquire(int) override {}
    void release(int) override {}
    sc_core::sc_time sector_transfer_time() const override { return sc_core::SC_ZERO_TIME; }
    bool contended() const override { return false; }
};

}  // namespace raidtlm::protocol
