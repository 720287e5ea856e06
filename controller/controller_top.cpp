#include "controller/controller_top.h"
#include "controller/controller_top_state.h"
#include "controller/floating_firmware.h"
#include "controller/make_layout.h"
#include "controller/mirror_read_router.h"
#include "rtl_models/sim_time.h"
#include "tlm/annotated_delay.h"


#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>

#include <fmt/format.h>

namespace raidtlm::controller {

namespace {
using rtl_models::now_s;
const char *msg_type = "/raidtlm/controller/controller_top";

// DRAM ports and their fixed priorities (higher first): the CPU's table accesses, host DMA, the
// SCSI channels' DMA, the XOR engine.
std::vector<rtl_models::dram_port> dram_ports(int channels) {
    std::vector<rtl_models::dram_port> p{{"cpu", 3}, {"host", 2}};
    for (int c = 0; c < channels; ++c) p.push_back({fmt::format("ch{}", c), 1});
    p.push_back({"xor", 0});
    return p;
}

std::vector<uint64_t> capacities(const std::vector<disk_info> &disks) {
    if (disks.empty()) SC_REPORT_FATAL(msg_type, "no disks");
    std::vector<uint64_t> c;
    for (const auto &d : disks) c.push_back(d.capacity_blocks);
    return c;
}

std::unique_ptr<layout> make_parity_logging_layout(const firmware_config &fw, const std::vector<disk_info> &disks);

// The array's layout; none for a JBOD concatenation (host_address_map does that).
std::unique_ptr<layout> build_layout(const firmware_config &fw, const std::vector<disk_info> &disks) {
    if (fw.array == array_kind::raid0 && fw.layout == host_layout::jbod) return nullptr;
    if (fw.array == array_kind::parity_logging) return make_parity_logging_layout(fw, disks);
    layout_config lc;
    lc.kind = fw.array == array_kind::sr_array ? "sr-mirror"
              : fw.array == array_kind::floating ? "raid5"
                                                 : to_string(fw.array);
    lc.sr.ds = fw.sr_ds;
    lc.sr.dr = fw.sr_dr;
    lc.sr.dm = fw.sr_dm;
    lc.unit_sectors = int64_t(fw.stripe_unit_sectors);
    lc.mirror_copies = fw.mirror_copies;
    lc.placement = fw.parity_rotation;
    std::vector<int64_t> sizes;
    for (const auto &d : disks) sizes.push_back(int64_t(d.capacity_blocks));
    if (fw.array == array_kind::floating)  // RAID 5 over what floating leaves: one track per cylinder free
        for (auto &s : sizes) s = floating_logical_sectors(disks.front(), int(fw.stripe_unit_sectors));
    return make_layout(lc, sizes, disks.front().geometry);
}

std::unique_ptr<layout> make_parity_logging_layout(const firmware_config &fw, const std::vector<disk_info> &disks) {
    const parity_logging_config &c = fw.parity_logging;
    parity_logging_params p;
    p.track_sectors = c.track_sectors;
    if (p.track_sectors == 0 && disks.front().geometry)  // the outermost zone's track
        p.track_sectors = disks::disk_layout(*disks.front().geometry).sectors_per_track(0);
    p.unit_sectors = int64_t(fw.stripe_unit_sectors);
    p.log_stripes = c.log_stripes;
    p.log_to_parity = c.log_to_parity;
    p.regions_per_disk = c.regions_per_disk;
    p.log_write_tracks = c.log_write_tracks;
    std::vector<int64_t> sizes;
    for (const auto &d : disks) sizes.push_back(int64_t(d.capacity_blocks));
    return std::make_unique<parity_logging_layout>(sizes, p);
}

}  // namespace


controller_top::controller_top(sc_core::sc_module_name name, const controller_config &config,
                               const std::vector<disk_info> &disks)
    : sc_module(name),
      host("host"),
      disk("disk", disks.size()),
      disk_bus("disk_bus", disks.size()),
      m_config(config),
      m_map(config.firmware.layout, config.firmware.stripe_unit_sectors, capacities(disks)),
      m_layout(build_layout(config.firmware, disks)) {
    if (config.channels < 1) SC_REPORT_FATAL(msg_type, "at least one channel");
    m_parity = dynamic_cast<const parity_layout *>(m_layout.get());
    if (config.firmware.array == array_kind::floating) init_floating(disks);
    // Every layout with copies: reads to one holder (acquire_any), writes through the table.
    m_replicated_reads = m_layout && !m_parity && m_layout->copies() > 1;
    if (m_replicated_reads && !config.firmware.delayed_writes.foreground_propagation) {
        delayed_write_table::config tc;
        tc.force_threshold_entries = config.firmware.delayed_writes.threshold_entries;
        m_table = std::make_unique<delayed_write_table>(int(disks.size()), tc);
    }
    m_capacity = m_layout ? uint64_t(m_layout->capacity_sectors()) : m_map.capacity_sectors();
    host.register_b_transport(this, &controller_top::b_transport);
    m_cpu = std::make_unique<rtl_models::controller_cpu>("cpu", config.cpu);
    m_dram = std::make_unique<rtl_models::buffer_dram>("dram", config.dram, dram_ports(config.channels));
    m_nvram = std::make_unique<rtl_models::nvram>("nvram", config.nvram);
    m_xor = std::make_unique<rtl_models::xor_engine>("xor", config.xor_engine);
    m_link = std::make_unique<rtl_models::host_link>("host_link", config.host_link);
    m_cpu_port = m_dram->port_index("cpu");
    m_to_link.bind(m_link->dma);
    m_link->dram.bind(m_dram->port[size_t(m_dram->port_index("host"))]);
    m_to_xor.bind(m_xor->command);
    m_xor->dram.bind(m_dram->port[size_t(m_dram->port_index("xor"))]);
    m_to_nvram.bind(m_nvram->socket);
    m_to_dram.bind(m_dram->port[size_t(m_cpu_port)]);
    if (m_table) {
        const uint64_t bytes = uint64_t(config.firmware.delayed_writes.threshold_entries) *
                               config.firmware.delayed_writes.entry_bytes;
        m_nvram_table_base = m_nvram->allocate(bytes);
        if (m_nvram_table_base < 0)
            SC_REPORT_FATAL(msg_type, fmt::format("the delayed-write table ({} entries of {} bytes) does not fit "
                                                  "the NVRAM ({} bytes)",
                                                  config.firmware.delayed_writes.threshold_entries,
                                                  config.firmware.delayed_writes.entry_bytes,
                                                  config.nvram.capacity_bytes)
                                          .c_str());
    }
    // Drive i sits on channel i mod channels, at the i / channels-th SCSI ID.
    std::vector<std::vector<int>> channel_targets(size_t(config.channels));
    for (size_t i = 0; i < disks.size(); ++i) {
        const int channel = int(i) % config.channels, position = int(i) / config.channels;
        if (position >= max_targets(config.bus.width_bits))
            SC_REPORT_FATAL(msg_type, fmt::format("more drives on channel {} than a {}-bit bus has SCSI IDs", channel,
                                                  config.bus.width_bits)
                                          .c_str());
        channel_targets[size_t(channel)].push_back(target_id(position, config.initiator_id));
    }
    for (int c = 0; c < config.channels; ++c) {
        m_buses.push_back(std::make_unique<rtl_models::scsi_bus>(fmt::format("ch{}", c).c_str(), config.bus,
                                                                 config.initiator_id, channel_targets[size_t(c)]));
        const int port = m_dram->port_index(fmt::format("ch{}", c));
        m_channels.push_back(
            std::make_unique<rtl_models::scsi_channel>(fmt::format("ch{}_adapter", c).c_str(), *m_dram, port));
        m_channels.back()->bus.bind(m_buses.back()->from_initiator);
        m_buses.back()->data_phases.bind(m_channels.back()->data_phases);
        m_channels.back()->dram.bind(m_dram->port[size_t(port)]);
    }
    if (auto *pl = dynamic_cast<const parity_logging_layout *>(m_layout.get()))
        m_plog = std::make_unique<parity_logging_firmware>(*this, *pl, config.firmware.parity_logging);
    m_disk.resize(disks.size());
    for (size_t i = 0; i < disks.size(); ++i) {
        disk_state &d = m_disk[i];
        d.channel = int(i) % config.channels;
        d.target = target_id(int(i) / config.channels, config.initiator_id);
        d.tags = config.firmware.tags_per_disk > 0 ? config.firmware.tags_per_disk
                                                   : std::max(1, disks[i].max_queue_length);
        m_buses[size_t(d.channel)]->to_target(d.target).bind(disk[i]);
        disk_bus[i].bind(m_buses[size_t(d.channel)]->from_target(d.target));
        if (config.firmware.scheduler != scheduling_policy::fcfs) {
            const auto policy = config.firmware.scheduler;
            if (!disks[i].geometry)
                SC_REPORT_FATAL(msg_type, fmt::format("scheduler {} needs the drives' geometry (disk_info::geometry)",
                                                      to_string(policy))
                                              .c_str());
            if (i == 0 || disks[i].geometry != disks[i - 1].geometry)
                m_geometries.push_back(std::make_unique<disks::disk_layout>(*disks[i].geometry));
            d.geometry = m_geometries.back().get();
            disk_scheduler::config sc;
            sc.policy = policy;
            sc.cvscan_r = config.firmware.cvscan_r;
            sc.cylinders = d.geometry->to_physical(d.geometry->lbn_count() - 1).cyl + 1;
            d.scheduler = std::make_unique<disk_scheduler>(sc);
            if (policy == scheduling_policy::satf || is_replica_aware(policy)) {
                head_position_predictor::config pc = config.firmware.predictor;
                pc.spindle_phase = disks[i].spindle_phase;
                d.predictor = std::make_unique<head_position_predictor>(*disks[i].geometry, pc);
                if (config.firmware.tags_per_disk == 0) d.tags = 1;
            }
        }
    }
    if (!m_disk.empty() && m_disk.front().predictor && config.firmware.predictor.reference_interval_ms > 0)
        SC_THREAD(reference_reader);
}

controller_top::~controller_top() = default;
int controller_top::channel_of(int disk) const { return m_disk.at(size_t(disk)).channel; }
int controller_top::target_id_of(int disk) const { return m_disk.at(size_t(disk)).target; }
int controller_top::tags_of(int disk) const { return m_disk.at(size_t(disk)).tags; }

void controller_top::check_power() {
    if (!m_powered) sc_core::wait(m_never);  // never notified: the firmware thread is gone
    // A thread from before a power loss that woke after the power came back is gone too.
    const auto it = m_thread_epoch.find(sc_core::sc_get_current_process_handle().get_process_object());
    if (it != m_thread_epoch.end() && it->second != m_epoch) sc_core::wait(m_never);
}

void controller_top::check_power(uint64_t epoch) {
    if (!m_powered || epoch != m_epoch) sc_core::wait(m_never);
}

void controller_top::join_epoch(uint64_t epoch) {
    m_thread_epoch[sc_core::sc_get_current_process_handle().get_process_object()] = epoch;
    check_power();
}

// ---- a host request -------------------------------------------------------------------------

void controller_top::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
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
    const uint64_t seq = m_sequence++;
    if (m_config.firmware.fail_disk >= 0 && seq == m_config.firmware.fail_after_requests)
        m_failed = m_config.firmware.fail_disk;
    const int affinity = int(seq % 1024);
    ++m_stats.requests;
    m_stats.peak_outstanding = std::max(m_stats.peak_outstanding, ++m_outstanding);
    const bool write = trans.is_write();
    const uint64_t lbn = cmd->lbn;
    const uint32_t sectors = cmd->blocks;
    const uint64_t bytes = uint64_t(sectors) * protocol::sector_bytes;

