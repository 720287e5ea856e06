// parity_logging_firmware as a firmware: the host command's steps, write() and read() served
// again across a loss, its layout, restart, statistics and waves.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/firmware_api/plugins.h"

namespace raidtlm::controller {

std::unique_ptr<layout> parity_logging_firmware::make_layout(const firmware_platform &platform) {
    std::unique_ptr<layout> l = make_array_layout(platform);
    if (!dynamic_cast<const parity_logging_layout *>(l.get()))
        throw layout_error("the parity_logging firmware needs controller.layout parity_logging");
    return l;
}

bool parity_logging_firmware::serve(const host_command &cmd) {
    const int64_t lbn = int64_t(cmd.lbn), n = int64_t(cmd.sectors);
    uint64_t read_ticket = 0, write_ticket = 0;
    if (m_config.read_fence && cmd.write) {
        write_ticket = m_read_fence.write_begins(lbn, n);
        m_read_fence.wait_for_earlier_writes(m_platform, write_ticket);
    }
    if (m_config.read_fence && !cmd.write) {
        m_read_fence.wait_for_earlier_writes(m_platform, lbn, n);
        read_ticket = m_read_fence.read_begins(lbn, n);
    }
    // In pieces through a bounded buffer (host_pieces.h); the fences hold for the whole command.
    bool ok = false;
    const firmware_kit::host_request r = m_kit.serve_pieces(
        cmd,
        [&](const host_command &piece, protocol::buffer_block *buffer) {
            return piece.write ? write(piece.lbn, piece.sectors, buffer, piece.affinity)
                               : read(piece.lbn, piece.sectors, buffer, piece.affinity);
        },
        &ok);
    if (write_ticket) {
        m_read_fence.wait_for_earlier_reads(m_platform, lbn, n);
        m_read_fence.write_done(write_ticket);
    }
    m_kit.finish(cmd, r);
    // Done only once the host has the data: a write waiting for this read is acknowledged after
    // it (before, the read left the fence ahead of its host DMA, and an overlapping write begun
    // after it could be acknowledged first: 3-11 integrity errors in a hot region of mixed sizes).
    if (read_ticket) m_read_fence.read_done(read_ticket);
    m_kit.free_host_buffer(r.buffer);
    return ok;
}


// A member lost while a request was past check_failure fails the request's commands to it (its
// preread, data write or log append). Once the firmware has handled the loss (the logs applied,
// or a lost sublog's region rebuilt from data), the request is served again in degraded mode:
// a write's partial effects are all of the new data (a logged record, or data already on a
// drive whose parity the handling recomputed), so serving it again is idempotent.
bool parity_logging_firmware::serve_across_a_loss(int affinity, const std::function<bool()> &attempt) {
    for (;;) {
        if (!check_failure(affinity)) return false;
        const std::vector<int> known = m_lost;
        // The loss events too: a member lost while it was being rebuilt leaves the set of
        // unavailable members as it was, but the request's commands to it failed all the same
        // (explorer case 91:372: a read out across it failed within the promise).
        const uint64_t losses = m_platform.member_losses();
        bool ok;
        {
            const active_request active{this};
            ok = attempt();
        }
        const std::vector<int> failed = unavailable_disks();
        if (ok || failed.empty() || (failed == known && m_platform.member_losses() == losses)) return ok;
        ++m_stats.served_again_after_loss;
    }
}

bool parity_logging_firmware::write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    const uint64_t mark = m_lost_sectors.mark();
    const bool ok = serve_across_a_loss(affinity, [&] { return write_once(lbn, sectors, buffer, affinity); });
    // Written: good again (parity_logging_lost_sectors.cpp), but for what a loss noted meanwhile
    // touches (lost_sector_record.h).
    if (ok) m_lost_sectors.written(int64_t(lbn), int64_t(lbn + sectors), mark);
    return ok;
}

bool parity_logging_firmware::read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    if (m_lost_sectors.overlaps(int64_t(lbn), int64_t(lbn + sectors))) {
        ++m_stats.lost_sector_reads;  // never served: its row cannot give it back
        return false;
    }
    const uint64_t mark = m_lost_sectors.mark();
    const bool ok = serve_across_a_loss(affinity, [&] { return read_once(lbn, sectors, buffer, affinity); });
    if (ok && m_lost_sectors.noted_since(mark, int64_t(lbn), int64_t(lbn + sectors))) {
        ++m_stats.lost_sector_reads;  // lost while the read was out: what it read is unknown
        return false;
    }
    return ok;
}

void parity_logging_firmware::peek(int disk, int64_t lbn, uint32_t sectors, uint64_t *out) {
    m_platform.peek_untimed(disk, uint64_t(lbn), sectors, out);
}

void parity_logging_firmware::reset_statistics() {
    m_kit.reset_statistics();
    parity_logging_statistics fresh;
    fresh.lost_ranges = std::move(m_stats.lost_ranges);  // a fault's outcome covers the whole run
    fresh.lost_sector_reads = m_stats.lost_sector_reads;
    m_stats = std::move(fresh);
    m_pool.reset_peak();
}

void parity_logging_firmware::report(nlohmann::json &out) const {
    m_kit.report(out);
    m_rebuild.report(out);  // firmware.rebuild, once a rebuild started
    out["layout"] = m_layout.describe();
    const parity_logging_statistics &ps = m_stats;
    out["parity_logging"] = {
        {"small_writes", ps.small_writes},
        {"large_writes", ps.large_writes},
        {"update_records", ps.update_records},
        {"overwrite_records", ps.overwrite_records},
        {"log_writes", ps.log_writes},
        {"log_write_sectors", ps.log_write_sectors},
        {"partial_log_writes", ps.partial_log_writes},
        {"reintegrations", ps.reintegrations},
        {"serial_reintegrations", ps.serial_reintegrations},
        {"mean_reintegration_ms", ps.reintegrations ? 1e3 * ps.reintegration_s / double(ps.reintegrations) : 0.0},
        {"blocked_on_pool", ps.blocked_on_pool},
        {"blocked_on_reintegration", ps.blocked_on_reintegration},
        {"peak_buffers_in_use", peak_buffers_in_use()},
        {"buffer_tracks", buffer_tracks()},
        {"reintegration_buffer_sectors", reintegration_buffer_sectors()},
        {"parity_rebuilds", ps.parity_rebuilds},
        {"degraded_writes", ps.degraded_writes},
        {"rebuilt_reads", ps.rebuilt_reads},
        {"resynced_stripes", ps.resynced_stripes},
        {"served_again_after_loss", ps.served_again_after_loss},
        {"media_repairs", ps.media_repairs},
        {"lost_sector_reads", ps.lost_sector_reads}};
    report_lost(out);  // firmware.lost_sectors, lost_ranges (parity_logging_beyond_checks.cpp)
}

void parity_logging_firmware::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    const std::string p = prefix + ".plog";
    waveforms::trace(tf, m_reintegrating, p + ".reintegrating");
    waveforms::trace(tf, m_buffers_in_use, p + ".buffers_in_use");
    waveforms::trace(tf, m_log_writes, p + ".log_writes");
    waveforms::trace(tf, m_blocked, p + ".blocked_writers");
}

}  // namespace raidtlm::controller
