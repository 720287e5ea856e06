#include "disks/disk_drive.h"

#include "disks/lbn_queue_policy.h"
#include "tlm/annotated_delay.h"


#include <algorithm>
#include <cstring>

#include "disks/drive_engine.h"
#include "disks/supported_parameters.h"

namespace raidtlm::disks {

namespace {
double now_ms() { return sc_core::sc_time_stamp().to_seconds() * 1e3; }
void wait_until_ms(double t_ms) {
    const double d = t_ms - now_ms();
    if (d > 0) sc_core::wait(sc_core::sc_time(d, sc_core::SC_MS));
}
}  // namespace

struct disk_drive::pending {
    tlm::tlm_generic_payload *trans;
    protocol::scsi_command *cmd;
    sc_core::sc_event admitted;  // a held command may try for a slot (one completed)
    sc_core::sc_event done;      // its service is over
    double arrival_ms;
    bool connected;  // still connected to the initiator when the drive starts on it
    uint64_t media_generation;  // the drive it reached (replace_media)
};

// The engine's bus calls, turned into waits on simulated time and transactions on the bus socket.
class disk_drive::port final : public bus_port {
public:
    port(disk_drive &drive, const tlm::tlm_generic_payload &command)
        : m_drive(drive),
          m_command(command),
          m_contended(drive.m_bus_terms.contended),
          m_observed(drive.m_bus_terms.observes_data) {}
    double acquire(double at_ms) override {
        if (!m_contended) return at_ms;
        wait_until_ms(at_ms);
        m_drive.bus_request(protocol::scsi_bus_request::reselect, m_command);
        // Never earlier than asked: sc_time rounds to its resolution, so now_ms() can come back a
        // hair below at_ms; the engine would then see its data "not yet" in the buffer, disconnect
        // and reselect at the same instant forever (a zero-overhead bus hung on this).
        return std::max(now_ms(), at_ms);
    }
    void release(double at_ms) override {
        if (!m_contended) return;
        wait_until_ms(at_ms);
        m_drive.bus_request(protocol::scsi_bus_request::disconnect, m_command);
    }
    double sector_transfer_ms() const override { return m_drive.m_bus_terms.sector_time.to_seconds() * 1e3; }
    void data_phase(double start_ms, double end_ms, int sectors) override {
        if (!m_observed) return;
        m_drive.bus_request(protocol::scsi_bus_request::data, m_command, sc_core::sc_time(start_ms, sc_core::SC_MS),
                            sc_core::sc_time(end_ms, sc_core::SC_MS), uint32_t(sectors));
    }

private:
    disk_drive &m_drive;
    const tlm::tlm_generic_payload &m_command;
    bool m_contended;
    bool m_observed;
};

disk_drive::disk_drive(sc_core::sc_module_name name, const disk_spec &spec, const drive_options &options)
    : sc_module(name), target("target"), bus("bus"), m_options(options) {
    check_supported(spec, options.one_command_at_a_time ? drive_use::one_command_at_a_time : drive_use::queued_commands);
    m_engine = std::make_unique<drive_engine>(spec, options.spindle_phase);
    target.register_b_transport(this, &disk_drive::b_transport);
    target.register_transport_dbg(this, &disk_drive::transport_dbg);
    SC_THREAD(service_thread);
}

disk_drive::~disk_drive() = default;

void disk_drive::start_of_simulation() {
    if (bus.size() == 0) return;  // unbound: a zero-cost private link (m_bus_terms as initialised)
    auto &t = *m_bus_trans.emplace_back(std::make_unique<tlm::tlm_generic_payload>());
    auto *terms = new protocol::scsi_bus_phase;
    t.set_extension(terms);
    t.set_command(tlm::TLM_IGNORE_COMMAND);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time none = sc_core::SC_ZERO_TIME;
    bus->b_transport(t, none);
    if (!t.is_response_ok())
        SC_REPORT_FATAL("/raidtlm/disks/disk_drive", (std::string(name()) + ": the bus refused to negotiate").c_str());
    m_bus_terms = *terms;
    m_idle_bus_trans.emplace_back(&t, terms);
}

void disk_drive::bus_request(protocol::scsi_bus_request request, const tlm::tlm_generic_payload &command,
                             const sc_core::sc_time &start, const sc_core::sc_time &end, uint32_t sectors) {
    if (m_idle_bus_trans.empty()) {
        tlm::tlm_generic_payload *fresh = m_bus_trans.emplace_back(std::make_unique<tlm::tlm_generic_payload>()).get();
        fresh->set_command(tlm::TLM_IGNORE_COMMAND);
        m_idle_bus_trans.emplace_back(fresh, new protocol::scsi_bus_phase);
        fresh->set_extension(m_idle_bus_trans.back().second);
    }
    const auto [t, phase] = m_idle_bus_trans.back();
    m_idle_bus_trans.pop_back();
    phase->request = request;
    phase->command = &command;
    phase->start = start;
    phase->end = end;
    phase->sectors = sectors;
    t->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bus->b_transport(*t, delay);
    protocol::wait_annotated(delay);
    if (!t->is_response_ok())
        SC_REPORT_ERROR("/raidtlm/disks/disk_drive", (std::string(name()) + ": the bus refused a transaction").c_str());
    m_idle_bus_trans.emplace_back(t, phase);
}
const disk_spec &disk_drive::spec() const { return m_engine->spec(); }
int64_t disk_drive::capacity_blocks() const { return m_engine->spec().block_count; }

void disk_drive::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    sc_core::sc_trace(tf, m_mech_state, prefix + ".mech_state");
    sc_core::sc_trace(tf, m_cmd_state, prefix + ".cmd_state");
    sc_core::sc_trace(tf, m_cylinder, prefix + ".cylinder");
    sc_core::sc_trace(tf, m_head, prefix + ".head");
    waveforms::trace(tf, m_queue_depth, prefix + ".queue_depth");
    sc_core::sc_trace(tf, m_request, prefix + ".request");
    m_waves = std::make_unique<waveforms::scheduled_trace>(tf);
    m_waves->show_undriven(m_request, -1);  // no command in service
    m_engine->on_trace = [this](const drive_trace_event &e) {
        if (e.mechanism) {
            const double at_ms = std::max(m_last_mech_change_ms, e.time_ms);
            trace_at(m_mech_state, e.state, m_last_mech_change_ms, at_ms);
            trace_at(m_cylinder, e.cyl, m_last_mech_change_ms, at_ms);
            trace_at(m_head, e.head, m_last_mech_change_ms, at_ms);
        } else {
            trace_at(m_cmd_state, e.state, m_last_cmd_change_ms, e.time_ms);
        }
    };
}

