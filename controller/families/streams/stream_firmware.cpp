#include "controller/families/streams/stream_firmware.h"

#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::controller {

stream_firmware::stream_firmware(firmware_platform &platform)
    : raid_firmware(platform),
      m_cfg(platform.config().plugins.get<stream_engine_config>("controller.streams")),
      m_classifier(m_cfg.classifier),
      m_sets(m_cfg.sets(capacity_sectors(), uint32_t(platform.disk_count()))) {
    if (m_parity) throw std::invalid_argument("firmware streams serves RAID 0 and JBOD only (controller.layout raid0)");
    const uint64_t dram = platform.config().dram.capacity_bytes;
    // The engine's memory is buffer DRAM: it cannot hold more than there is, and host commands
    // that bypass it need buffers of their own.
    if (dram != 0 && m_cfg.memory_bytes() >= dram)
        throw std::invalid_argument(fmt::format(
            "controller.streams.memory_mib ({} MiB) must be less than the buffer DRAM (controller.dram.capacity_mib, {} MiB)",
            m_cfg.memory_mib, dram >> 20));
    platform.spawn("stream_dispatcher", [this] { dispatcher(); });
    platform.spawn("stream_collector", [this] { collector(); });
}

bool stream_firmware::serve(const host_command &cmd) {
    m_activity.notify(sc_core::SC_ZERO_TIME);
    if (cmd.write) {
        ++m_counts.writes;
        // Staged data the write makes stale go first (a read served after the acknowledgement
        // must see the new data).
        free_buffers(m_sets.invalidate(cmd.lbn, cmd.sectors));
        const bool ok = raid_firmware::serve(cmd);
        free_buffers(m_sets.invalidate(cmd.lbn, cmd.sectors));  // read-aheads that were in flight
        return ok;
    }
    const double now = m_platform.now_ms();
    // A read larger than one read-ahead is no stream's small read: the engine could not stage it
    // (its buffers are read-aheads), and it goes in pieces the usual way (host_pieces.h).
    const bool staged = cmd.sectors <= m_cfg.read_ahead_sectors();
    std::optional<stream_sets::stream_id> s = staged ? m_sets.stream_of(cmd.lbn) : std::nullopt;
    if (staged && !s && m_classifier.classify(cmd.lbn, cmd.sectors, now)) s = m_sets.open(cmd.lbn, now, disk_of(cmd.lbn));
    if (!s) {
        ++m_counts.bypassed_reads;
        update_waves();
        return raid_firmware::serve(cmd);
    }
    return serve_stream_read(cmd, *s);
}

bool stream_firmware::serve_stream_read(const host_command &cmd, stream_sets::stream_id s) {
    m_platform.cpu_run_priced(rtl_models::cpu_task::host_command, cmd.affinity);
    ++m_counts.stream_reads;
    stream_sets::coverage c = m_sets.cover(s, cmd.lbn, cmd.sectors, m_platform.now_ms());
    if (c.ready) ++m_counts.hits;
    else ++m_counts.waits;
    update_waves();
    const uint64_t epoch = m_platform.power_epoch();
    while (!c.ready) {
        m_work.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(m_data);
        m_platform.check_power(epoch);
        c = m_sets.cover(s, cmd.lbn, cmd.sectors, m_platform.now_ms());
    }
    if (c.pieces.size() == 1) {
        // Straight from the read-ahead buffer, as a controller's DMA reads its cache.
        m_kit.host_dma(cmd, m_blocks.at(c.pieces[0].buffer), cmd.affinity, c.pieces[0].offset_sectors);
    } else {
        // The host DMA takes one buffer: the pieces are gathered first (XOR engine as a copy engine).
        ++m_counts.copies;
        protocol::buffer_block *gather = m_platform.allocate_buffer(cmd.bytes(), cmd.carries_tokens ? cmd.sectors : 0);
        uint64_t at = 0;
        for (const stream_sets::piece &p : c.pieces) {
            m_kit.xor_blocks({{m_blocks.at(p.buffer), p.offset_sectors}}, {gather, at}, p.sectors, cmd.affinity);
            at += p.sectors;
        }
        m_kit.host_dma(cmd, gather, cmd.affinity);
        m_platform.free_buffer(gather);
    }
    m_kit.finish(cmd, firmware_kit::host_request{});
    free_buffers(m_sets.finish_read(s, c, cmd.lbn, cmd.sectors, m_platform.now_ms()));
    update_waves();
    return true;
}

uint32_t stream_firmware::disk_of(uint64_t lbn) const {
    std::vector<disk_fragment> pieces;
    if (!m_layout) m_map.map(lbn, 1, pieces);
    else m_kit.fragments_of(*m_layout, false, lbn, 1, pieces);
    return pieces.empty() ? 0 : uint32_t(pieces.front().disk);
}

void stream_firmware::dispatcher() {
    for (;;) {
        while (std::optional<stream_sets::disk_read> r = m_sets.next_disk_read(m_platform.now_ms())) {
            const stream_sets::disk_read read = *r;
            m_platform.run_background([this, read] { read_ahead(read); });
        }
        update_waves();
        sc_core::wait(m_work);
    }
}