    m_cpu->run_priced(rtl_models::cpu_task::host_command, affinity);
    check_power();
    protocol::buffer_block *buffer = m_dram->allocate(bytes, data ? sectors : 0);
    check_power();
    int64_t intent = -1;
    if (write) {
        if (m_config.firmware.write_intent_log) intent = log_intent(lbn, sectors, seq, affinity);
        host_dma(trans, buffer, bytes, affinity);
    }

    const bool tokens = !buffer->tokens.empty();
    if (write && tokens)
        for (uint32_t i = 0; i < sectors; ++i) m_scoreboard.write_issued(int64_t(lbn + i), buffer->tokens[i]);

    bool ok;
    std::vector<disk_fragment> pieces;
    std::vector<uint64_t> logical;  // replicated layouts: this request's place in the write order
    if (!m_layout) {
        m_map.map(lbn, sectors, pieces);
        ok = run_fragments(trans, pieces, buffer);
    } else if (m_plog) {
        ok = write ? m_plog->write(lbn, sectors, buffer, affinity) : m_plog->read(lbn, sectors, buffer, affinity);
    } else if (m_parity && write) {
        ok = parity_write(lbn, sectors, buffer, affinity);
    } else if (m_replicated_reads && !write) {
        ok = replicated_read(lbn, sectors, buffer, cmd, &logical);
    } else if (m_table && write) {
        ok = replicated_write(lbn, sectors, buffer, seq + 1, affinity, &logical);
    } else if (m_parity && m_failed >= 0) {
        ok = degraded_read(lbn, sectors, buffer, affinity);
    } else {
        fragments_of(write, lbn, sectors, pieces);
        ok = !pieces.empty() && run_fragments(trans, pieces, buffer);
    }
    check_power();

