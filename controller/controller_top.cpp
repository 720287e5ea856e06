#include "controller/controller_top.h"
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

// Adds a piece, merged with an earlier one contiguous both on the disk and in the request (as
// host_address_map does; other pieces stay separate commands since their data are not contiguous
// in the buffer).
void add_fragment(std::vector<disk_fragment> &out, const disk_fragment &f) {
    for (auto &o : out)
        if (o.disk == f.disk && o.lbn + o.sectors == f.lbn && o.host_offset + o.sectors == f.host_offset) {
            o.sectors += f.sectors;
            return;
        }
    out.push_back(f);
}
}  // namespace

struct controller_top::disk_state {
    struct waiter {
        sc_core::sc_event go;
        bool granted = false;
        size_t placement = 0;  // the placement the scheduler picked
        uint64_t n = 0;  // entries the scheduling decision looked at
        queued_request request;
        // A request duplicated into several holders' queues: its id in the tracker, this copy's
        // holder index, and the waiter the requesting thread waits on (told the holder granted).
        uint64_t dup = 0;
        size_t holder = 0;
        waiter *primary = nullptr;
        size_t granted_holder = 0;
    };
    // The firmware's idea of the head: where the disk's last command ended.
    struct head_oracle final : access_time_oracle {
        int cylinder = 0;
        int head_cylinder() const override { return cylinder; }
        double access_ms(const placement &p, bool) const override { return std::abs(p.first.cyl - cylinder); }
    };
    int channel = 0;
    int target = 0;
    int tags = 1;
    int in_use = 0;
    std::deque<waiter *> queue;
    const disks::disk_layout *geometry = nullptr;
    std::unique_ptr<disk_scheduler> scheduler;  // none: first come, first served
    head_oracle head;
    // satf: the firmware's head-position predictor, and its estimate of the time from granting a
    // tag to the command reaching the drive (controller and bus; learned from completions; the
    // drive's own command overhead, which depends on the kind of command, the predictor adds).
    std::unique_ptr<head_position_predictor> predictor;
    double start_offset_ms = 0;
    bool start_offset_learned = false;
    // Reference reads: when the disk's last command ended, whether a reference read followed
    // (nothing to re-anchor until the next command), and whether one is at the drive now.
    double last_activity_ms = 0;
    bool referenced = true;
    bool reference_pending = false;
    std::vector<queued_request> snapshot;  // the queue as the scheduler sees it
    uint64_t next_id = 0;
};

// The DMA engine of a SCSI channel: follows each data phase the drive reports into or out of the
// buffer DRAM, on the channel's port, from the data phase's start at the bus's pace at best.
struct controller_top::channel_dma final : rtl_models::scsi_data_listener {
    rtl_models::buffer_dram *dram = nullptr;
    int port = 0;
    tlm_utils::simple_initiator_socket<controller_top> socket;
    std::vector<std::pair<const protocol::scsi_command *, rtl_models::dma_tracker *>> active;

    explicit channel_dma(const std::string &name) : socket(name.c_str()) {}
    void data_phase(const protocol::scsi_command &cmd, const sc_core::sc_time &start, const sc_core::sc_time &end,
                    uint32_t sectors) override {
        for (auto &[c, tracker] : active)
            if (c == &cmd) {
                const double bytes = double(sectors) * protocol::sector_bytes;
                const double span = (end - start).to_seconds();
                dram->transfer_at(port, uint64_t(bytes), start, span > 0 ? bytes / span : 0.0, *tracker);
                return;
            }
    }
    void remove(const protocol::scsi_command *cmd) {
        for (auto &a : active)
            if (a.first == cmd) {
                a = active.back();
                active.pop_back();
                return;
            }
    }
};

controller_top::controller_top(sc_core::sc_module_name name, const controller_config &config,
                               const std::vector<disk_info> &disks)
    : sc_module(name),
      host("host"),
      disk("disk", disks.size()),
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
    for (int c = 0; c < config.channels; ++c) {
        m_buses.push_back(std::make_unique<rtl_models::scsi_bus>(fmt::format("ch{}", c).c_str(), config.bus,
                                                                 config.initiator_id));
        m_channel_dma.push_back(std::make_unique<channel_dma>(fmt::format("ch{}_dma", c)));
        channel_dma &dma = *m_channel_dma.back();
        dma.dram = m_dram.get();
        dma.port = m_dram->port_index(fmt::format("ch{}", c));
        dma.socket.bind(m_dram->port[size_t(dma.port)]);
        m_buses.back()->set_listener(&dma);
    }
    if (auto *pl = dynamic_cast<const parity_logging_layout *>(m_layout.get()))
        m_plog = std::make_unique<parity_logging_firmware>(*this, *pl, config.firmware.parity_logging);
    m_disk.resize(disks.size());
    for (size_t i = 0; i < disks.size(); ++i) {
        disk_state &d = m_disk[i];
        d.channel = int(i) % config.channels;
        const int position = int(i) / config.channels;
        if (position >= max_targets(config.bus.width_bits))
            SC_REPORT_FATAL(msg_type, fmt::format("more drives on channel {} than a {}-bit bus has SCSI IDs", d.channel,
                                                  config.bus.width_bits)
                                          .c_str());
        d.target = target_id(position, config.initiator_id);
        d.tags = config.firmware.tags_per_disk > 0 ? config.firmware.tags_per_disk
                                                   : std::max(1, disks[i].max_queue_length);
        m_buses[size_t(d.channel)]->attach_target(d.target);
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
    rtl_models::scsi_bus &bus = *m_buses[size_t(ds.channel)];
    cmd->link = &bus;
    cmd->target_id = ds.target;
    channel_dma &dma = *m_channel_dma[size_t(ds.channel)];
    rtl_models::dma_tracker &tracker = m_trackers.get();
    dma.active.emplace_back(cmd, &tracker);
    ++m_stats.physical_commands;

    bus.select(ds.target);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    disk[size_t(d)]->b_transport(*gp, delay);
    if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
    bus.await_status();
    tracker.wait_all();  // the channel's DMA has drained the data
    dma.remove(cmd);
    m_trackers.put(tracker);
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

// ---- layouts without parity: RAID 0, 1, 10 ------------------------------------------------------

void controller_top::fragments_of(bool write, uint64_t lbn, uint32_t sectors, std::vector<disk_fragment> &out) const {
    std::vector<chunk> chunks;
    m_layout->map(int64_t(lbn), int32_t(sectors), chunks);
    out.clear();
    std::vector<replica> live;
    for (const chunk &c : chunks) {
        live.clear();
        for (const replica &r : c.replicas)
            if (r.disk != m_failed) live.push_back(r);
        if (live.empty()) {  // every copy lost
            out.clear();
            return;
        }
        // Replicated layouts read through replicated_read; here a read has one copy (RAID 0).
        const size_t last = write ? live.size() : 1;
        for (size_t k = 0; k < last; ++k) {
            uint32_t offset = uint32_t(c.lbn - int64_t(lbn));
            for (const disk_extent &e : live[k].extents) {
                add_fragment(out, {live[k].disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), offset});
                offset += uint32_t(e.sectors);
            }
        }
    }
}