void disk_drive::trace_at(int &var, int value, double &last_ms, double at_ms) {
    // The engine reports each signal's changes in the order they happen, but a command's start
    // (now_ms(), rounded to the kernel's picoseconds) can come out a hair before the previous
    // command's completion (a double): its "overhead" would then apply first and the
    // completion's "idle" hide the whole next command (seen on the default scenario).
    last_ms = std::max(last_ms, at_ms);
    m_waves->set_at(var, value, last_ms * 1e-3);
}

void disk_drive::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    auto *cmd = trans.get_extension<protocol::scsi_command>();
    const bool is_rw = trans.is_read() || trans.is_write();
    if (!cmd || !is_rw || cmd->blocks == 0) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    if (int64_t(cmd->lbn + cmd->blocks) > capacity_blocks()) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (trans.get_data_length() != 0 && trans.get_data_length() != cmd->blocks * protocol::token_bytes) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    // "Max queue length" counts commands queued and in service; beyond it the initiator holds
    // the command (as after a SCSI QUEUE FULL) until one completes. Held commands go in, in the
    // order they were held: a command arriving while others are held waits behind them, so an
    // initiator that re-issues at once when its command completes cannot starve the others.
    const int capacity = m_engine->spec().interface.max_queue_length;
    // On a shared bus a command the drive cannot start at once is taken into the queue (or, when
    // the queue is full, held) and the drive disconnects: it reselects when it starts on it.
    bool connected = true;
    // A command that will be held disconnects too: held while connected, it would keep the bus
    // from the drive's own reselection for the command ahead of it.
    if (m_bus_terms.contended && (m_serving || !m_queue.empty() || m_in_drive >= capacity || !m_held.empty())) {
        connected = false;
        bus_request(protocol::scsi_bus_request::disconnect, trans);
    }
    pending p{&trans, cmd, {}, {}, 0.0, connected, m_media_generation};
    // Commands held beyond Max queue length go in in the order they were held: a client that
    // re-issues at once must not win every freed slot.
    // Which held command goes in next is the initiator queue's policy (arrival order unless a
    // DiskSim iodriver queue says otherwise: interface_spec::held_scheduling).
    if (m_in_drive >= capacity || !m_held.empty()) {
        m_held.push_back(&p);
        if (m_in_drive < capacity) admit_next_held();
        while (m_in_drive >= capacity || m_admitting != &p) sc_core::wait(p.admitted);
        m_held.erase(std::find(m_held.begin(), m_held.end(), &p));
        m_admitting = nullptr;
        m_held_position = int64_t(cmd->lbn + cmd->blocks);
        // A slot may be left for the next held command (several completions before it ran).
        if (m_in_drive + 1 < capacity) admit_next_held();
    }
    ++m_in_drive;
    p.arrival_ms = now_ms();
    m_queue.push_back(&p);
    m_queue_depth = m_in_drive;
    m_arrival.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(p.done);
}