void stream_firmware::read_ahead(stream_sets::disk_read r) {
    // The engine counted the memory when it chose the read; the DRAM's allocator may still make
    // it wait (other buffers share the DRAM).
    protocol::buffer_block *block = m_platform.allocate_buffer(uint64_t(r.sectors) * protocol::sector_bytes, r.sectors);
    m_blocks[r.buffer] = block;
    std::vector<disk_fragment> pieces;
    if (!m_layout) m_map.map(r.lbn, r.sectors, pieces);
    else m_kit.fragments_of(*m_layout, false, r.lbn, r.sectors, pieces);
    const bool ok = !pieces.empty() && m_kit.run_fragments(false, pieces, block);
    free_buffers(m_sets.read_done(r.buffer, ok, m_platform.now_ms()));
    m_data.notify(sc_core::SC_ZERO_TIME);
    m_work.notify(sc_core::SC_ZERO_TIME);
    update_waves();
}

void stream_firmware::collector() {
    const sc_core::sc_time period(m_cfg.gc_interval_ms, sc_core::SC_MS);
    for (;;) {
        // Nothing to collect: sleep until a host command comes (an idle simulation ends).
        if (m_sets.streams() == 0 && m_classifier.bitmaps() == 0) sc_core::wait(m_activity);
        sc_core::wait(period);
        const double now = m_platform.now_ms();
        m_classifier.collect_garbage(now);
        free_buffers(m_sets.collect_garbage(now));
        m_work.notify(sc_core::SC_ZERO_TIME);
        update_waves();
    }
}

void stream_firmware::free_buffers(const std::vector<stream_sets::buffer_id> &ids) {
    for (stream_sets::buffer_id id : ids) {
        auto it = m_blocks.find(id);
        if (it == m_blocks.end()) continue;
        m_platform.free_buffer(it->second);
        m_blocks.erase(it);
    }
    if (!ids.empty()) m_work.notify(sc_core::SC_ZERO_TIME);  // memory came free
}

size_t stream_firmware::restart_after_power_loss() {
    // The buffer DRAM was emptied by the platform: the engine's staged data are gone with it.
    m_blocks.clear();
    m_sets = stream_sets(m_cfg.sets(capacity_sectors(), uint32_t(m_platform.disk_count())));
    m_classifier = stream_classifier(m_cfg.classifier);
    return raid_firmware::restart_after_power_loss();
}

void stream_firmware::reset_statistics() {
    raid_firmware::reset_statistics();
    m_counts = counters{};
    m_sets.reset_statistics();
}

void stream_firmware::report(nlohmann::json &out) const {
    raid_firmware::report(out);
    const stream_sets::statistics &st = m_sets.stats();
    const stream_sets_config &c = m_sets.config();
    out["stream_engine"] = {
        {"read_ahead_sectors", c.read_ahead_sectors},
        {"requests_per_turn", c.requests_per_turn},
        {"dispatch_streams", c.dispatch_streams},
        {"memory_bytes", c.memory_bytes},
        {"stream_reads", m_counts.stream_reads},
        {"hits", m_counts.hits},
        {"waits", m_counts.waits},
        {"bypassed_reads", m_counts.bypassed_reads},
        {"writes", m_counts.writes},
        {"gathered_reads", m_counts.copies},
        {"streams_now", m_sets.streams()},
        {"streams_opened", st.streams_opened},
        {"streams_forgotten", st.streams_forgotten},
        {"read_aheads", st.disk_reads},
        {"sectors_read_ahead", st.sectors_read_ahead},
        {"sectors_dropped", st.sectors_dropped},
        {"buffers_expired", st.buffers_expired},
        {"resets", st.resets},
        {"memory_waits", st.memory_waits},
        {"peak_memory_bytes", st.peak_memory_bytes},
        {"classifier_bitmaps", m_classifier.bitmaps()},
    };
}

void stream_firmware::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_dispatch_traced, prefix + ".dispatch_set");
    waveforms::trace(tf, m_buffered_traced, prefix + ".buffered_set");
    waveforms::trace(tf, m_streams_traced, prefix + ".streams");
    sc_core::sc_trace(tf, m_memory_kib_traced, prefix + ".memory_kib");
    sc_core::sc_trace(tf, m_hits_traced, prefix + ".hits");
    sc_core::sc_trace(tf, m_waits_traced, prefix + ".waits");
    sc_core::sc_trace(tf, m_bypassed_traced, prefix + ".bypassed");
}

void stream_firmware::update_waves() {
    m_dispatch_traced = int(m_sets.dispatch_set_size());
    m_buffered_traced = int(m_sets.buffered_set_size());
    m_streams_traced = int(m_sets.streams());
    m_memory_kib_traced = unsigned(m_sets.memory_in_use_bytes() >> 10);
    m_hits_traced = unsigned(m_counts.hits);
    m_waits_traced = unsigned(m_counts.waits);
    m_bypassed_traced = unsigned(m_counts.bypassed_reads);
}

}  // namespace raidtlm::controller