// ---- SR-Array (SR-Mirror family) --------------------------------------------------------------

void controller_top::runs_of(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const {
    std::vector<chunk> chunks;
    m_layout->map(int64_t(lbn), int32_t(sectors), chunks);
    out.clear();
    for (chunk &c : chunks) {
        bool merged = false;
        if (!out.empty()) {
            chunk &last = out.back();
            merged = last.lbn + last.sectors == c.lbn && last.replicas.size() == c.replicas.size();
            for (size_t k = 0; merged && k < c.replicas.size(); ++k) {
                const replica &a = last.replicas[k], &b = c.replicas[k];
                merged = a.disk == b.disk && a.copy == b.copy && !b.extents.empty() &&
                         !b.extents.front().wraps_from_previous &&
                         a.extents.back().drive_lbn + a.extents.back().sectors == b.extents.front().drive_lbn;
            }
            if (merged) {
                for (size_t k = 0; k < c.replicas.size(); ++k) {
                    std::vector<disk_extent> &into = last.replicas[k].extents;
                    const std::vector<disk_extent> &from = c.replicas[k].extents;
                    into.back().sectors += from.front().sectors;
                    into.insert(into.end(), from.begin() + 1, from.end());
                }
                last.sectors += c.sectors;
            }
        }
        if (!merged) out.push_back(std::move(c));
    }
}

void controller_top::holders_of(const chunk &c, std::vector<holder> &out) const {
    out.clear();
    for (const replica &r : c.replicas) {
        if (r.disk == m_failed) continue;
        bool seen = false;
        for (const holder &h : out) seen = seen || h.disk == r.disk;
        if (seen) continue;
        holder h;
        h.disk = r.disk;
        const disk_state &ds = m_disk[size_t(r.disk)];
        if (ds.geometry) {
            h.choices = placements_on_disk(c, r.disk, *ds.geometry);
        } else {  // fcfs: the replicas on the disk, unpositioned
            for (const replica &q : c.replicas)
                if (q.disk == r.disk) {
                    placement p;
                    p.copy = q.copy;
                    p.extents = q.extents;
                    p.sectors = q.sectors();
                    h.choices.push_back(std::move(p));
                }
        }
        out.push_back(std::move(h));
    }
}

controller_top::grant controller_top::acquire_any(const std::vector<holder> &hs, bool write) {
    auto queued_or_busy = [this](int d) { return size_t(m_disk[size_t(d)].in_use) + m_disk[size_t(d)].queue.size(); };
    auto go_to = [&](size_t i) {
        grant g;
        g.holder = i;
        g.n = acquire_tag(hs[i].disk, 0, 0, write, &hs[i].choices, &g.placement);
        return g;
    };
    if (hs.size() == 1) return go_to(0);
    // Closest idle holder: the predicted access time when the firmware predicts heads, else the
    // seek distance from where the disk's last command ended, else none (the first idle one).
    std::vector<replica> reps(hs.size());
    for (size_t i = 0; i < hs.size(); ++i) reps[i].disk = int(i);  // index into hs
    const mirror_read_route route = route_mirror_read(
        reps, [&](int i) { return queued_or_busy(hs[size_t(i)].disk) == 0; },
        [&](const replica &r) {
            const holder &h = hs[size_t(r.disk)];
            const disk_state &ds = m_disk[size_t(h.disk)];
            double best = std::numeric_limits<double>::infinity();
            for (const placement &p : h.choices) {
                if (ds.predictor)
                    best = std::min(best, ds.predictor
                                              ->predict_command(p.first, write,
                                                                now_s() * 1e3 + std::max(0.0, ds.start_offset_ms))
                                              .access_ms());
                else if (ds.geometry)
                    best = std::min(best, double(std::abs(p.first.cyl - ds.head.cylinder)));
                else
                    best = 0;
            }
            return best;
        });
    if (!route.duplicate) return go_to(route.replica);
    // None idle: one with a free tag and nothing queued takes it now (the least loaded).
    size_t best = hs.size();
    for (size_t i = 0; i < hs.size(); ++i) {
        const disk_state &ds = m_disk[size_t(hs[i].disk)];
        if (ds.in_use < ds.tags && ds.queue.empty() &&
            (best == hs.size() || queued_or_busy(hs[i].disk) < queued_or_busy(hs[best].disk)))
            best = i;
    }
    if (best < hs.size()) return go_to(best);
    // Every holder busy: duplicate into every holder's queue; the first to schedule it wins.
    const double t0 = now_s();
    std::vector<disk_state::waiter> ws(hs.size());
    const uint64_t dup = m_next_dup++;
    std::vector<int> disks;
    for (size_t i = 0; i < hs.size(); ++i) {
        disk_state &ds = m_disk[size_t(hs[i].disk)];
        disk_state::waiter &w = ws[i];
        w.request.id = ds.next_id++;
        w.request.arrival_ms = t0 * 1e3;
        w.request.write = write;
        w.request.placements = hs[i].choices;
        w.dup = dup;
        w.holder = i;
        w.primary = &ws[0];
        ds.queue.push_back(&w);
        disks.push_back(hs[i].disk);
    }
    m_dups.add(dup, disks);
    ++m_stats.duplicated_requests;
    while (!ws[0].granted) sc_core::wait(ws[0].go);
    m_stats.tag_wait.add(now_s() - t0);
    return {ws[0].granted_holder, ws[0].placement, ws[0].n};
}

bool controller_top::replicated_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                                     protocol::scsi_command *timing, std::vector<uint64_t> *logical,
                                     uint64_t buffer_lbn) {
    if (buffer_lbn == UINT64_MAX) buffer_lbn = lbn;
    std::vector<chunk> runs;
    runs_of(lbn, sectors, runs);
    const uint64_t epoch = m_epoch;
    return parallel(runs.size(), [&](size_t i) {
        chunk c = runs[i];
        grant g;
        int d = -1;
        uint64_t ticket = 0;
        std::vector<holder> hs;
        for (;;) {
            chunk live = c;
            if (m_table) {
                // Copies still waiting for a delayed write hold old data: only current ones serve.
                auto stale = [&](const replica &r) { return !m_table->is_current({r.disk, r.copy}, c.lbn, c.sectors); };
                live.replicas.erase(std::remove_if(live.replicas.begin(), live.replicas.end(), stale),
                                    live.replicas.end());
            }
            holders_of(live, hs);
            if (hs.empty() && m_table && c.sectors > 1 && m_failed < 0) {
                // Parts of the run have their only current copy on different disks (pending
                // updates of two writes): read the halves separately.
                const uint32_t half = uint32_t(c.sectors) / 2;
                return replicated_read(uint64_t(c.lbn), half, buffer, nullptr, logical, buffer_lbn) &&
                       replicated_read(uint64_t(c.lbn) + half, uint32_t(c.sectors) - half, buffer, nullptr, logical,
                                       buffer_lbn);
            }
            if (hs.empty()) return false;
            g = acquire_any(hs, false);
            check_power(epoch);
            d = hs[g.holder].disk;
            if (!m_table) break;
            // While it waited, a newer write may have left this copy stale: then ask again.
            if (m_table->is_current({d, hs[g.holder].choices[g.placement].copy}, c.lbn, c.sectors)) {
                ticket = m_guard.enter(d, c.lbn, c.sectors);  // after a write to it already sent
                // Newer writes are acknowledged only after this read is checked (b_transport).
                logical->push_back(m_logical.enter(0, c.lbn, c.sectors));
                break;
            }
            release_tag(d);
        }
        if (ticket) wait_turn(ticket, epoch);
        // A replica past a track's slot 0 is two extents: one command each, under the same tag
        // (about a revolution more than one pass; a drive command for both is not modelled).
        const std::vector<disk_extent> &ex = hs[g.holder].choices[g.placement].extents;
        uint64_t offset = uint64_t(c.lbn) - buffer_lbn;
        uint64_t n = g.n;
        bool ok = true;
        for (size_t k = 0; k < ex.size() && ok; ++k) {
            ok = drive_command(tlm::TLM_READ_COMMAND, d, n, uint64_t(ex[k].drive_lbn), uint32_t(ex[k].sectors), buffer,
                               offset, runs.size() == 1 && ex.size() == 1 ? timing : nullptr);
            offset += uint64_t(ex[k].sectors);
            n = 1;
        }
        check_power(epoch);
        if (ticket) {
            m_guard.leave(ticket);
            m_guard_changed.notify(sc_core::SC_ZERO_TIME);
        }
        release_tag(d);
        return ok;
    });
}