    if (!write && ok && tokens)
        for (uint32_t i = 0; i < sectors; ++i) m_scoreboard.check_read(int64_t(lbn + i), buffer->tokens[i]);
    if (!write && ok) host_dma(trans, buffer, bytes, affinity);
    if (write && ok && tokens)
        for (uint32_t i = 0; i < sectors; ++i) m_scoreboard.write_acknowledged(int64_t(lbn + i), buffer->tokens[i]);
    if (!logical.empty()) {
        for (uint64_t t : logical) m_logical.leave(t);
        m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    }
    if (intent >= 0) clear_intent(intent);
    table_update(affinity);
    const auto held = m_table && write ? m_held.find(seq + 1) : m_held.end();
    if (held != m_held.end()) {
        // The delayed copies still need the data: freed when the last is written.
        held->second.acknowledged = true;
        try_free(seq + 1);
    } else {
        m_dram->free(buffer);
    }
    --m_outstanding;
    trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE);
}

// One drive command: a tag, the command over the channel, the drive, the DMA.
bool controller_top::disk_io(tlm::tlm_command command, int d, uint64_t lbn, uint32_t sectors,
                             protocol::buffer_block *buffer, uint64_t first_sector, protocol::scsi_command *timing_to,
                             std::vector<uint64_t> *old_tokens, const std::vector<placement> *choices,
                             size_t *chosen, int64_t relocate_lbn) {
    const bool write = command == tlm::TLM_WRITE_COMMAND;
    size_t pick = 0;
    const uint64_t n = acquire_tag(d, lbn, sectors, write, choices, &pick);
    if (choices) {
        lbn = uint64_t((*choices)[pick].extents.front().drive_lbn);
        sectors = uint32_t((*choices)[pick].extents.front().sectors);
        if (chosen) *chosen = pick;
    }
    if (m_floating && relocate_lbn != raw_drive_lbn) lbn = floating_lbn(d, lbn, sectors);  // where the unit is now
    check_power();
    const bool ok = drive_command(command, d, n, lbn, sectors, buffer, first_sector, timing_to, old_tokens, relocate_lbn);
    release_tag(d);
    return ok;
}