disk_drive::pending *disk_drive::next_pending() {
    // The drive's own queue policy (DiskSim ioqueue numbering), by LBN.
    const size_t i = pick_by_policy(
        m_queue.size(), [this](size_t k) { return int64_t(m_queue[k]->cmd->lbn); },
        m_engine->spec().interface.scheduling, m_last_lbn, m_ascending);
    pending *p = m_queue[i];
    m_queue.erase(m_queue.begin() + static_cast<std::ptrdiff_t>(i));
    return p;
}

void disk_drive::admit_next_held() {
    if (m_held.empty() || m_admitting) return;
    const size_t i = pick_by_policy(
        m_held.size(), [this](size_t k) { return int64_t(m_held[k]->cmd->lbn); },
        m_engine->spec().interface.held_scheduling, m_held_position, m_held_ascending);
    m_admitting = m_held[i];
    m_admitting->admitted.notify(sc_core::SC_ZERO_TIME);
}

void disk_drive::service_thread() {
    for (;;) {
        while (m_queue.empty()) sc_core::wait(m_arrival);
        pending *p = next_pending();
        m_serving = true;
        serve(*p);
        m_serving = false;
        --m_in_drive;
        m_queue_depth = m_in_drive;
        admit_next_held();
        p->done.notify(sc_core::SC_ZERO_TIME);
    }
}