// ---- delayed writes (NVRAM delayed-write table) -------------------------------------------------

bool controller_top::replicated_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, uint64_t owner,
                                      int affinity, std::vector<uint64_t> *logical) {
    std::vector<chunk> runs;
    runs_of(lbn, sectors, runs);
    const uint64_t epoch = m_epoch;
    held_buffer &hb = m_held[owner];
    hb.buffer = buffer;
    hb.lbn = lbn;
    return parallel(runs.size(), [&](size_t i) {
        return write_run(runs[i], lbn, buffer, owner, affinity, logical, epoch);
    });
}

bool controller_top::write_run(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, uint64_t owner,
                               int affinity, std::vector<uint64_t> *logical, uint64_t epoch) {
    // The first write is scheduled like a read; the copy the scheduler picks is the first. Only
    // a copy that is current for the whole run may take it: if the power failed before it was
    // written, recovery copies that copy to the others, so it must hold every acknowledged write.
    std::vector<holder> hs;
    grant g;
    int d = -1;
    for (;;) {
        chunk live = c;
        auto stale = [&](const replica &r) { return !m_table->is_current({r.disk, r.copy}, c.lbn, c.sectors); };
        live.replicas.erase(std::remove_if(live.replicas.begin(), live.replicas.end(), stale), live.replicas.end());
        holders_of(live, hs);
        if (hs.empty() && c.sectors > 1 && m_failed < 0) {
            // Its current copies lie on different disks (pending updates of two writes): halves.
            const uint32_t half = uint32_t(c.sectors) / 2;
            std::vector<chunk> parts, more;
            runs_of(uint64_t(c.lbn), half, parts);
            runs_of(uint64_t(c.lbn) + half, uint32_t(c.sectors) - half, more);
            parts.insert(parts.end(), more.begin(), more.end());
            bool ok = true;
            for (const chunk &part : parts)
                ok = write_run(part, host_lbn, buffer, owner, affinity, logical, epoch) && ok;
            return ok;
        }
        if (hs.empty()) return false;
        g = acquire_any(hs, true);
        check_power(epoch);
        d = hs[g.holder].disk;
        // While it waited, a newer write may have left this copy stale: then ask again.
        if (m_table->is_current({d, hs[g.holder].choices[g.placement].copy}, c.lbn, c.sectors)) break;
        release_tag(d);
    }
    const placement &first = hs[g.holder].choices[g.placement];
    std::vector<copy_location> others;
    for (const replica &r : c.replicas)
        if (r.disk != m_failed && !(r.disk == d && r.copy == first.copy)) others.push_back({r.disk, r.copy});
    std::vector<propagation> forced;
    m_table->first_write_scheduled(c.lbn, c.sectors, {d, first.copy}, others, forced, owner);
    const uint64_t ticket = m_guard.enter(d, c.lbn, c.sectors);  // ordered with the table update
    const uint64_t order = m_logical.enter(0, c.lbn, c.sectors);
    for (const propagation &p : forced) {
        ++m_held[p.owner].in_flight;
        m_workers.run(m_background, [this, p, epoch] {
            join_epoch(epoch);
            run_propagation(p, false);
        });
    }
    after_table_change();
    for (const copy_location &o : others) serve_delayed(o.disk);
    // The table entry into NVRAM (the first write's location) while the disk is told.
    m_cpu->run_priced(rtl_models::cpu_task::table_update, affinity);
    check_power(epoch);
    const uint32_t entry_bytes = m_config.firmware.delayed_writes.entry_bytes;
    const uint64_t slot = m_nvram_slot++ % m_config.firmware.delayed_writes.threshold_entries;
    const uint64_t record[2] = {uint64_t(c.lbn), (uint64_t(c.sectors) << 32) | (uint64_t(d) << 16) |
                                                     uint64_t(uint16_t(first.copy))};
    nvram_write(uint64_t(m_nvram_table_base) + slot * entry_bytes, record, std::min<uint32_t>(entry_bytes, 16));
    wait_turn(ticket, epoch);
    uint64_t offset = uint64_t(c.lbn) - host_lbn;
    uint64_t n = g.n;
    bool ok = true;
    for (const disk_extent &e : first.extents) {
        if (ok)
            ok = drive_command(tlm::TLM_WRITE_COMMAND, d, n, uint64_t(e.drive_lbn), uint32_t(e.sectors), buffer,
                               offset, nullptr);
        offset += uint64_t(e.sectors);
        n = 1;
    }
    check_power(epoch);
    m_guard.leave(ticket);
    m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    release_tag(d);
    // Acknowledged in the order the writes were scheduled (the order the table supersedes
    // in), and after every read that began before it (it may have read the old data).
    while (m_logical.must_wait(order)) {
        sc_core::wait(m_guard_changed);
        check_power(epoch);
    }
    logical->push_back(order);
    return ok;
}

