// A parallel SCSI bus (one controller channel), as a module of sockets:
//   from_initiator     target socket: the controller channel's commands (generic payload +
//                      protocol::scsi_command). b_transport arbitrates, selects the target named by
//                      scsi_command::target_id, sends the command on through to_target(id), and
//                      returns once status has crossed the bus.
//   to_target(id)      one initiator socket per attached target (the IDs given to the
//                      constructor): bound to the target (drive) at that ID. Must be bound.
//   from_target(id)    one target socket per attached target: the target's own initiator socket
//                      binds here for what it does on the bus (protocol::scsi_bus_phase: negotiate,
//                      reselect, disconnect, data). Must be bound.
//   data_phases        initiator socket (may stay unbound): every data phase is passed on to the
//                      initiator's DMA as a scsi_bus_phase `data` transaction naming the command.
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
// costs nothing): contended() is then false, negotiate tells the targets so and they send no
// reselect or disconnect, select() returns at once and the bus costs no kernel events. Every other bus is contended.
//
// Busy: from the start of arbitration to the end of the bus free delay after the release. Owned
// by an ID: the arbitration winner from the end of arbitration to the end of its (re)selection and
// messages (the initiator's ID while it selects), then the target the connection serves until
// status has crossed. Both are counted exactly within the measured window (holding_time).
//
// Traced: <prefix>.owner (SCSI ID holding the bus, no_owner = 16 when nobody does), <prefix>.phase
// (scsi_phase; bus_free exactly when the bus is not busy), <prefix>.waiting (devices waiting to
// arbitrate), and one 1-bit flag per device, <prefix>.<label>_waiting (trace()'s labels).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/common/holding_time.h"
#include "rtl_models/common/resource_stats.h"
#include "rtl_models/buses/scsi_bus_timing.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"
#include "waveforms/traced_value.h"

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
    bus_free_delay = 9,  // released, but nobody may arbitrate yet (counts as busy)
};
constexpr int scsi_phase_count = 10;
const char *to_string(scsi_phase p);

struct scsi_bus_statistics {
    double data_s = 0;       // data phases
    double data_bytes = 0;
    uint64_t selections = 0;    // by the initiator
    uint64_t reselections = 0;  // by targets
    wait_stats wait;            // request -> start of the arbitration round it won
    std::array<wait_stats, 16> wait_by_id{};
    double since_s = 0;
};

class scsi_bus : public sc_core::sc_module {
public:
    static constexpr int no_owner = 16;  // the traced owner of a free bus (IDs are 0..15)
    using to_target_socket = tlm_utils::simple_initiator_socket<scsi_bus>;
    using from_target_socket = tlm_utils::simple_target_socket_tagged<scsi_bus>;

    tlm_utils::simple_target_socket<scsi_bus> from_initiator;
    tlm_utils::simple_initiator_socket_optional<scsi_bus> data_phases;

    // `target_ids`: the targets on the bus (SCSI IDs distinct, within the bus width and not the
    // initiator's), each with its pair of sockets.
    scsi_bus(sc_core::sc_module_name name, const scsi_bus_config &config, int initiator_id,
             const std::vector<int> &target_ids);
    ~scsi_bus() override;

    const scsi_bus_config &config() const { return m_config; }
    int initiator_id() const { return m_initiator; }
    const std::vector<int> &targets() const { return m_targets; }
    to_target_socket &to_target(int id) { return m_to_target[slot(id)]; }
    from_target_socket &from_target(int id) { return m_from_target[slot(id)]; }

    // The mechanism behind the sockets (component tests of arbitration call it directly).
    // Initiator: arbitrates, selects `target_id` and sends the command; returns when the command
    // is at the target, which then holds the bus (it disconnects, or moves data and status).
    // `host_request`: the host request the command serves, for the waves (-1: none).
    void select(int target_id, int64_t host_request = -1);
    // Initiator, once the target has completed the command: waits for status to cross the bus.
    void await_status();
    // Target: blocks the calling SC_THREAD until target_id owns the bus (arbitration + reselection).
    void acquire(int target_id, int64_t host_request = -1);
    // Target: gives the bus up (disconnect or bus free after status).
    void release(int target_id);
    sc_core::sc_time sector_transfer_time() const { return m_sector_time; }
    // False when nobody else can want the bus (see above).
    bool contended() const { return !m_free_running; }
    // Target: `sectors` sectors of `command` cross the bus between start and end.
    void data_phase(int target_id, const tlm::tlm_generic_payload &command, const sc_core::sc_time &start,
                    const sc_core::sc_time &end, uint32_t sectors);

    int owner() const { return m_owner; }
    // When a device first had to wait for the bus (-1: never), over the whole run.
    double first_wait_s() const { return m_first_wait_s; }
    const scsi_bus_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    double utilisation() const;
    // Within the measured window, up to now: the bus busy, and owned by SCSI ID `id`.
    double busy_s() const;
    double owned_s(int id) const;
    // `labels`: a name per SCSI ID for its waiting flag (IDs without one are called id<N>).
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix, const std::map<int, std::string> &labels = {});

private:
    struct requester;
    SC_HAS_PROCESS(scsi_bus);
    int slot_or_none(int id) const;  // index of the target's sockets, -1 when none at that ID
    size_t slot(int id) const;       // the same, fatal when none
    void initiator_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    unsigned initiator_debug(tlm::tlm_generic_payload &trans);
    void target_transport(int id, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void request(requester &r);
    void schedule_round();
    void start_round();
    void trace_at(int &var, int value, double t_s);

    scsi_bus_config m_config;
    int m_initiator;
    std::vector<int> m_targets;
    std::array<int, 16> m_slot_of_id;  // -1: no target at that ID
    scsi_arbiter m_arbiter;
    sc_core::sc_time m_sector_time;
    bool m_free_running = true;
    sc_core::sc_vector<to_target_socket> m_to_target;
    sc_core::sc_vector<from_target_socket> m_from_target;
    // The transaction that tells the initiator's DMA about a data phase (reused: it never waits).
    tlm::tlm_generic_payload m_data_trans;
    protocol::scsi_bus_phase m_data_phase;

    int m_owner = -1;              // nexus holding the bus (the target once selected)
    bool m_selecting = false;      // the initiator won the bus and is still selecting m_owner
    double m_free_at_s = 0;        // the next round may start then
    double m_first_wait_s = -1;
    bool m_round_pending = false;
    sc_core::sc_event m_round;
    std::vector<requester *> m_waiting;
    std::vector<int> m_ids;  // scratch
    scsi_bus_statistics m_stats;
    // Holders 0..15 are SCSI IDs; no_owner holds the busy bus nobody owns (arbitration, bus free delay).
    holding_time m_held{no_owner + 1};

    std::unique_ptr<waveforms::scheduled_trace> m_trace;
    int m_trace_owner = no_owner;
    int m_trace_phase = 0;
    waveforms::traced_int m_trace_waiting = 0;
    int m_trace_request = -1;  // the host request of the connection holding the bus
    std::array<int, 16> m_waiting_by_id{};
    std::array<waveforms::traced_flag, 16> m_trace_id_waiting{};  // m_waiting_by_id > 0
};

}  // namespace raidtlm::rtl_models
