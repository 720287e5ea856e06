#include "rtl_models/buses/scsi_bus.h"

#include <algorithm>

#include <fmt/format.h>

#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"
#include "waveforms/scheduled_trace.h"

namespace raidtlm::rtl_models {

namespace {
// The host request a command serves (waves only).
int64_t request_of(const tlm::tlm_generic_payload &command) {
    const auto *cmd = command.get_extension<protocol::scsi_command>();
    return cmd ? cmd->host_request : -1;
}
constexpr double us = 1e-6;
const char *msg_type = "/raidtlm/rtl_models/scsi_bus";
}  // namespace

const char *to_string(scsi_phase p) {
    switch (p) {
    case scsi_phase::bus_free: return "bus_free";
    case scsi_phase::arbitration: return "arbitration";
    case scsi_phase::selection: return "selection";
    case scsi_phase::reselection: return "reselection";
    case scsi_phase::message: return "message";
    case scsi_phase::command: return "command";
    case scsi_phase::connected: return "connected";
    case scsi_phase::data: return "data";
    case scsi_phase::closing: return "closing";
    case scsi_phase::bus_free_delay: return "bus_free_delay";
    }
    return "?";
}

struct scsi_bus::requester {
    int id;         // arbitrates with this ID
    int nexus;      // the target that holds the bus once connected
    bool initiator;
    double since_s;
    sc_core::sc_event granted;
    bool won = false;
    double connected_s = 0;  // when its connection phases end
    int64_t host_request = -1;  // the host request its command serves (waves only)
};

scsi_bus::scsi_bus(sc_core::sc_module_name name, const scsi_bus_config &config, int initiator_id,
                   const std::vector<int> &target_ids)
    : sc_module(name),
      from_initiator("from_initiator"),
      data_phases("data_phases"),
      m_config(config),
      m_initiator(initiator_id),
      m_arbiter(config.fairness),
      m_sector_time(span_s(config.sector_us() * us)),
      m_to_target("to_target"),
      m_from_target("from_target") {
    if (config.width_bits != 8 && config.width_bits != 16) SC_REPORT_FATAL(msg_type, "bus width must be 8 or 16 bits");
    if (initiator_id < 0 || initiator_id >= config.id_count())
        SC_REPORT_FATAL(msg_type, "initiator SCSI ID outside the bus width");
    m_slot_of_id.fill(-1);
    for (int id : target_ids) {
        if (id < 0 || id >= m_config.id_count() || id == m_initiator || m_slot_of_id[size_t(id)] >= 0)
            SC_REPORT_FATAL(msg_type, fmt::format("SCSI ID {} is taken or outside the bus width", id).c_str());
        m_slot_of_id[size_t(id)] = int(m_targets.size());
        m_targets.push_back(id);
    }
    // Socket names carry the SCSI ID (to_target_id3), as the jumpers on a drive would.
    m_to_target.init(m_targets.size(), [this](const char *, size_t i) {
        return new to_target_socket(fmt::format("to_target_id{}", m_targets[i]).c_str());
    });
    m_from_target.init(m_targets.size(), [this](const char *, size_t i) {
        return new from_target_socket(fmt::format("from_target_id{}", m_targets[i]).c_str());
    });
    for (size_t i = 0; i < m_targets.size(); ++i)
        m_from_target[i].register_b_transport(this, &scsi_bus::target_transport, m_targets[i]);
    from_initiator.register_b_transport(this, &scsi_bus::initiator_transport);
    from_initiator.register_transport_dbg(this, &scsi_bus::initiator_debug);
    m_data_trans.set_command(tlm::TLM_IGNORE_COMMAND);
    m_data_trans.set_extension(&m_data_phase);
    m_data_phase.request = protocol::scsi_bus_request::data;
    m_free_running = m_config.phases.all_zero() && m_targets.size() <= 1;
    SC_METHOD(start_round);
    sensitive << m_round;
    dont_initialize();
}

scsi_bus::~scsi_bus() { m_data_trans.clear_extension(&m_data_phase); }

int scsi_bus::slot_or_none(int id) const {
    return id >= 0 && id < int(m_slot_of_id.size()) ? m_slot_of_id[size_t(id)] : -1;
}

size_t scsi_bus::slot(int id) const {
    if (slot_or_none(id) < 0) SC_REPORT_FATAL(msg_type, fmt::format("{}: no target at SCSI ID {}", name(), id).c_str());
    return size_t(slot_or_none(id));
}

// ---- sockets --------------------------------------------------------------------------------

void scsi_bus::initiator_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    const auto *cmd = trans.get_extension<protocol::scsi_command>();
    const int slot = cmd ? slot_or_none(cmd->target_id) : -1;
    if (slot < 0) {
        // Selection times out: nobody answers at that ID.
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    select(cmd->target_id, cmd->host_request);
    // The initiator chip sees selection and the CDB done: the command is at the target.
    trans.get_extension<protocol::scsi_command>()->delivered_at = sc_core::sc_time_stamp();
    m_to_target[size_t(slot)]->b_transport(trans, delay);
    protocol::wait_annotated(delay);
    await_status();
}

unsigned scsi_bus::initiator_debug(tlm::tlm_generic_payload &trans) {
    const auto *cmd = trans.get_extension<protocol::scsi_command>();
    const int slot = cmd ? slot_or_none(cmd->target_id) : -1;
    return slot < 0 ? 0 : m_to_target[size_t(slot)]->transport_dbg(trans);
}

void scsi_bus::target_transport(int id, tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    auto *phase = trans.get_extension<protocol::scsi_bus_phase>();
    if (!phase) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    protocol::wait_annotated(delay);
    switch (phase->request) {
    case protocol::scsi_bus_request::negotiate:
        phase->sector_time = m_sector_time;
        phase->contended = contended();
        phase->observes_data = true;  // statistics and waves, and the initiator's DMA
        break;
    case protocol::scsi_bus_request::reselect: acquire(id, phase->command ? request_of(*phase->command) : -1); break;
    case protocol::scsi_bus_request::disconnect: release(id); break;
    case protocol::scsi_bus_request::data:
        if (!phase->command) {
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
        data_phase(id, *phase->command, phase->start, phase->end, phase->sectors);
        break;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void scsi_bus::trace_at(int &var, int value, double t_s) {
    if (m_trace) m_trace->set_at(var, value, t_s);
}

// ---- arbitration ----------------------------------------------------------------------------

void scsi_bus::request(requester &r) {
    m_waiting.push_back(&r);
    m_trace_waiting = int(m_waiting.size());
    m_trace_id_waiting[size_t(r.id & 15)] = ++m_waiting_by_id[size_t(r.id & 15)] > 0;
    if (m_owner < 0 && !m_round_pending) schedule_round();
    while (!r.won) sc_core::wait(r.granted);
    // A round started from this very call has not waited for the connection phases yet.
    const double now = now_s();
    if (r.connected_s > now + 1e-12) sc_core::wait(span_s(r.connected_s - now));
    r.granted.cancel();
}

void scsi_bus::schedule_round() {
    // Everyone who asks in this time step arbitrates in the round (the next delta at the earliest).
    m_round_pending = true;
    m_round.notify(span_s(m_free_at_s - now_s()));
}

void scsi_bus::start_round() {
    m_round_pending = false;
    if (m_owner >= 0 || m_waiting.empty()) return;
    const double now = now_s();
    m_ids.clear();
    for (requester *r : m_waiting) m_ids.push_back(r->id);
    const int winner = m_arbiter.choose(m_ids);
    auto it = std::find_if(m_waiting.begin(), m_waiting.end(), [&](requester *r) { return r->id == winner; });
    requester &r = **it;
    m_waiting.erase(it);
    m_trace_waiting = int(m_waiting.size());
    // The initiator may wait with several commands at once (one per target it selects).
    m_trace_id_waiting[size_t(r.id & 15)] = --m_waiting_by_id[size_t(r.id & 15)] > 0;
    const double waited = now - r.since_s;
    if (waited > 0 && m_first_wait_s < 0) m_first_wait_s = r.since_s;
    m_stats.wait.add(waited);
    m_stats.wait_by_id[size_t(r.id & 15)].add(waited);
    (r.initiator ? m_stats.selections : m_stats.reselections) += 1;
    m_owner = r.nexus;
    m_selecting = r.initiator;
    // The winner wakes when it is connected; the phases on the way are traced at their times.
    const scsi_phase_costs &p = m_config.phases;
    double t = now;
    trace_at(m_trace_phase, int(scsi_phase::arbitration), t);
    t += p.arbitration_us * us;
    trace_at(m_trace_owner, r.id, t);
    trace_at(m_trace_request, int(r.host_request), t);
    trace_at(m_trace_phase, int(r.initiator ? scsi_phase::selection : scsi_phase::reselection), t);
    t += (r.initiator ? p.selection_us : p.reselection_us) * us;
    trace_at(m_trace_phase, int(scsi_phase::message), t);
    t += p.message_us * us;
    if (r.initiator) {
        trace_at(m_trace_phase, int(scsi_phase::command), t);
        t += p.command_us * us;
    }
    trace_at(m_trace_owner, r.nexus, t);
    trace_at(m_trace_phase, int(scsi_phase::connected), t);
    m_held.book(no_owner, now, now + p.arbitration_us * us, now);
    m_held.book(r.id, now + p.arbitration_us * us, t, now);
    m_held.open(r.nexus, t);
    r.won = true;
    r.connected_s = t;
    r.granted.notify(span_s(t - now));
}

// ---- initiator ------------------------------------------------------------------------------

void scsi_bus::select(int target_id, int64_t host_request) {
    if (m_free_running) {
        ++m_stats.selections;
        return;
    }
    requester r{m_initiator, target_id, true, now_s(), {}, false, 0, host_request};
    request(r);
    m_selecting = false;  // the command is at the target, which now holds the bus
}

void scsi_bus::await_status() {
    if (m_config.phases.status_us > 0) sc_core::wait(span_s(m_config.phases.status_us * us));
}

// ---- targets --------------------------------------------------------------------------------

void scsi_bus::acquire(int target_id, int64_t host_request) {
    if (m_free_running) return;
    // A target asking for the bus it holds would wait for its own release: say so, never hang.
    // (While the initiator is still selecting it, the owner is already the target's nexus; the
    // target's reselection then waits for the command to arrive and the target to disconnect.)
    if (m_owner == target_id && !m_selecting)
        SC_REPORT_ERROR(msg_type, fmt::format("SCSI ID {} asked to reselect on a bus it already holds", target_id).c_str());
    requester r{target_id, target_id, false, now_s(), {}, false, 0, host_request};
    request(r);
}

void scsi_bus::release(int target_id) {
    if (m_free_running) return;
    if (m_owner != target_id)
        SC_REPORT_ERROR(msg_type, fmt::format("SCSI ID {} let go of a bus it does not hold (owner {})", target_id,
                                              m_owner)
                                      .c_str());
    const double now = now_s();
    const double status_end = now + m_config.phases.status_us * us, free_at = now + m_config.release_tail_us() * us;
    m_owner = -1;
    m_free_at_s = free_at;
    m_held.close(target_id, status_end, now);
    m_held.book(no_owner, status_end, free_at, now);
    trace_at(m_trace_phase, int(scsi_phase::closing), now);
    trace_at(m_trace_owner, no_owner, status_end);
    trace_at(m_trace_request, -1, status_end);
    trace_at(m_trace_phase, int(free_at > status_end ? scsi_phase::bus_free_delay : scsi_phase::bus_free), status_end);
    // Left as set when a round starts at free_at (its arbitration is traced at that instant).
    if (free_at > status_end) trace_at(m_trace_phase, int(scsi_phase::bus_free), free_at);
    if (!m_waiting.empty()) schedule_round();
}

void scsi_bus::data_phase(int target_id, const tlm::tlm_generic_payload &command, const sc_core::sc_time &start,
                          const sc_core::sc_time &end, uint32_t sectors) {
    const double s = start.to_seconds(), e = end.to_seconds();
    m_stats.data_s += e - s;
    m_stats.data_bytes += double(sectors) * protocol::sector_bytes;
    if (m_free_running) {
        m_held.book(target_id, s, e, now_s());
        trace_at(m_trace_owner, target_id, s);
        trace_at(m_trace_request, int(request_of(command)), s);
        trace_at(m_trace_phase, int(scsi_phase::data), s);
        trace_at(m_trace_owner, no_owner, e);
        trace_at(m_trace_request, -1, e);
        trace_at(m_trace_phase, int(scsi_phase::bus_free), e);
    } else {
        trace_at(m_trace_phase, int(scsi_phase::data), s);
        trace_at(m_trace_phase, int(scsi_phase::connected), e);
    }
    if (data_phases.size() > 0) {
        m_data_phase.command = &command;
        m_data_phase.start = start;
        m_data_phase.end = end;
        m_data_phase.sectors = sectors;
        m_data_trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time none = sc_core::SC_ZERO_TIME;
        data_phases->b_transport(m_data_trans, none);
    }
}

// ---- statistics and tracing -----------------------------------------------------------------

void scsi_bus::reset_statistics() {
    const double now = now_s();
    scsi_bus_statistics fresh;
    fresh.since_s = now;
    m_stats = fresh;
    m_held.restart(now);
}

double scsi_bus::busy_s() const { return m_held.total_s(now_s()); }

double scsi_bus::owned_s(int id) const { return id >= 0 && id < no_owner ? m_held.held_s(id, now_s()) : 0.0; }

double scsi_bus::utilisation() const { return fraction_since(busy_s(), m_stats.since_s); }

void scsi_bus::trace(sc_core::sc_trace_file *tf, const std::string &prefix, const std::map<int, std::string> &labels) {
    if (!m_trace) m_trace = std::make_unique<waveforms::scheduled_trace>(tf);
    sc_core::sc_trace(tf, m_trace_owner, prefix + ".owner");
    sc_core::sc_trace(tf, m_trace_phase, prefix + ".phase");
    waveforms::trace(tf, m_trace_waiting, prefix + ".waiting");
    sc_core::sc_trace(tf, m_trace_request, prefix + ".request");
    m_trace->show_undriven(m_trace_request, -1);  // no connection, or one serving no host request
    std::vector<int> ids = m_targets;
    ids.insert(ids.begin(), m_initiator);
    for (int id : ids) {
        const auto it = labels.find(id);
        const std::string label = it != labels.end() ? it->second : fmt::format("id{}", id);
        waveforms::trace(tf, m_trace_id_waiting[size_t(id)], prefix + "." + label + "_waiting");
    }
}

}  // namespace raidtlm::rtl_models