void controller_top::wait_turn(uint64_t ticket, uint64_t epoch) {
    while (m_guard.must_wait(ticket)) {
        sc_core::wait(m_guard_changed);
        check_power(epoch);
    }
}

void controller_top::serve_delayed(int d) {
    if (!m_table || !m_powered) return;
    disk_state &ds = m_disk[size_t(d)];
    while (ds.queue.empty() && ds.in_use < ds.tags && m_table->delayed(d) > 0) {
        const std::optional<propagation> p = m_table->next_delayed(d);
        if (!p) break;
        // After a power loss the source is read first: that must not hold a tag here (its disk
        // may be waiting for this one's), so the propagation queues for its tag afterwards.
        const bool take_tag = p->data_buffered;
        if (take_tag) ++ds.in_use;
        if (p->data_buffered) ++m_held[p->owner].in_flight;
        m_workers.run(m_background, [this, q = *p, take_tag, epoch = m_epoch] {
            join_epoch(epoch);
            run_propagation(q, take_tag);
        });
    }
}

void controller_top::run_propagation(propagation p, bool have_tag) {
    const uint64_t epoch = m_epoch;
    const int d = p.to.disk;
    std::vector<chunk> chunks;
    auto extents_of_copy = [&](int64_t lbn, int32_t sectors, std::vector<disk_extent> &out) {
        out.clear();
        m_layout->map(lbn, sectors, chunks);
        for (const chunk &c : chunks)
            for (const replica &r : c.replicas)
                if (r.disk == d && r.copy == p.to.copy) out.insert(out.end(), r.extents.begin(), r.extents.end());
    };
    protocol::buffer_block *data = nullptr;
    uint64_t data_lbn = 0;  // the logical sector at offset 0 of `data`
    protocol::buffer_block *work = nullptr;
    bool ok = true;
    if (p.data_buffered) {
        const held_buffer &hb = m_held.at(p.owner);
        data = hb.buffer;
        data_lbn = hb.lbn;
    } else {
        // Recovery: the data are on the first write's copy only.
        work = m_dram->allocate(uint64_t(p.sectors) * protocol::sector_bytes, uint64_t(p.sectors));
        check_power(epoch);
        m_layout->map(p.lbn, p.sectors, chunks);
        std::vector<disk_extent> src;
        for (const chunk &c : chunks)
            for (const replica &r : c.replicas)
                if (r.disk == p.source.disk && r.copy == p.source.copy)
                    src.insert(src.end(), r.extents.begin(), r.extents.end());
        uint64_t offset = 0;
        for (const disk_extent &e : src) {
            ok = ok && disk_io(tlm::TLM_READ_COMMAND, p.source.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), work,
                               offset, nullptr);
            offset += uint64_t(e.sectors);
        }
        check_power(epoch);
        data = work;
        data_lbn = uint64_t(p.lbn);
    }
    std::vector<disk_extent> ex;
    uint64_t n = 1;
    if (!have_tag) {
        extents_of_copy(p.lbn, p.sectors, ex);
        n = acquire_tag(d, uint64_t(ex.front().drive_lbn), uint32_t(ex.front().sectors), true);
        check_power(epoch);
    }
    // What is still to write (a newer write may have superseded parts) takes its turn now.
    const std::vector<std::pair<int64_t, int32_t>> parts = m_table->live_parts(p.op);
    std::vector<uint64_t> tickets;
    for (const auto &[lbn, sectors] : parts) tickets.push_back(m_guard.enter(d, lbn, sectors));
    for (uint64_t t : tickets) wait_turn(t, epoch);
    if (!parts.empty()) ++m_stats.delayed_writes_issued;
    for (const auto &[lbn, sectors] : parts) {
        extents_of_copy(lbn, sectors, ex);
        uint64_t offset = uint64_t(lbn) - data_lbn;
        for (const disk_extent &e : ex) {
            ok = drive_command(tlm::TLM_WRITE_COMMAND, d, n, uint64_t(e.drive_lbn), uint32_t(e.sectors), data, offset,
                               nullptr) &&
                 ok;
            offset += uint64_t(e.sectors);
            n = 1;
        }
    }
    check_power(epoch);
    for (uint64_t t : tickets) m_guard.leave(t);
    m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    m_table->propagation_done(p.op);  // (drive errors are not modelled)
    if (work) m_dram->free(work);
    if (p.data_buffered) --m_held[p.owner].in_flight;
    after_table_change();
    if (p.data_buffered) try_free(p.owner);
    release_tag(d);
}