bool controller_top::drive_command(tlm::tlm_command command, int d, uint64_t n, uint64_t lbn, uint32_t sectors,
                                   protocol::buffer_block *buffer, uint64_t first_sector,
                                   protocol::scsi_command *timing_to, std::vector<uint64_t> *old_tokens,
                                   int64_t relocate_lbn) {
    disk_state &ds = m_disk[size_t(d)];
    const bool write = command == tlm::TLM_WRITE_COMMAND;
    // satf: what the firmware predicts for this command, starting from the tag grant.
    const double granted_ms = now_s() * 1e3;
    access_prediction predicted;
    double arrive_ms = 0, overhead_ms = 0;
    bool after_expected_media_write = false;
    if (ds.predictor) {
        arrive_ms = granted_ms + std::max(0.0, ds.start_offset_ms);
        overhead_ms = ds.predictor->command_overhead_ms(write);
        after_expected_media_write = ds.predictor->busy_until_ms() > arrive_ms + overhead_ms;
        predicted = ds.predictor->predict(ds.geometry->to_physical(int64_t(lbn)), write, arrive_ms + overhead_ms);
    }
    const rtl_models::cpu_cost_table &c = m_cpu->costs();
    m_cpu->run({{rtl_models::cpu_task::schedule, c.schedule_cycles(n)},
                {rtl_models::cpu_task::physical_command, c.physical_command_cycles},
                {rtl_models::cpu_task::dma_setup, c.dma_setup_cycles}},
               ds.channel);
    check_power();

    tlm::tlm_generic_payload *gp = m_pool.acquire();
    gp->set_command(command);
    gp->set_address(lbn * protocol::sector_bytes);
    if (buffer && !buffer->tokens.empty()) {
        gp->set_data_ptr(reinterpret_cast<unsigned char *>(buffer->tokens.data() + first_sector));
        gp->set_data_length(sectors * protocol::token_bytes);
        gp->set_streaming_width(sectors * protocol::token_bytes);
    }
    auto *cmd = gp->get_extension<protocol::scsi_command>();
    cmd->lbn = lbn;
    cmd->blocks = sectors;
    cmd->read_rotate_write = old_tokens != nullptr;
    cmd->old_tokens = old_tokens;
    cmd->relocate_lbn = old_tokens && relocate_lbn >= 0 ? relocate_lbn : -1;
    if (old_tokens) ++m_stats.read_rotate_writes;
    cmd->target_id = ds.target;
    ++m_stats.physical_commands;

    m_channels[size_t(ds.channel)]->execute(*gp);  // selection, data phases with the DMA, status
    check_power();
    m_cpu->run_priced(rtl_models::cpu_task::completion_interrupt, ds.channel);
    check_power();

    const bool ok = gp->is_response_ok();
    if (ds.geometry) ds.head.cylinder = ds.geometry->to_physical(int64_t(lbn + sectors) - 1).cyl;
    const protocol::access_timing &tm = cmd->timing;
    ds.last_activity_ms = now_s() * 1e3;
    ds.referenced = false;
    m_disk_activity.notify(sc_core::SC_ZERO_TIME);
    if (ds.reference_pending) {
        // The reference sector passed under the head when the read ended: re-anchor on it.
        if (ok && tm.media_accessed)
            ds.predictor->observe_reference_read(ds.geometry->to_physical(int64_t(lbn)),
                                                 tm.media_end.to_seconds() * 1e3);
    } else if (ds.predictor && ok && tm.write_back) {
        // The drive took the data into its cache and writes them to the media itself, right after
        // its command overhead: the firmware cannot see when, so it predicts that write (the head
        // ends on the last sector) instead of learning from this completion.
        ds.predictor->expect_media_write(ds.geometry->to_physical(int64_t(lbn)),
                                         ds.geometry->to_physical(int64_t(lbn + sectors) - 1), int(sectors),
                                         arrive_ms + overhead_ms);
    } else if (ds.predictor && ok && tm.media_accessed) {
        // Learn from the completion: the head is on the reported track just past the last sector.
        disks::physical_address last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
        last.cyl = int(tm.end_cylinder);
        last.head = int(tm.end_head);
        const double media_end_ms = tm.media_end.to_seconds() * 1e3;
        const double actual_ms = (tm.seek + tm.rotation).to_seconds() * 1e3;
        const double period = ds.predictor->period_ms();
        if (!old_tokens && !after_expected_media_write) {
            // When the drive started positioning: before the seek, the rotational wait and the
            // media transfer of the sectors (one track's worth of sectors per revolution); before
            // that, its command overhead. (Not when an expected media write may have held it.)
            const double xfer_ms = double(sectors) * period / ds.geometry->sectors_per_track(last.cyl);
            const double offset = media_end_ms - xfer_ms - actual_ms - overhead_ms - granted_ms;
            ds.start_offset_ms = ds.start_offset_learned ? ds.start_offset_ms + 0.1 * (offset - ds.start_offset_ms) : offset;
            ds.start_offset_learned = true;
        }
        ds.predictor->record(predicted.access_ms(), actual_ms);
        m_stats.prediction.add(predicted.access_ms(), actual_ms, period);
        m_stats.slack_sectors_sum += ds.predictor->slack_sectors();
        ds.predictor->observe_completion(last, media_end_ms);
    }
    if (ds.predictor && ok) ds.predictor->command_done(write);
    if (timing_to) timing_to->timing = cmd->timing;
    cmd->read_rotate_write = false;
    cmd->old_tokens = nullptr;
    cmd->relocate_lbn = -1;
    gp->release();
    return ok;
}

