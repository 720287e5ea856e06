// The SystemC disk drive: a TLM-2.0 target that takes SCSI-like READ/WRITE commands (generic
// payload + protocol::scsi_command) and services them with the timing of the drive described by
// a disk_spec. The module is thin: the mechanism, layout, cache and overhead logic live in plain
// C++ (drive_engine.h); this module owns simulated time, the command queue, its bus socket and
// the traced signals.
//
// Sockets:
//   target  commands (generic payload + protocol::scsi_command). b_transport is blocking and may
//           be called by several initiator threads at once: each caller waits until its command
//           has completed.
//   bus     the drive's own initiator socket on its bus, for what a target does there
//           (protocol::scsi_bus_phase: negotiate at the start of simulation, then reselect,
//           disconnect and data phases), so a shared bus sees the drive's bus use. May be left
//           unbound: the drive then sits on a zero-cost private link of its own (as bound to a
//           rtl_models::private_scsi_link with no per-sector time).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "disks/disk_spec.h"
#include "disks/drive_engine.h"
#include "tlm/scsi_bus_phase.h"
#include "tlm/scsi_command.h"
#include "tlm/sector_token_store.h"
#include "waveforms/scheduled_trace.h"
#include "waveforms/traced_value.h"

namespace raidtlm::disks {

class drive_engine;

struct drive_options {
    // Angle of the spindle at time zero, as a fraction of a revolution. Disks in one spindle-
    // synchronized group are given the same phase.
    double spindle_phase = 0.0;
    // Not read by the model: on a bus a target's ID is where its sockets are bound (the bus's
    // to_target(id) / from_target(id)); kept for the benches that set it.
    int scsi_id = 0;
    // True when the initiator never sends a command before the previous one completed (DiskSim
    // validation runs): the drive then accepts queue-only features it does not model.
    bool one_command_at_a_time = false;
};

// What the drive counted, for stats.json.
struct drive_statistics {
    uint64_t requests = 0;
    uint64_t reads = 0;
    uint64_t writes = 0;
    uint64_t full_hits = 0;
    uint64_t partial_hits = 0;
    uint64_t write_backs = 0;
    uint64_t seeks = 0;              // requests that moved the arm
    double seek_distance_cyl_sum = 0;
    double seek_ms_sum = 0;
    double rotation_ms_sum = 0;
    double transfer_ms_sum = 0;
    double overhead_ms_sum = 0;
    double queue_ms_sum = 0;
    double busy_ms = 0;              // time with a command in service or the media busy
};

class disk_drive : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<disk_drive> target;
    tlm_utils::simple_initiator_socket_optional<disk_drive> bus;

    disk_drive(sc_core::sc_module_name name, const disk_spec &spec, const drive_options &options);
    ~disk_drive() override;