void controller_top::after_table_change() {
    m_stats.peak_table_entries = std::max(m_stats.peak_table_entries, m_table->entries());
    m_table_entries = int(m_table->entries());
    m_stats.peak_buffered_sectors = std::max(m_stats.peak_buffered_sectors, m_table->buffered_sectors());
    m_stats.delayed_writes_superseded = m_table->superseded() - m_superseded_base;
    m_stats.delayed_writes_forced = m_table->forced() - m_forced_base;
    for (uint64_t o : m_table->take_released_owners()) try_free(o);
    m_table_changed.notify(sc_core::SC_ZERO_TIME);
}

void controller_top::try_free(uint64_t owner) {
    const auto it = m_held.find(owner);
    if (it == m_held.end()) return;
    const held_buffer &h = it->second;
    if (!h.acknowledged || h.in_flight > 0 || m_table->entries_of(owner) > 0) return;
    m_dram->free(h.buffer);
    m_held.erase(it);
}

size_t controller_top::resync_copies(uint64_t lbn, uint32_t sectors) {
    std::vector<chunk> runs;
    runs_of(lbn, sectors, runs);
    size_t copies = 0;
    for (const chunk &c : runs) {
        std::vector<const replica *> live;
        for (const replica &r : c.replicas)
            if (r.disk != m_failed) live.push_back(&r);
        if (live.size() < 2) continue;
        protocol::buffer_block *work = m_dram->allocate(uint64_t(c.sectors) * protocol::sector_bytes, uint64_t(c.sectors));
        auto move = [&](tlm::tlm_command command, const replica &r) {
            uint64_t offset = 0;
            for (const disk_extent &e : r.extents) {
                disk_io(command, r.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), work, offset, nullptr);
                offset += uint64_t(e.sectors);
            }
        };
        move(tlm::TLM_READ_COMMAND, *live.front());
        for (size_t k = 1; k < live.size(); ++k) move(tlm::TLM_WRITE_COMMAND, *live[k]);
        copies += live.size() - 1;
        m_dram->free(work);
    }
    return copies;
}

void controller_top::reference_reader() {
    const double interval_ms = m_config.firmware.predictor.reference_interval_ms;
    for (;;) {
        // The next disk that will have been idle for the interval (none: wait for a command).
        double next_ms = std::numeric_limits<double>::infinity();
        for (const disk_state &ds : m_disk)
            if (!ds.referenced) next_ms = std::min(next_ms, ds.last_activity_ms + interval_ms);
        const double now_ms = now_s() * 1e3;
        // Nothing due, or due on a disk still busy (its completion moves its idle start): wait.
        if (!m_powered || next_ms <= now_ms || next_ms == std::numeric_limits<double>::infinity())
            sc_core::wait(m_disk_activity);
        else if (next_ms > now_ms)
            sc_core::wait(sc_core::sc_time(next_ms - now_ms, sc_core::SC_MS), m_disk_activity);
        for (size_t d = 0; d < m_disk.size() && m_powered; ++d) {
            disk_state &ds = m_disk[d];
            if (ds.referenced || ds.in_use > 0 || !ds.queue.empty() ||
                now_s() * 1e3 - ds.last_activity_ms < interval_ms - 1e-9)
                continue;
            // The reference sector: the disk's first LBN (any fixed, known sector serves).
            join_epoch(m_epoch);
            ++ds.in_use;
            ds.reference_pending = true;
            ++m_stats.reference_reads;
            drive_command(tlm::TLM_READ_COMMAND, int(d), 1, 0, 1, nullptr, 0, nullptr);
            ds.reference_pending = false;
            ds.referenced = true;
            release_tag(int(d));
        }
    }
}

size_t controller_top::power_restore_and_recover() {
    // The firmware restarts: its queues, buffers and threads from before are gone.
    ++m_epoch;
    m_powered = true;
    m_dram->power_restore();
    for (disk_state &ds : m_disk) {
        ds.queue.clear();
        ds.in_use = 0;
    }
    m_held.clear();
    m_guard.clear();
    m_logical.clear();
    m_dups = duplicate_request_tracker{};
    m_stripe_locks.clear();
    for (auto &dma : m_channel_dma) dma->active.clear();
    m_outstanding = 0;
    if (!m_replicated_reads) return 0;  // (RAID 4/5: the intent records stay for a parity resync)
    // The writes in flight at the loss, from their intent records. With the delayed-write table
    // their first copies are in it (its entry was written before the disk command); without it
    // (foreground propagation) their copies may differ: made equal from the first live copy.
    size_t resynced = 0;
    for (const auto &[address, r] : intent_records()) {
        if (!m_table) resynced += resync_copies(r.lbn, r.sectors);
        m_nvram->release(address);
    }
    m_stats.recovered_copies += resynced;
    if (!m_table) return resynced;
    const std::vector<recovery_item> items = m_table->recover_after_power_loss();
    size_t stale = 0;
    for (const recovery_item &it : items) stale += it.stale.size();
    m_stats.recovered_copies += stale;
    for (size_t d = 0; d < m_disk.size(); ++d) serve_delayed(int(d));
    while (m_table->entries() > 0) sc_core::wait(m_table_changed);
    return stale;
}

// ---- RAID 4/5 -----------------------------------------------------------------------------------

bool controller_top::parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<stripe_write_plan> plans;
    parity_write_policy policy = m_config.firmware.parity_writes;
    if (m_floating) policy.read_rotate_write = true;       // floating_stripe_write's commands
    if (m_failed >= 0) policy.read_rotate_write = false;  // degraded writes read the survivors
    plan_parity_write(*m_parity, int64_t(lbn), int32_t(sectors), policy, plans);
    return parallel(plans.size(), [&](size_t i) {
        return m_failed >= 0 ? degraded_stripe_write(plans[i], lbn, buffer, affinity)
                             : stripe_write(plans[i], lbn, buffer, affinity);
    });
}

