// A parallel SCSI bus (one controller channel): the drives on it are targets that reconnect
// through it (protocol::scsi_link_if), the controller channel is the initiator that selects a
// drive and sends it a command (select()).
//
// Who gets the bus: an arbitration round starts when the bus is free (after the previous owner's
// closing messages and the bus free delay) and somebody wants it; the devices waiting at that
// moment, including those that ask in the same time step, arbitrate and the highest SCSI ID
// priority wins (scsi_arbiter, optionally with SCSI-3 fairness); those who arrive later wait for
// the next round. The winner pays arbitration +
// (re)selection + IDENTIFY/tag messages (+ the CDB for the initiator), then holds the bus until its
// target lets it go (disconnect, or status at the end of the command). Data phases run at the
// slower of the bus's rate and the drive's own, and are timed by the drive.
//
// A bus with one target and no phase costs cannot make anyone wait for anything the drive does
// not already serialise (the drive serves one command at a time, and the initiator's selection
// costs nothing): contended() is then false, the drive skips its bus calls, select() returns at
// once and the bus costs no kernel events. Every other bus is contended.
//
// Traced: <prefix>.owner (SCSI ID holding the bus, no_owner = 16 when free), <prefix>.phase (scsi_phase),
// <prefix>.waiting (devices waiting to arbitrate).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "rtl_models/resource_stats.h"
#include "rtl_models/scsi_bus_timing.h"
#include "tlm/scsi_command.h"
#include "tlm/scsi_link_if.h"

namespace raidtlm::waveforms {
class scheduled_trace;
}

namespace raidtlm::rtl_models {

enum class scsi_phase : int {
    bus_free = 0,
    arbitration = 1,
    selection = 2,
    reselection = 3,
    message = 4,
    command = 5,
    connected = 6,  // a target holds the bus: command processing, waiting for data, status
    data = 7,
    closing = 8,  // status / disconnect messages
};
const char *to_string(scsi_phase p);

// The initiator side's DMA engine, told when data cross the bus.
class scsi_data_listener {
public:
    virtual ~scsi_data_listener() = default;
    virtual void data_phase(const protocol::scsi_command &cmd, const sc_core::sc_time &start,
                            const sc_core::sc_time &end, uint32_t sectors) = 0;
};

struct scsi_bus_statistics {
    double busy_s = 0;       // arbitration to the end of the bus free delay after the release
    double data_s = 0;       // data phases
    double data_bytes = 0;
    uint64_t selections = 0;    // by the initiator
    uint64_t reselections = 0;  // by targets
    wait_stats wait;            // request -> start of the arbitration round it won
    std::array<wait_stats, 16> wait_by_id{};
    double since_s = 0;
};

class scsi_bus : public sc_core::sc_module, public protocol::scsi_link_if {
public:
    static constexpr int no_owner = 16;  // the traced owner of a free bus (IDs are 0..15)

    scsi_bus(sc_core::sc_module_name name, const scsi_bus_config &config, int initiator_id);
    ~scsi_bus() override;

    const scsi_bus_config &config() const { return m_config; }
    int initiator_id() const { return m_initiator; }
    // Declares a target on the bus (before the simulation starts). IDs must be distinct, within
    // the bus width and not the initiator's.
    void attach_target(int id);
    const std::vector<int> &targets() const { return m_targets; }
    void set_listener(scsi_data_listener *l) { m_listener = l; }

    // Initiator: arbitrates, selects `target_id` and sends the command; returns when the command
    // is at the target, which then holds the bus (it disconnects, or moves data and status).
    void select(int target_id);
    // Initiator, once the target has completed the command: waits for status to cross the bus.
    void await_status();

    // protocol::scsi_link_if, for the targets.
    void acquire(int target_id) override;
    void release(int target_id) override;
    sc_core::sc_time sector_transfer_time() const override { return m_sector_time; }
    bool contended() const override { return !m_free_running; }
    void data_phase(const protocol::scsi_command &cmd, const sc_core::sc_time &start, const sc_core::sc_time &end,
                    uint32_t sectors) override;
    bool observes_data_phases() const override { return true; }

    int owner() const { return m_owner; }
    const scsi_bus_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    double utilisation() const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    struct requester;
    SC_HAS_PROCESS(scsi_bus);
    void request(requester &r);
    void schedule_round();
    void start_round();
    void trace_at(int &var, int value, double t_s);

    scsi_bus_config m_config;
    int m_initiator;
    std::vector<int> m_targets;
    scsi_arbiter m_arbiter;
    sc_core::sc_time m_sector_time;
    bool m_free_running = true;
    scsi_data_listener *m_listener = nullptr;

    int m_owner = -1;              // nexus holding the bus (the target once selected)
    double m_owner_since_s = 0;    // start of the round that gave it the bus
    double m_free_at_s = 0;        // the next round may start then
    bool m_round_pending = false;
    sc_core::sc_event m_round;
    std::vector<requester *> m_waiting;
    std::vector<int> m_ids;  // scratch
    scsi_bus_statistics m_stats;

    std::unique_ptr<waveforms::scheduled_trace> m_trace;
    int m_trace_owner = no_owner;
    int m_trace_phase = 0;
    int m_trace_waiting = 0;
};

}  // namespace raidtlm::rtl_models