void disk_drive::serve(pending &p) {
    protocol::scsi_command &cmd = *p.cmd;
    port on_bus(*this, *p.trans);
    const double start = now_ms();
    m_serve_start_ms = start;
    drive_request req{p.trans->is_write(), int64_t(cmd.lbn), int(cmd.blocks), p.connected,
                      p.trans->is_write() && cmd.read_rotate_write,
                      p.trans->is_write() && cmd.read_rotate_write ? cmd.relocate_lbn : -1,
                      !p.trans->is_write() && cmd.force_unit_access};
    if (m_waves) trace_at(m_request, int(cmd.host_request), m_last_request_change_ms, start);
    const drive_result r = m_engine->serve(req, start, on_bus);
    if (m_waves) trace_at(m_request, -1, m_last_request_change_ms, r.complete_ms);
    wait_until_ms(r.complete_ms);
    // The drive it was sent to was pulled meanwhile: nothing reaches the fresh one, nothing comes back.
    const bool left_with_old_drive = p.media_generation != m_media_generation;
    if (req.read_rotate_write && cmd.old_tokens && !left_with_old_drive) {
        cmd.old_tokens->resize(cmd.blocks);
        for (uint32_t i = 0; i < cmd.blocks; ++i) {
            (*cmd.old_tokens)[i] = m_tokens.get(req.lbn + i);
        }
    }
    const int64_t written_at = req.write_lbn >= 0 ? req.write_lbn : req.lbn;
    bool unreadable = false;
    if (!m_unreadable.empty() && !left_with_old_drive) {
        const int64_t first = req.write ? written_at : req.lbn;
        const auto from = m_unreadable.lower_bound(first), to = m_unreadable.lower_bound(first + cmd.blocks);
        if (req.write) m_unreadable.erase(from, to);  // rewritten: reallocated, readable again
        else unreadable = from != to;
    }
    cmd.medium_error = unreadable;
    if (!unreadable && !left_with_old_drive) move_tokens(*p.trans, req.write ? written_at : req.lbn, cmd.blocks);
    m_last_lbn = (req.write ? written_at : req.lbn) + req.blocks;

    auto ms = [](double v) { return sc_core::sc_time(v, sc_core::SC_MS); };
    protocol::access_timing &tm = cmd.timing;
    tm = protocol::access_timing{};
    // Waiting for the mechanism to finish earlier work is queueing inside the drive.
    tm.queue = ms(start - p.arrival_ms + r.mechanism_wait_ms);
    tm.cache = r.cache;
    tm.write_back = r.write_back;
    tm.seek_distance_cyl = uint32_t(r.seek_distance_cyl);
    tm.media_accessed = r.media_accessed;
    tm.media_end = r.media_accessed ? ms(r.media_end_ms) : sc_core::SC_ZERO_TIME;
    tm.end_cylinder = uint32_t(r.media_end_head.cyl);
    tm.end_head = uint32_t(r.media_end_head.head);
    tm.bus_wait = ms(r.bus_wait_ms);
    const double service = r.complete_ms - start;
    if (r.write_back || r.cache == protocol::cache_outcome::full_hit) {
        // The media work (if any) is off the response path.
        tm.transfer = ms(std::max(0.0, service - r.overhead_ms - r.bus_wait_ms));  // write-back or full hit
    } else {
        tm.seek = ms(r.seek_ms);
        tm.rotation = ms(r.rotation_ms);
        tm.transfer = ms(std::max(0.0, service - r.mechanism_wait_ms - r.overhead_ms - r.bus_wait_ms - r.seek_ms -
                                           r.rotation_ms));
    }
    tm.overhead = ms(r.overhead_ms);
    p.trans->set_response_status(unreadable || left_with_old_drive ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                                                   : tlm::TLM_OK_RESPONSE);

    drive_statistics &s = m_stats;
    ++s.requests;
    (req.write ? s.writes : s.reads) += 1;
    s.full_hits += r.cache == protocol::cache_outcome::full_hit;
    s.partial_hits += r.cache == protocol::cache_outcome::partial_hit;
    s.write_backs += r.write_back;
    if (r.moved_arm) {
        ++s.seeks;
        s.seek_distance_cyl_sum += r.seek_distance_cyl;
    }
    s.seek_ms_sum += r.seek_ms;
    s.rotation_ms_sum += r.rotation_ms;
    s.transfer_ms_sum += r.transfer_ms;
    s.overhead_ms_sum += r.overhead_ms;
    s.queue_ms_sum += start - p.arrival_ms + r.mechanism_wait_ms;
    // Busy: the command's own service plus media work that outlives it (write-back).
    s.busy_ms += std::max(r.complete_ms, m_engine->mechanism_free_ms()) - std::max(start, m_busy_until_ms);
    m_busy_until_ms = std::max(r.complete_ms, m_engine->mechanism_free_ms());
    m_serve_start_ms = -1;
}

void disk_drive::inject_media_error(int64_t lbn, int32_t blocks) {
    for (int64_t b = std::max<int64_t>(0, lbn); b < lbn + blocks && b < capacity_blocks(); ++b) m_unreadable.insert(b);
}

void disk_drive::corrupt_media(int64_t lbn, int32_t blocks) {
    constexpr uint64_t flipped_bits = 0x5a5a'c3c3'0f0f'9696ULL;  // nonzero: every sector's contents change
    for (int64_t b = std::max<int64_t>(0, lbn); b < lbn + blocks && b < capacity_blocks(); ++b)
        m_tokens.set(b, m_tokens.get(b) ^ flipped_bits);
}

unsigned disk_drive::transport_dbg(tlm::tlm_generic_payload &trans) {
    const uint32_t blocks = uint32_t(trans.get_data_length() / protocol::token_bytes);
    if (blocks == 0 || !trans.get_data_ptr()) return 0;
    move_tokens(trans, int64_t(trans.get_address() / protocol::sector_bytes), blocks);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return blocks * protocol::token_bytes;
}

void disk_drive::move_tokens(tlm::tlm_generic_payload &trans, int64_t lbn, uint32_t blocks) {
    if (trans.get_data_length() == 0) return;
    auto *data = trans.get_data_ptr();
    for (uint32_t i = 0; i < blocks; ++i) {
        uint64_t token;
        if (trans.is_write()) {
            std::memcpy(&token, data + i * protocol::token_bytes, sizeof token);
            m_tokens.set(lbn + i, token);
        } else {
            token = m_tokens.get(lbn + i);
            std::memcpy(data + i * protocol::token_bytes, &token, sizeof token);
        }
    }
}

}  // namespace raidtlm::disks