// A stripe write with a disk lost. Lost parity: the data are written, nothing else. Lost data:
// the parity rows the write touches are read from every surviving disk (data and parity), the
// lost unit's old rows rebuilt by one XOR, the new data laid over the old in each unit's slot,
// and a second XOR over the D-1 data slots gives the new parity; the lost disk is not written.
bool controller_top::degraded_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                           protocol::buffer_block *buffer, int affinity) {
    const parity_layout &l = *m_parity;
    const bool data = !buffer->tokens.empty();
    const int64_t row0 = plan.stripe * l.unit_sectors();
    const disk_op &pw = plan.parity_write();
    const int64_t lo = pw.drive_lbn;
    const uint64_t rows = uint64_t(pw.sectors);
    const int parity_disk = l.parity_disk(plan.stripe);
    auto host_offset = [&](const disk_op &op) {
        const int j = l.data_unit_on_disk(plan.stripe, op.disk);
        return uint64_t(l.logical_lbn(plan.stripe, j, op.drive_lbn - row0) - int64_t(host_lbn));
    };
    std::vector<const disk_op *> writes;
    for (const disk_op &op : plan.ops)
        if (op.kind == disk_op_kind::write && !op.parity && op.disk != m_failed) writes.push_back(&op);
    auto write_all = [&](protocol::buffer_block *work) {
        const bool with_parity = work != nullptr;
        return parallel(writes.size() + (with_parity ? 1 : 0), [&](size_t i) {
            if (i == writes.size())
                return disk_io(tlm::TLM_WRITE_COMMAND, parity_disk, uint64_t(lo), uint32_t(rows), work, 0, nullptr);
            const disk_op &op = *writes[i];
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           host_offset(op), nullptr);
        });
    };
    ++m_stats.degraded_stripe_writes;
    lock_stripe(plan.stripe);
    bool ok;
    if (parity_disk == m_failed) {
        ok = write_all(nullptr);
    } else {
        // Slots of `rows`: 0 the new parity, 1 + disk each disk's rows (the lost disk's rebuilt).
        const int d_count = l.disks();
        const uint64_t slots = uint64_t(d_count) + 1;
        protocol::buffer_block *work = m_dram->allocate(slots * rows * protocol::sector_bytes, data ? slots * rows : 0);
        check_power();
        auto slot = [&](int disk) { return protocol::buffer_ref{work, (uint64_t(disk) + 1) * rows}; };
        std::vector<int> survivors;
        for (int d = 0; d < d_count; ++d)
            if (d != m_failed) survivors.push_back(d);
        ok = parallel(survivors.size(), [&](size_t i) {
            return disk_io(tlm::TLM_READ_COMMAND, survivors[i], uint64_t(lo), uint32_t(rows), work,
                           slot(survivors[i]).first_sector, nullptr);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (int d : survivors) inputs.push_back(slot(d));
            xor_blocks(inputs, slot(m_failed), rows, affinity);  // the lost unit's old rows
            if (data)
                for (const disk_op &op : plan.ops) {
                    if (op.kind != disk_op_kind::write || op.parity) continue;
                    const uint64_t *from = buffer->tokens.data() + host_offset(op);
                    std::copy(from, from + op.sectors,
                              work->tokens.begin() + int64_t(slot(op.disk).first_sector + uint64_t(op.drive_lbn - lo)));
                }
            inputs.clear();
            for (int d = 0; d < d_count; ++d)
                if (d != parity_disk) inputs.push_back(slot(d));
            xor_blocks(inputs, {work, 0}, rows, affinity);
            ok = write_all(work);
        }
        m_dram->free(work);
    }
    unlock_stripe(plan.stripe);
    return ok;
}

namespace {

// What both stripe-write paths read off a plan: the parity rows the write touches and where a
// data op's sectors sit in the host's buffer.
struct stripe_rows {
    stripe_rows(const parity_layout &layout, const stripe_write_plan &p, uint64_t host)
        : l(layout),
          plan(p),
          host_lbn(host),
          row0(p.stripe * layout.unit_sectors()),
          lo(p.parity_write().drive_lbn),
          rows(uint64_t(p.parity_write().sectors)) {}
    uint64_t host_offset(const disk_op &op) const {
        const int j = l.data_unit_on_disk(plan.stripe, op.disk);
        return uint64_t(l.logical_lbn(plan.stripe, j, op.drive_lbn - row0) - int64_t(host_lbn));
    }
    const parity_layout &l;
    const stripe_write_plan &plan;
    uint64_t host_lbn;
    int64_t row0;   // first drive LBN of the stripe's rows
    int64_t lo;     // first parity row the write touches
    uint64_t rows;  // parity rows the write touches
};

}  // namespace

// One stripe's part of a write, under the stripe's lock: the plan's reads into a work buffer,
// the new parity computed by the XOR engine, then the data and parity writes in parallel.
//
// The work buffer holds slots of `rows` sectors (the parity rows the write touches), each zero
// outside what was put in it, so one XOR over all slots gives the parity rows: slot 0 receives
// the new parity; a read lands in its disk's slot; new data go into their disk's slot
// (reconstruct-write: the slot of the unit's other contents; read-modify-write: a slot of their
// own, beside the old data and the old parity). A full-stripe write XORs the host buffer directly.
bool controller_top::stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity) {
    const stripe_rows r(*m_parity, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const bool full = plan.path == write_path::full_stripe;
    if (m_floating && plan.path == write_path::read_modify_write && pw.kind == disk_op_kind::read_rotate_write)
        return floating_stripe_write(plan, host_lbn, buffer, affinity);
    if (plan.path == write_path::read_modify_write && pw.kind == disk_op_kind::read_rotate_write)
        return rrw_stripe_write(plan, host_lbn, buffer, affinity);
    const int new_role = plan.path == write_path::read_modify_write ? 1 : 0;
    std::map<std::pair<int, int>, uint64_t> slot;  // (disk, role) -> slot; role 0: read, 1: new data
    auto slot_of = [&](int disk, int role) {
        return slot.try_emplace({disk, role}, uint64_t(slot.size()) + 1).first->second;
    };
    std::vector<const disk_op *> reads, writes;
    std::vector<protocol::buffer_ref> inputs;
    for (const disk_op &op : plan.ops) {
        if (op.kind == disk_op_kind::read) {
            reads.push_back(&op);
            slot_of(op.disk, 0);
        } else {
            writes.push_back(&op);
            if (op.parity) continue;
            if (full) inputs.push_back({buffer, r.host_offset(op)});
            else slot_of(op.disk, new_role);
        }
    }
    const uint64_t slots = slot.size() + 1;

    ++m_stats.stripe_writes[size_t(plan.path)];
    lock_stripe(plan.stripe);
    protocol::buffer_block *work = m_dram->allocate(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    check_power();
    for (const auto &[key, k] : slot) inputs.push_back({work, k * r.rows});
    bool ok = parallel(reads.size(), [&](size_t i) {
        const disk_op &op = *reads[i];
        return disk_io(tlm::TLM_READ_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work,
                       slot_of(op.disk, 0) * r.rows + uint64_t(op.drive_lbn - r.lo), nullptr);
    });
    if (ok) {
        if (data && !full)
            for (const disk_op *op : writes) {
                if (op->parity) continue;
                const uint64_t *from = buffer->tokens.data() + r.host_offset(*op);
                std::copy(from, from + op->sectors,
                          work->tokens.begin() + int64_t(slot_of(op->disk, new_role) * r.rows + uint64_t(op->drive_lbn - r.lo)));
            }
        xor_blocks(inputs, {work, 0}, r.rows, affinity);
        ok = parallel(writes.size(), [&](size_t i) {
            const disk_op &op = *writes[i];
            if (op.parity)
                return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0,
                               nullptr);
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           r.host_offset(op), nullptr);
        });
    }
    m_dram->free(work);
    unlock_stripe(plan.stripe);
    return ok;
}

