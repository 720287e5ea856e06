#include "controller/platform/controller_top.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "controller/firmware_api/plugins.h"
#include "tlm/annotated_delay.h"

namespace raidtlm::controller {

namespace {
const char *msg_type = "/raidtlm/controller/controller_top";

// DRAM ports and their fixed priorities (higher first): the CPU's table accesses, host DMA, the
// SCSI channels' DMA, the XOR engine.
std::vector<rtl_models::dram_port> dram_ports(int channels) {
    std::vector<rtl_models::dram_port> p{{"cpu", 3}, {"host", 2}};
    for (int c = 0; c < channels; ++c) p.push_back({fmt::format("ch{}", c), 1});
    p.push_back({"xor", 0});
    return p;
}
}  // namespace

controller_top::controller_top(sc_core::sc_module_name name, const controller_config &config,
                               const std::vector<disk_info> &disks)
    : sc_module(name),
      host("host"),
      disk("disk", disks.size()),
      disk_bus("disk_bus", disks.size()),
      m_traced_state(disks.size(), 0),
      m_traced_rebuild_pct(disks.size(), 0),
      m_config(config),
      m_disks(disks),
      m_members(int(disks.size())),
      m_drive_gone(disks.size(), false),
      m_drives_inserted(disks.size(), 0) {
    if (disks.empty()) SC_REPORT_FATAL(msg_type, "no disks");
    if (config.channels < 1) SC_REPORT_FATAL(msg_type, "at least one channel");
    m_from_link.register_b_transport(this, &controller_top::b_transport);
    m_cpu_trans.set_extension(m_cpu_routine = new rtl_models::cpu_routine);
    m_free_trans.set_extension(m_free_request = new rtl_models::buffer_request);
    m_free_request->what = rtl_models::buffer_request::action::free;
    m_cpu = std::make_unique<rtl_models::controller_cpu>("cpu", config.cpu);
    m_dram = std::make_unique<rtl_models::buffer_dram>("dram", config.dram, dram_ports(config.channels));
    m_nvram = std::make_unique<rtl_models::nvram>("nvram", config.nvram);
    m_xor = std::make_unique<rtl_models::xor_engine>("xor", config.xor_engine);
    m_link = std::make_unique<rtl_models::host_link>("host_link", config.host_link);
    m_cpu_port = m_dram->port_index("cpu");
    host.bind(m_link->command);  // host commands cross the host link
    m_link->to_controller.bind(m_from_link);
    m_to_cpu.bind(m_cpu->tasks);
    m_to_space.bind(m_dram->space);
    m_to_link.bind(m_link->dma);
    m_link->dram.bind(m_dram->port[size_t(m_dram->port_index("host"))]);
    m_to_xor.bind(m_xor->command);
    m_xor->dram.bind(m_dram->port[size_t(m_dram->port_index("xor"))]);
    m_to_nvram.bind(m_nvram->socket);
    m_to_dram.bind(m_dram->port[size_t(m_cpu_port)]);
    // Drive i sits on channel i mod channels, at the i / channels-th SCSI ID.
    std::vector<std::vector<int>> channel_targets(size_t(config.channels));
    for (size_t i = 0; i < disks.size(); ++i) {
        const int channel = int(i) % config.channels;
        const int position = int(i) / config.channels;
        if (position >= max_targets(config.bus.width_bits))
            SC_REPORT_FATAL(msg_type, fmt::format("more drives on channel {} than a {}-bit bus has SCSI IDs", channel,
                                                  config.bus.width_bits)
                                          .c_str());
        m_channel.push_back(channel);
        m_target.push_back(target_id(position, config.initiator_id));
        channel_targets[size_t(channel)].push_back(m_target.back());
    }
    m_to_channel.init(size_t(config.channels));
    for (int c = 0; c < config.channels; ++c) {
        m_buses.push_back(std::make_unique<rtl_models::scsi_bus>(fmt::format("ch{}", c).c_str(), config.bus,
                                                                 config.initiator_id, channel_targets[size_t(c)]));
        const int port = m_dram->port_index(fmt::format("ch{}", c));
        m_channels.push_back(std::make_unique<rtl_models::scsi_channel>(fmt::format("ch{}_adapter", c).c_str()));
        m_to_channel[size_t(c)].bind(m_channels.back()->command);
        m_channels.back()->bus.bind(m_buses.back()->from_initiator);
        m_buses.back()->data_phases.bind(m_channels.back()->data_phases);
        m_channels.back()->dram.bind(m_dram->port[size_t(port)]);
    }
    for (size_t i = 0; i < disks.size(); ++i) {
        rtl_models::scsi_bus &bus = *m_buses[size_t(m_channel[i])];
        bus.to_target(m_target[i]).bind(disk[i]);
        disk_bus[i].bind(bus.from_target(m_target[i]));
    }
    m_firmware = make_firmware(*this);
    m_capacity = m_firmware->capacity_sectors();
}

controller_top::~controller_top() = default;

// ---- power epochs -------------------------------------------------------------------------------

void controller_top::check_power() {
    if (m_powered && m_epoch == 0) return;  // never lost: every thread is of epoch 0
    if (!m_powered) sc_core::wait(m_never);  // never notified: the firmware thread is gone
    // A thread from before a power loss that woke after the power came back is gone too.
    const auto it = m_thread_epoch.find(sc_core::sc_get_current_process_handle().get_process_object());
    if (it != m_thread_epoch.end() && it->second.epoch != m_epoch) sc_core::wait(m_never);
}

void controller_top::check_power(uint64_t epoch) {
    if (!m_powered || epoch != m_epoch) sc_core::wait(m_never);
}

void controller_top::join_epoch(uint64_t epoch) {
    const sc_core::sc_process_handle self = sc_core::sc_get_current_process_handle();
    thread_epoch &e = m_thread_epoch[self.get_process_object()];
    if (!e.thread.valid()) e.thread = self;  // the entry's thread: no other can have its object
    e.epoch = epoch;
    check_power();
}

// ---- a host command -----------------------------------------------------------------------------

void controller_top::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    while (m_recovering) sc_core::wait(m_recovered);  // the firmware serves once it has recovered
    join_epoch(m_epoch);
    auto *cmd = trans.get_extension<protocol::scsi_command>();
    if (!cmd) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (cmd->blocks == 0 || cmd->lbn >= m_capacity || cmd->blocks > m_capacity - cmd->lbn) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    const bool data = trans.get_data_length() != 0;
    if (data && trans.get_data_length() != uint64_t(cmd->blocks) * protocol::token_bytes) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    host_command hc;
    hc.sequence = m_sequence++;
    const double arrived_ms = now_ms();
    if (on_host_request) on_host_request(hc.sequence);
    if (m_config.firmware.fail_disk >= 0 && hc.sequence == m_config.firmware.fail_after_requests)
        fail_member(m_config.firmware.fail_disk);
    // The array's state as the request arrives, for the response times by state.
    const size_t phase = m_members.any(member_state::rebuilding) ? 2 : m_members.all_optimal() ? 0 : 1;
    hc.affinity = int(hc.sequence % 1024);
    ++m_stats.requests;
    m_stats.peak_outstanding = std::max<int>(m_stats.peak_outstanding, ++m_outstanding);
    hc.write = trans.is_write();
    hc.lbn = cmd->lbn;
    hc.sectors = cmd->blocks;
    hc.carries_tokens = data;
    hc.platform_handle = &trans;
    // The scoreboard at the host interface: the write's data as they arrive.
    const uint64_t *tokens = reinterpret_cast<const uint64_t *>(trans.get_data_ptr());
    if (hc.write && data)
        for (uint32_t i = 0; i < hc.sectors; ++i) m_scoreboard.write_issued(int64_t(hc.lbn + i), tokens[i], cmd->host_request);

