// The drive's view of the bus it sits on: what a target needs to reconnect (reselect) and move
// data or status. A SCSI bus model implements it; a drive without a bus uses the zero-cost link.
#pragma once

#include <cstdint>

#include <systemc>

namespace raidtlm::protocol {

struct scsi_command;

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
    // The drive moves `sectors` sectors of `cmd` over the bus between `start` and `end` (absolute
    // simulated times; ahead of now on an uncontended link, where the drive plans its data phases
    // without waiting for them). The controller's channel DMA follows the data into or out of its
    // buffer memory. Default: nobody listens.
    virtual void data_phase(const scsi_command &cmd, const sc_core::sc_time &start, const sc_core::sc_time &end,
                            uint32_t sectors) {}
    // Whether data_phase() does anything (the drive skips the calls otherwise).
    virtual bool observes_data_phases() const { return false; }
};

// A link of the drive's own that no one else uses: a drive wired directly to a host adapter, or a
// DiskSim-style validation where the host side is folded into the drive. It never contends; its
// per-sector time (default zero) stands for the host bus and controller rate.
class private_link final : public scsi_link_if {
public:
    explicit private_link(sc_core::sc_time sector_time = sc_core::SC_ZERO_TIME) : m_sector_time(sector_time) {}
    void acquire(int) override {}
    void release(int) override {}
    sc_core::sc_time sector_transfer_time() const override { return m_sector_time; }
    bool contended() const override { return false; }

private:
    sc_core::sc_time m_sector_time;
};

}  // namespace raidtlm::protocol