// Read-modify-write as read-rotate-write (the parity-logging paper's "two read-rotate-write
// accesses"): every data disk the write touches and the parity disk each get one drive command
// that reads the sectors, lets them come round and writes them, all issued together. The data
// disks write the new data and return the old. The parity disk's write phase needs old parity ^
// old data ^ new data, but a firmware cannot know the old data (nor the old parity) when it sends
// the command; the simplification, as in the paper's model: the XOR happens on the parity drive
// when its sectors come round, at no cost there. Functionally the parity command carries the
// new data; when every command is back the XOR engine computes old parity ^ old data ^ new data
// from the returned old tokens (its time charged on the response path, as the engine would have
// to produce the parity delta) and the result is installed on the parity drive untimed (TLM debug
// transport). Timing-only runs skip the tokens but charge the same XOR.
bool controller_top::rrw_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                      int affinity) {
    const stripe_rows r(*m_parity, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const size_t n = plan.ops.size();  // the data ops, then the parity op last
    // Slots of `r.rows`: 0 the new parity, 1 + k op k's old tokens, 1 + n + k op k's new data.
    const uint64_t slots = 1 + 2 * uint64_t(n);
    ++m_stats.stripe_writes[size_t(plan.path)];
    lock_stripe(plan.stripe);
    protocol::buffer_block *work = m_dram->allocate(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    check_power();
    std::vector<std::vector<uint64_t>> old(n);
    const bool parity_last = m_config.firmware.rrw_parity_after_data && n > 1 && plan.ops.back().parity;
    auto rrw = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        // The parity command carries slot 0 (a stand-in: the new parity is installed below).
        if (op.parity)
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0,
                           nullptr, &old[k]);
        return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                       r.host_offset(op), nullptr,
                       &old[k]);
    };
    // controller.rrw_order parity_after_data: the data disks' commands, then the parity disk's.
    bool ok = parity_last ? parallel(n - 1, rrw) && rrw(n - 1) : parallel(n, rrw);
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t k = 0; k < n; ++k) {
            const disk_op &op = plan.ops[k];
            const uint64_t at = uint64_t(op.drive_lbn - r.lo);
            inputs.push_back({work, (1 + k) * r.rows});
            if (data) std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((1 + k) * r.rows + at));
            if (op.parity) continue;
            inputs.push_back({work, (1 + n + k) * r.rows});
            if (data) {
                const uint64_t *from = buffer->tokens.data() + r.host_offset(op);
                std::copy(from, from + op.sectors, work->tokens.begin() + int64_t((1 + n + k) * r.rows + at));
            }
        }
        xor_blocks(inputs, {work, 0}, r.rows, affinity);
        if (data) {
            tlm::tlm_generic_payload gp;
            gp.set_command(tlm::TLM_WRITE_COMMAND);
            gp.set_address(uint64_t(r.lo) * protocol::sector_bytes);
            gp.set_data_ptr(reinterpret_cast<unsigned char *>(work->tokens.data()));
            gp.set_data_length(unsigned(r.rows * protocol::token_bytes));
            gp.set_streaming_width(unsigned(r.rows * protocol::token_bytes));
            ok = disk[size_t(pw.disk)]->transport_dbg(gp) == r.rows * protocol::token_bytes;
        }
    }
    m_dram->free(work);
    unlock_stripe(plan.stripe);
    return ok;
}

// A read with a disk lost: data on the survivors read directly; each lost piece rebuilt by the XOR
// engine from the same rows of every other disk of its stripe (data and parity).
bool controller_top::degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_parity->map(int64_t(lbn), int32_t(sectors), chunks);
    const bool data = !buffer->tokens.empty();
    return parallel(chunks.size(), [&](size_t i) {
        const chunk &c = chunks[i];
        const uint64_t offset = uint64_t(c.lbn - int64_t(lbn));
        std::vector<disk_op> ops;
        plan_degraded_read(*m_parity, c.lbn, c.sectors, m_failed, ops);
        if (ops.size() == 1)
            return disk_io(tlm::TLM_READ_COMMAND, ops[0].disk, uint64_t(ops[0].drive_lbn), uint32_t(ops[0].sectors),
                           buffer, offset, nullptr);
        const uint64_t n = uint64_t(c.sectors);
        const int64_t stripe = ops[0].drive_lbn / m_parity->unit_sectors();
        ++m_stats.rebuilt_reads;
        lock_stripe(stripe);  // not while a degraded write of the stripe is half done
        protocol::buffer_block *work =
            m_dram->allocate(ops.size() * n * protocol::sector_bytes, data ? ops.size() * n : 0);
        check_power();
        bool ok = parallel(ops.size(), [&](size_t k) {
            return disk_io(tlm::TLM_READ_COMMAND, ops[k].disk, uint64_t(ops[k].drive_lbn), uint32_t(n), work, k * n,
                           nullptr);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k = 0; k < ops.size(); ++k) inputs.push_back({work, k * n});
            xor_blocks(inputs, {buffer, offset}, n, affinity);
        }
        m_dram->free(work);
        unlock_stripe(stripe);
        return ok;
    });
}