    set_serving(int64_t(hc.sequence));
    const bool ok = m_firmware->serve(hc);
    set_serving(-1);
    check_power();

    // The response: a read's data checked, a write acknowledged.
    if (!hc.write && ok && data)
        for (uint32_t i = 0; i < hc.sectors; ++i) m_scoreboard.check_read(int64_t(hc.lbn + i), tokens[i]);
    if (hc.write && data)
        for (uint32_t i = 0; i < hc.sectors; ++i) {
            if (ok) m_scoreboard.write_acknowledged(int64_t(hc.lbn + i), tokens[i], cmd->host_request);
            else m_scoreboard.write_failed(int64_t(hc.lbn + i), tokens[i], cmd->host_request);
        }
    if (!ok) ++(hc.write ? m_stats.failed_writes : m_stats.failed_reads);
    m_stats.response_ms_sum[phase] += now_ms() - arrived_ms;
    ++m_stats.responses[phase];
    --m_outstanding;
    trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

bool controller_top::raw_disk_io(bool read, int d, uint64_t lbn, uint32_t sectors, uint64_t *tokens) {
    join_epoch(m_epoch);
    protocol::buffer_block b;
    b.bytes = uint64_t(sectors) * protocol::sector_bytes;
    b.tokens.assign(tokens, tokens + sectors);
    const bool ok = m_firmware->maintenance_io(read, d, lbn, sectors, &b);
    if (read) std::copy(b.tokens.begin(), b.tokens.end(), tokens);
    return ok;
}

// ---- members -------------------------------------------------------------------------------------

void controller_top::sync_traced_members() {
    for (int d = 0; d < m_members.count(); ++d) {
        m_traced_state[size_t(d)] = int(m_members.state(d));
        m_traced_rebuild_pct[size_t(d)] = int(m_members.progress(d) * 100.0);
    }
}

void controller_top::members_changed() {
    // Before the run the creation writes the states as they are; while the power is off nobody
    // writes (the start-up check finds what changed).
    if (!sc_core::sc_is_running() || !m_powered) return;
    // During the start-up the firmware's queues are reset under it: recorded once it is done.
    if (m_recovering) m_members_changed_during_recovery = true;
    else m_firmware->members_changed();
}

void controller_top::set_failed_disk(int d) {
    m_members.set_only_failed(d, now_ms());
    std::fill(m_drive_gone.begin(), m_drive_gone.end(), false);
    if (d >= 0) m_drive_gone.at(size_t(d)) = true;
    sync_traced_members();
    members_changed();
}

void controller_top::fail_member(int d) {
    m_members.set(d, member_state::failed, now_ms());
    m_drive_gone.at(size_t(d)) = true;
    sync_traced_members();
    members_changed();
}

void controller_top::pull_drive(int d) { m_drive_gone.at(size_t(d)) = true; }

void controller_top::insert_drive(int d) {
    m_drive_gone.at(size_t(d)) = false;
    ++m_drives_inserted.at(size_t(d));
}

void controller_top::member_rebuilt(int d) {
    m_members.set(d, member_state::optimal, now_ms());
    sync_traced_members();
    members_changed();
}

bool controller_top::replace_member(int d) {
    m_drive_gone.at(size_t(d)) = false;
    ++m_drives_inserted.at(size_t(d));
    // The firmware takes a new drive once its start-up is done (the recovery's reads and writes
    // were planned with the members as they were).
    while (m_recovering) sc_core::wait(m_recovered);
    if (m_members.state(d) != member_state::failed) return false;
    m_members.set(d, member_state::rebuilding, now_ms());
    sync_traced_members();
    const bool started = m_firmware->start_rebuild(d);
    if (!started) {
        m_members.set(d, member_state::failed, now_ms());
        sync_traced_members();
    }
    members_changed();
    return started;
}

std::vector<int> controller_top::fail_members_not_current() {
    const std::vector<uint64_t> inserted_before = m_drives_inserted;
    const std::vector<member_verdict> verdicts = m_firmware->check_members();
    std::vector<int> rebuild;
    bool changed = false;
    for (size_t d = 0; d < verdicts.size(); ++d) {
        if (verdicts[d] == member_verdict::current) continue;
        changed = true;
        // Not the drive the firmware wrote (or none there): never served. A rebuilding member's
        // rebuild starts again from its first unit onto whatever drive is there now.
        if (m_members.state(int(d)) != member_state::failed) m_members.set(int(d), member_state::failed, now_ms());
        // No drive answered; one put in the slot since (a replacement during the check, taken
        // once the recovery is done: replace_member) is there all the same. Before, the slot was
        // marked empty after it, and the rebuild's writes to it were dropped as to a lost drive:
        // the member came back optimal with nothing written (parity logging, a drive replaced
        // during the log replay).
        if (verdicts[d] == member_verdict::absent && m_drives_inserted[d] == inserted_before[d]) m_drive_gone[d] = true;
        else rebuild.push_back(int(d));
    }
    sync_traced_members();
    if (changed && rebuild.empty()) members_changed();
    return rebuild;
}

void controller_top::start_of_simulation() { m_firmware->create_members_before_run(); }

void controller_top::rebuild_progress(int d, double fraction) {
    m_members.set_progress(d, fraction);
    m_traced_rebuild_pct[size_t(d)] = int(m_members.progress(d) * 100.0);
}

// ---- services: threads --------------------------------------------------------------------------

bool controller_top::parallel(size_t n, const std::function<bool(size_t)> &job) {
    if (n == 0) return true;
    if (n == 1) return job(0);
    worker_pool::group g;
    bool all = true;
    const uint64_t epoch = m_epoch;  // the workers belong to this request's power epoch
    const int64_t request = serving_request();  // and serve the caller's host command
    for (size_t i = 1; i < n; ++i)
        m_workers.run(g, [this, &job, &all, i, epoch, request] {
            join_epoch(epoch);
            set_serving(request);
            all = job(i) && all;
            set_serving(-1);
        });
    const bool ok = job(0);
    g.wait();
    return ok && all;
}

void controller_top::run_background(std::function<void()> job) {
    m_workers.run(m_background, [this, job = std::move(job), epoch = m_epoch] {
        join_epoch(epoch);
        job();
    });
}

int64_t controller_top::serving_request() const {
    if (!m_traced) return -1;
    const auto it = m_serving.find(sc_core::sc_get_current_process_handle().get_process_object());
    return it == m_serving.end() ? -1 : it->second;
}

void controller_top::set_serving(int64_t request) {
    if (m_traced) m_serving[sc_core::sc_get_current_process_handle().get_process_object()] = request;
}

void controller_top::spawn(const std::string &name, std::function<void()> body) {
    sc_core::sc_spawn(std::move(body), name.c_str());
}

// ---- power, statistics, tracing -----------------------------------------------------------------

void controller_top::power_fail() {
    // Already off: one more cause, nothing more is lost (restarting the firmware at the end of
    // this one while another holds, then again at the other's end on a running controller, made
    // a second recovery reset the queues and buffers of live work: heap corruption, members
    // judged from a half-written superblock; EXPERIMENTS 19.23).
    if (m_outages_in_force++ > 0) return;
    m_powered = false;
    m_dram->power_fail();
    m_nvram->power_fail();
}

size_t controller_top::power_restore_and_recover() {
    if (m_outages_in_force > 0 && --m_outages_in_force > 0) return 0;  // another cause still holds
    ++m_epoch;
    m_powered = true;
    join_epoch(m_epoch);  // the thread that restores the power is of the new epoch
    m_dram->power_restore();
    for (auto &channel : m_channels) channel->abandon_all();
    m_outstanding = 0;
    m_recovering = true;
    // Which drives are the members the firmware wrote, before anything is read from them.
    const std::vector<int> rebuild = fail_members_not_current();
    const size_t recovered = m_firmware->restart_after_power_loss();
    m_recovering = false;
    m_recovered.notify(sc_core::SC_ZERO_TIME);
    if (m_members_changed_during_recovery) {
        m_members_changed_during_recovery = false;
        members_changed();
    }
    // Hosts wait until the rebuilds are started (no wait in between: a host request cannot come
    // between the recovery and the rebuild's start and find the new drive served).
    for (int d : rebuild) replace_member(d);
    return recovered;
}

void controller_top::reset_statistics() {
    m_cpu->reset_statistics();
    m_dram->reset_statistics();
    m_nvram->reset_statistics();
    m_xor->reset_statistics();
    m_link->reset_statistics();
    for (auto &b : m_buses) b->reset_statistics();
    m_firmware->reset_statistics();
    controller_statistics fresh;
    fresh.peak_outstanding = m_outstanding;
    fresh.failed_reads = m_stats.failed_reads;
    fresh.failed_writes = m_stats.failed_writes;
    fresh.medium_errors = m_stats.medium_errors;
    fresh.commands_to_failed = m_stats.commands_to_failed;
    fresh.commands_lost_in_flight = m_stats.commands_lost_in_flight;
    m_stats = fresh;
}

void controller_top::trace(sc_core::sc_trace_file *tf, const std::string &prefix,
                           const std::vector<std::string> &disk_names, const waveforms::wave_groups &groups) {
    m_traced = true;
    waveforms::trace(tf, m_outstanding, prefix + ".outstanding");
    for (size_t i = 0; i < m_traced_state.size(); ++i) {
        waveforms::trace(tf, m_traced_state[i], fmt::format("{}.member{}.state", prefix, i));
        waveforms::trace(tf, m_traced_rebuild_pct[i], fmt::format("{}.member{}.rebuild_pct", prefix, i));
    }
    if (groups.has("cpu")) m_cpu->trace(tf, prefix + ".cpu");
    if (groups.has("dram")) m_dram->trace(tf, prefix + ".dram");
    if (groups.has("nvram")) m_nvram->trace(tf, prefix + ".nvram");
    if (groups.has("xor")) m_xor->trace(tf, prefix + ".xor");
    if (groups.has("host_link")) m_link->trace(tf, prefix + ".host_link");
    // Each device's waiting flag on its bus is named after it: the drive's name, "ctrl" for us.
    std::vector<std::map<int, std::string>> labels(m_buses.size());
    for (size_t i = 0; i < m_channel.size(); ++i)
        labels[size_t(m_channel[i])][m_target[i]] = i < disk_names.size() ? disk_names[i] : fmt::format("disk{}", i);
    for (size_t c = 0; c < m_buses.size() && groups.has("channels"); ++c) {
        labels[c][m_config.initiator_id] = "ctrl";
        m_buses[c]->trace(tf, fmt::format("{}.ch{}", prefix, c), labels[c]);
    }
    // The family's own signals (parity logging's, the delayed-write table beside the NVRAM, the
    // ISS core's beside the CPU: the cpu group's view lists them, so they must be in the file).
    const bool iss = m_config.cpu.model == rtl_models::cpu_model::iss;
    if (groups.has("parity_logging") || groups.has("nvram") || (iss && groups.has("cpu"))) m_firmware->trace(tf, prefix);
    if (groups.has("queues")) m_firmware->trace_queues(tf, prefix + ".fw");
}

}  // namespace raidtlm::controller