bool controller_top::parallel(size_t n, const std::function<bool(size_t)> &job) {
    if (n == 0) return true;
    if (n == 1) return job(0);
    worker_pool::group g;
    bool all = true;
    const uint64_t epoch = m_epoch;  // the workers belong to this request's power epoch
    for (size_t i = 1; i < n; ++i)
        m_workers.run(g, [this, &job, &all, i, epoch] {
            join_epoch(epoch);
            all = job(i) && all;
        });
    const bool ok = job(0);
    g.wait();
    return ok && all;
}

bool controller_top::run_fragments(tlm::tlm_generic_payload &host_trans, const std::vector<disk_fragment> &pieces,
                                   protocol::buffer_block *buffer) {
    protocol::scsi_command *timing =
        pieces.size() == 1 ? host_trans.get_extension<protocol::scsi_command>() : nullptr;
    const tlm::tlm_command command = host_trans.get_command();
    return parallel(pieces.size(), [&](size_t i) {
        const disk_fragment &f = pieces[i];
        return disk_io(command, f.disk, f.lbn, f.sectors, buffer, f.host_offset, timing);
    });
}

// ---- NVRAM write-intent records ---------------------------------------------------------------

int64_t controller_top::log_intent(uint64_t lbn, uint32_t sectors, uint64_t seq, int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::table_update, affinity);
    check_power();
    int64_t addr;
    while ((addr = m_nvram->allocate(sizeof(intent_record))) < 0) sc_core::wait(m_nvram_space);
    intent_record r;
    r.lbn = lbn;
    r.sectors = sectors;
    r.sequence = seq;
    nvram_write(uint64_t(addr), &r, sizeof r);
    return addr;
}