void controller_top::lock_stripe(int64_t stripe) {
    stripe_lock &l = m_stripe_locks[stripe];
    if (!l.held) {
        l.held = true;
        return;
    }
    sc_core::sc_event go;
    l.waiting.push_back(&go);
    sc_core::wait(go);  // the lock is handed over
}

void controller_top::unlock_stripe(int64_t stripe) {
    auto it = m_stripe_locks.find(stripe);
    if (it->second.waiting.empty()) {
        m_stripe_locks.erase(it);
        return;
    }
    sc_core::sc_event *next = it->second.waiting.front();
    it->second.waiting.pop_front();
    next->notify(sc_core::SC_ZERO_TIME);
}

bool controller_top::raw_disk_io(bool read, int d, uint64_t lbn, uint32_t sectors, uint64_t *tokens) {
    join_epoch(m_epoch);
    protocol::buffer_block b;
    b.bytes = uint64_t(sectors) * protocol::sector_bytes;
    b.tokens.assign(tokens, tokens + sectors);
    const bool ok = disk_io(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, d, lbn, sectors, &b, 0, nullptr,
                            nullptr, nullptr, nullptr, raw_drive_lbn);
    if (read) std::copy(b.tokens.begin(), b.tokens.end(), tokens);
    return ok;
}

uint64_t controller_top::acquire_tag(int d, uint64_t lbn, uint32_t sectors, bool write,
                                     const std::vector<placement> *choices, size_t *chosen) {
    disk_state &ds = m_disk[size_t(d)];
    const bool several = choices && choices->size() > 1;
    if (ds.in_use < ds.tags && ds.queue.empty() && !(ds.scheduler && several)) {
        ++ds.in_use;
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        return 1;
    }
    const double t0 = now_s();
    disk_state::waiter w;
    if (ds.scheduler) {
        w.request.id = ds.next_id++;
        w.request.arrival_ms = t0 * 1e3;
        w.request.write = write;
        if (choices) {
            w.request.placements = *choices;
        } else {
            placement p;
            p.extents = {{int64_t(lbn), int32_t(sectors), false}};
            p.sectors = int32_t(sectors);
            p.first = ds.geometry->to_physical(int64_t(lbn));
            p.last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
            w.request.placements.push_back(std::move(p));
        }
    }
    if (ds.in_use < ds.tags && ds.queue.empty()) {
        ++ds.in_use;
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        if (several) {
            // Several replicas and nothing queued: the scheduler picks among them alone.
            ds.snapshot.assign(1, w.request);
            const scheduling_decision pick = choose(ds);
            if (chosen) *chosen = pick.placement;
            return std::max<uint64_t>(1, pick.entries_examined);
        }
        return 1;
    }
    ds.queue.push_back(&w);
    while (!w.granted) sc_core::wait(w.go);
    m_stats.tag_wait.add(now_s() - t0);
    if (chosen) *chosen = w.placement;
    return w.n;
}

scheduling_decision controller_top::choose(disk_state &ds) {
    return ds.predictor ? *ds.scheduler->choose(ds.snapshot,
                                                ds.predictor->at_command(now_s() * 1e3 + std::max(0.0, ds.start_offset_ms)))
                        : *ds.scheduler->choose(ds.snapshot, ds.head);
}

void controller_top::release_tag(int d) {
    disk_state &ds = m_disk[size_t(d)];
    if (ds.queue.empty()) {
        --ds.in_use;
        serve_delayed(d);  // the foreground queue is empty: a delayed write may have the tag
        return;
    }
    disk_state::waiter *w;
    if (!ds.scheduler) {
        // The tag goes to the next command in the firmware's queue (first come, first served); the
        // decision looked at every entry queued.
        w = ds.queue.front();
        w->n = ds.queue.size();
        ds.queue.pop_front();
    } else {
        ds.snapshot.clear();
        for (const disk_state::waiter *q : ds.queue) ds.snapshot.push_back(q->request);
        const scheduling_decision pick = choose(ds);
        const auto it = ds.queue.begin() + int64_t(pick.request);
        w = *it;
        w->placement = pick.placement;
        w->n = std::max<uint64_t>(1, pick.entries_examined);
        ds.queue.erase(it);
    }
    if (w->primary) {
        // A duplicated request: this disk won; its copies in the other holders' queues go.
        const duplicate_request_tracker::claim c = m_dups.scheduled(w->dup, d);
        for (int other : c.cancel_on) {
            auto &q = m_disk[size_t(other)].queue;
            for (auto it = q.begin(); it != q.end(); ++it)
                if ((*it)->dup == w->dup) {
                    q.erase(it);
                    ++m_stats.cancelled_duplicates;
                    break;
                }
            m_dups.cancelled(w->dup, other);
        }
        disk_state::waiter *p = w->primary;
        p->placement = w->placement;
        p->n = w->n;
        p->granted_holder = w->holder;
        w = p;
    }
    w->granted = true;
    w->go.notify(sc_core::SC_ZERO_TIME);
}

void controller_top::host_dma(tlm::tlm_generic_payload &host_trans, protocol::buffer_block *buffer, uint64_t bytes,
                              int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::dma_setup, affinity);
    check_power();
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = *gp.get_extension<protocol::dma_command>();
    d = protocol::dma_command{};
    d.bytes = bytes;
    d.buffer = buffer;
    gp.set_command(host_trans.get_command());
    gp.set_data_ptr(host_trans.get_data_ptr());
    gp.set_data_length(host_trans.get_data_length());
    gp.set_streaming_width(host_trans.get_data_length());
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_link->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
}

void controller_top::table_update(int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::table_update, affinity);
    check_power();
    if (m_config.firmware.table_entry_bytes == 0) return;
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = *gp.get_extension<protocol::dma_command>();
    d = protocol::dma_command{};
    d.bytes = m_config.firmware.table_entry_bytes;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_dram->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
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