    const disk_spec &spec() const;
    const drive_statistics &statistics() const { return m_stats; }
    // Busy time from 0 to now_ms. statistics().busy_ms counts a command's whole service (and the
    // media work it leaves behind) when it completes; this adds the command in service so far and
    // takes off media work planned past now_ms.
    double busy_ms_at(double now_ms) const {
        double busy = m_stats.busy_ms - std::max(0.0, m_busy_until_ms - now_ms);
        if (m_serve_start_ms >= 0) busy += std::max(0.0, now_ms - std::max(m_serve_start_ms, m_busy_until_ms));
        return busy;
    }
    int64_t capacity_blocks() const;
    // Fault injection: reads of LBNs [lbn, lbn + blocks) fail with MEDIUM ERROR (after the time
    // the access took) until the sectors are written again (the drive reallocates them then).
    void inject_media_error(int64_t lbn, int32_t blocks);
    // Fault injection: the media of LBNs [lbn, lbn + blocks) change (each sector's token XOR a fixed
    // pattern, so even a never-written sector changes) and reads return them with no error: silent
    // corruption, which only a check of the data (the controller's scoreboard) can see.
    void corrupt_media(int64_t lbn, int32_t blocks);
    // A fresh drive of the same model in this slot (a replacement or a hot spare): every sector
    // reads as never written, no media errors. The mechanics and the segment cache's bookkeeping
    // carry on (a timing approximation: the first commands may hit what the old drive cached).
    // Commands the old drive had queued or in service left with it: they are still timed here (the
    // same approximation) but move no data and answer with an error. Before, a member superblock
    // write queued at a drive pulled while the controller was off landed on the fresh drive, which
    // the start-up check then took for the member (explorer case 161:1318: zeros served).
    void replace_media() {
        m_tokens = {};
        m_unreadable.clear();
        ++m_media_generation;
    }
    // LBNs still unreadable.
    int64_t unreadable_blocks() const { return int64_t(m_unreadable.size()); }
    // Adds this drive's signals to a trace file: <prefix>.mech_state (0 idle, 1 seek, 2 rotate,
    // 3 transfer), <prefix>.cmd_state (0 idle, 1 overhead, 2 waiting for media, 3 on the bus),
    // <prefix>.cylinder, <prefix>.head, <prefix>.queue_depth (commands queued or in service),
    // <prefix>.request (the host request the command in service serves, as its initiator
    // numbered it: protocol::scsi_command::host_request; -1 none).
    // Call before simulation starts.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    struct pending;
    class port;
    SC_HAS_PROCESS(disk_drive);
    void start_of_simulation() override;
    // One transaction on the bus socket; blocks for a reselection.
    void bus_request(protocol::scsi_bus_request request, const tlm::tlm_generic_payload &command,
                     const sc_core::sc_time &start = sc_core::SC_ZERO_TIME,
                     const sc_core::sc_time &end = sc_core::SC_ZERO_TIME, uint32_t sectors = 0);
    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    void service_thread();
    pending *next_pending();
    // Lets the held command the initiator's queue policy picks try for the free slot.
    void admit_next_held();
    void serve(pending &p);
    void move_tokens(tlm::tlm_generic_payload &trans, int64_t lbn, uint32_t blocks);
    std::set<int64_t> m_unreadable;  // LBNs with a media error (few: only injected ones)
    uint64_t m_media_generation = 0;  // replace_media calls so far
    // Untimed token access (TLM debug transport): address = LBN * 512, data_length = blocks * 8
    // tokens; returns the bytes moved. Models a drive-side XOR whose result is installed at no
    // cost (the controller's read-rotate-write parity update, docs/ARCHITECTURE.md).
    unsigned transport_dbg(tlm::tlm_generic_payload &trans);
    // Schedules a traced change at `at_ms`, never before the one scheduled last for that signal.
    void trace_at(int &var, int value, double &last_ms, double at_ms);

    std::unique_ptr<drive_engine> m_engine;
    drive_options m_options;
    std::deque<pending *> m_queue;
    sc_core::sc_event m_arrival;
    std::deque<pending *> m_held;  // commands beyond Max queue length, in arrival order
    pending *m_admitting = nullptr;  // the held command told to take the next free slot
    int64_t m_held_position = 0;     // LBN after the last command admitted from m_held
    bool m_held_ascending = true;
    int m_in_drive = 0;  // queued + in service
    bool m_serving = false;
    // What negotiate on the bus socket answered (rate, contention, whether it wants data phases).
    protocol::scsi_bus_phase m_bus_terms = protocol::unbound_link_answer();
    // Bus transactions (a few: the service thread's and disconnects of arriving commands).
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> m_bus_trans;
    std::vector<std::pair<tlm::tlm_generic_payload *, protocol::scsi_bus_phase *>> m_idle_bus_trans;
    drive_statistics m_stats;
    double m_busy_until_ms = 0;
    double m_serve_start_ms = -1;  // start of the command in service, -1 when none
    int64_t m_last_lbn = 0;  // for the LBN-ordered queue policies
    bool m_ascending = true;
    // Tokens of sectors written so far; never-written sectors read as token 0.
    protocol::sector_token_store m_tokens;
    // Traced state. The engine reports changes ahead of time; they go to the trace file with
    // their times (waveforms::scheduled_trace), queue_depth is sampled.
    std::unique_ptr<waveforms::scheduled_trace> m_waves;  // when traced
    double m_last_mech_change_ms = 0;  // latest change of each traced state scheduled so far
    double m_last_cmd_change_ms = 0;
    double m_last_request_change_ms = 0;
    int m_mech_state = 0;
    int m_cmd_state = 0;
    int m_cylinder = 0;
    int m_head = 0;
    waveforms::traced_int m_queue_depth = 0;
    int m_request = -1;  // the host request the command in service serves (-1: none)
};

}  // namespace raidtlm::disks