void controller_top::clear_intent(int64_t address) {
    uint32_t invalid = 0;
    nvram_write(uint64_t(address) + offsetof(intent_record, valid), &invalid, sizeof invalid);
    m_nvram->release(address);
    m_nvram_space.notify(sc_core::SC_ZERO_TIME);
}

void controller_top::nvram_write(uint64_t address, const void *data, unsigned bytes) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(address);
    gp.set_data_ptr(reinterpret_cast<unsigned char *>(const_cast<void *>(data)));
    gp.set_data_length(bytes);
    gp.set_streaming_width(bytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_nvram->b_transport(gp, delay);
    check_power();
}

std::vector<intent_record> controller_top::intent_log() const {
    std::vector<intent_record> out;
    for (const auto &[addr, r] : intent_records()) out.push_back(r);
    return out;
}

std::vector<std::pair<int64_t, intent_record>> controller_top::intent_records() const {
    std::vector<std::pair<int64_t, intent_record>> out;
    auto &socket = const_cast<tlm_utils::simple_initiator_socket<controller_top> &>(m_to_nvram);
    for (const auto &[addr, size] : m_nvram->allocations()) {
        if (size != sizeof(intent_record)) continue;
        intent_record r;
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_READ_COMMAND);
        gp.set_address(uint64_t(addr));
        gp.set_data_ptr(reinterpret_cast<unsigned char *>(&r));
        gp.set_data_length(sizeof r);
        if (socket->transport_dbg(gp) == sizeof r && r.magic == intent_record::magic_value && r.valid)
            out.emplace_back(addr, r);
    }
    return out;
}

// ---- XOR, power, statistics, tracing ------------------------------------------------------------

void controller_top::xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                                uint64_t sectors, int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::xor_setup, affinity);
    check_power();
    tlm::tlm_generic_payload gp;
    protocol::xor_command x;
    x.inputs = inputs;
    x.output = output;
    x.sectors = sectors;
    gp.set_extension(&x);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_xor->b_transport(gp, delay);
    gp.clear_extension(&x);
    check_power();
}

void controller_top::power_fail() {
    m_powered = false;
    m_dram->power_fail();
    m_nvram->power_fail();
}

void controller_top::reset_statistics() {
    m_cpu->reset_statistics();
    m_dram->reset_statistics();
    m_nvram->reset_statistics();
    m_xor->reset_statistics();
    m_link->reset_statistics();
    for (auto &b : m_buses) b->reset_statistics();
    if (m_plog) m_plog->reset_statistics();
    controller_statistics fresh;
    fresh.peak_outstanding = m_outstanding;
    fresh.floating_table_bits = m_stats.floating_table_bits;  // a size, not a count
    if (m_table) {
        m_superseded_base = m_table->superseded();
        m_forced_base = m_table->forced();
        fresh.peak_table_entries = m_table->entries();
        fresh.peak_buffered_sectors = m_table->buffered_sectors();
    }
    m_stats = fresh;
}

void controller_top::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    sc_core::sc_trace(tf, m_outstanding, prefix + ".outstanding");
    m_cpu->trace(tf, prefix + ".cpu");
    m_dram->trace(tf, prefix + ".dram");
    m_nvram->trace(tf, prefix + ".nvram");
    if (m_table) sc_core::sc_trace(tf, m_table_entries, prefix + ".nvram.delayed_entries");
    m_xor->trace(tf, prefix + ".xor");
    m_link->trace(tf, prefix + ".host_link");
    for (size_t c = 0; c < m_buses.size(); ++c) m_buses[c]->trace(tf, fmt::format("{}.ch{}", prefix, c));
    if (m_plog) m_plog->trace(tf, prefix + ".plog");
}

}  // namespace raidtlm::controller
