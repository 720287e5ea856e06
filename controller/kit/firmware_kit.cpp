#include "controller/kit/firmware_kit.h"

#include <algorithm>

#include "controller/kit/lost_range_report.h"
#include "controller/kit/queues/predictor_feed.h"

namespace raidtlm::controller {

namespace {

nlohmann::json wait_json(const rtl_models::wait_stats &w) {
    return {{"count", w.count}, {"mean_ms", w.mean_s() * 1e3}, {"max_ms", w.max_s * 1e3}};
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

void report_lost_ranges(const std::vector<std::pair<int64_t, int32_t>> &ranges, nlohmann::json &out) {
    // Sorted, and ranges that touch or overlap merged: the same sectors in fewer pairs.
    std::vector<std::pair<int64_t, int64_t>> sorted;  // [first, end)
    sorted.reserve(ranges.size());
    for (const auto &[lbn, n] : ranges) sorted.emplace_back(lbn, lbn + n);
    std::sort(sorted.begin(), sorted.end());
    lost_range_report report;
    for (const auto &[first, end] : sorted) report.add(first, end);
    report.write(out);
}

firmware_kit::firmware_kit(firmware_platform &p) : platform(p), queues(p), intents(p) {
    // The predictors' spindle calibration: start-up and periodic reference reads.
    if (queues.predicts()) p.spawn("reference_reader", [this] { run_reference_reader(queues); });
}

firmware_kit::host_request firmware_kit::begin(const host_command &cmd) {
    host_request r;
    platform.cpu_run_priced(rtl_models::cpu_task::host_command, cmd.affinity);
    r.buffer = platform.allocate_buffer(cmd.bytes(), cmd.carries_tokens ? cmd.sectors : 0);
    if (cmd.write) {
        if (platform.config().firmware.write_intent_log)
            r.intent = intents.record(cmd.lbn, cmd.sectors, cmd.sequence, cmd.affinity);
        host_dma(cmd, r.buffer, cmd.affinity);
    }
    return r;
}

void firmware_kit::plan_host_pieces(uint64_t alignment_sectors, uint64_t unit_sectors, uint64_t work_bytes) {
    m_piece_limits =
        controller::plan_host_pieces(platform.config().dram.capacity_bytes, alignment_sectors, unit_sectors, work_bytes);
    m_staging.set_budget(m_piece_limits.staging_bytes);
}

protocol::buffer_block *firmware_kit::allocate_host_buffer(const host_command &piece) {
    m_staging.acquire(piece.bytes());
    return platform.allocate_buffer(piece.bytes(), piece.carries_tokens ? piece.sectors : 0);
}

void firmware_kit::free_host_buffer(protocol::buffer_block *buffer) {
    if (!buffer) return;
    const uint64_t bytes = buffer->bytes;
    platform.free_buffer(buffer);
    m_staging.release(bytes);
}

firmware_kit::host_request firmware_kit::serve_pieces(const host_command &cmd, const piece_server &serve, bool *ok,
                                                      const piece_release &release) {
    platform.cpu_run_priced(rtl_models::cpu_task::host_command, cmd.affinity);
    const uint64_t end = cmd.lbn + cmd.sectors;
    const bool several = !one_piece(cmd);
    host_command piece = cmd;
    host_request r;
    *ok = true;
    for (uint64_t lbn = cmd.lbn; *ok && lbn < end; lbn += piece.sectors) {
        piece.lbn = lbn;
        piece.sectors = uint32_t(host_piece_length(lbn, end, cmd.sectors, m_piece_limits.piece_sectors));
        piece.host_offset_sectors = cmd.host_offset_sectors + (lbn - cmd.lbn);
        r = host_request{};
        r.buffer = allocate_host_buffer(piece);
        if (cmd.write) {
            if (platform.config().firmware.write_intent_log)
                r.intent = intents.record(piece.lbn, piece.sectors, cmd.sequence, cmd.affinity);
            host_dma(piece, r.buffer, cmd.affinity);
        }
        *ok = serve(piece, r.buffer);
        return_data(piece, r, *ok);
        if (!several) return r;
        if (r.intent >= 0) intents.clear(r.intent);
        if (release) release(piece, r.buffer);
        else free_host_buffer(r.buffer);
    }
    return host_request{};
}

void firmware_kit::return_data(const host_command &cmd, const host_request &r, bool ok) {
    platform.check_power();
    if (!cmd.write && ok) host_dma(cmd, r.buffer, cmd.affinity);
}

void firmware_kit::finish(const host_command &cmd, const host_request &r) {
    if (r.intent >= 0) intents.clear(r.intent);
    table_update(cmd.affinity);
}

void firmware_kit::host_dma(const host_command &cmd, protocol::buffer_block *buffer, int affinity,
                            uint64_t first_sector) {
    platform.cpu_run_priced(rtl_models::cpu_task::dma_setup, affinity);
    platform.host_dma(cmd, buffer, first_sector);
}

void firmware_kit::table_update(int affinity) {
    platform.cpu_run_priced(rtl_models::cpu_task::table_update, affinity);
    if (platform.config().firmware.table_entry_bytes == 0) return;
    platform.request_table_write(platform.config().firmware.table_entry_bytes);
}

void firmware_kit::xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                              uint64_t sectors, int affinity) {
    platform.cpu_run_priced(rtl_models::cpu_task::xor_setup, affinity);
    platform.xor_blocks(inputs, output, sectors);
}

void firmware_kit::gf_blocks(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                             const protocol::buffer_ref &output, uint64_t sectors, int affinity) {
    std::vector<protocol::buffer_ref> used;
    std::vector<uint8_t> factors;
    bool xor_only = true;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (coefficients.at(k) == 0) continue;
        used.push_back(inputs[k]);
        factors.push_back(coefficients[k]);
        xor_only = xor_only && coefficients[k] == 1;
    }
    if (used.empty()) {  // a zero combination: nothing to read, the result is zero
        auto &t = output.block->tokens;
        if (t.size() >= output.first_sector + sectors)
            std::fill(t.begin() + int64_t(output.first_sector), t.begin() + int64_t(output.first_sector + sectors), 0);
        return;
    }
    platform.cpu_run_priced(rtl_models::cpu_task::xor_setup, affinity);
    if (xor_only) platform.xor_blocks(used, output, sectors);
    else platform.gf_blocks(used, factors, output, sectors);
}

bool firmware_kit::disk_io(bool write, int d, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                           uint64_t first_sector, std::vector<uint64_t> *old_tokens,
                           const std::vector<placement> *choices, size_t *chosen, int64_t relocate_lbn, bool raw) {
    size_t pick = 0;
    // The command was decided now; the member may be lost while it waits for a tag or is out.
    const uint64_t losses = platform.member_losses(d);
    const uint64_t n = queues.acquire_tag(d, lbn, sectors, write, choices, &pick);
    // A read queued for a member's drive that was lost while it waited (its slot perhaps holding a
    // fresh drive already) fails before it is sent, as the commands to the lost drive did (the
    // fresh drive holds none of its data; before, such reads returned its zeros: EXPERIMENTS
    // 19.2). A plain write may go on: what it leaves on a fresh drive is rebuilt or rewritten
    // before anything reads it.
    if (platform.member_losses(d) != losses && (!write || old_tokens)) {
        queues.release_tag(d);
        return false;
    }
    if (choices) {
        lbn = uint64_t((*choices)[pick].extents.front().drive_lbn);
        sectors = uint32_t((*choices)[pick].extents.front().sectors);
        if (chosen) *chosen = pick;
    }
    const bool translated = translate_lbn && !raw;
    if (translated) lbn = translate_lbn(d, lbn, sectors);  // where the unit is now
    platform.check_power();
    bool ok = drive_command(write, d, n, lbn, sectors, buffer, first_sector, old_tokens, relocate_lbn);
    if (translated && translation_done) translation_done(d, lbn);
    queues.release_tag(d);
    // Its member lost since the command was decided (and perhaps a fresh drive, not yet rebuilt,
    // put in the slot, which answers with what it holds: nothing): what it read, or the old data a
    // read-rotate-write returned, belongs to no drive of the array; the caller serves it another
    // way. A plain write counts done, as below.
    if (platform.member_losses(d) != losses) ok = write && !old_tokens;
    return ok;
}

bool firmware_kit::drive_command(bool write, int disk, uint64_t n, uint64_t lbn, uint32_t sectors,
                                 protocol::buffer_block *buffer, uint64_t first_sector,
                                 std::vector<uint64_t> *old_tokens, int64_t relocate_lbn) {
    drive_request r;
    r.write = write;
    r.disk = disk;
    r.lbn = lbn;
    r.sectors = sectors;
    r.buffer = buffer;
    r.first_sector = first_sector;
    r.old_tokens = old_tokens;
    r.relocate_lbn = old_tokens && relocate_lbn >= 0 ? relocate_lbn : -1;
    const bool ok = queues.drive_command(r, n);
    // A plain write to a member lost since it was planned: the member has left the array and
    // will be rebuilt from the others, so what it missed does not matter (a read-rotate-write
    // needs the old data it did not return). Lost while the command was out, the member may be
    // rebuilding already when the failure is seen: its rebuild, too, comes from the others.
    if (!ok && write && !old_tokens && platform.member_state_of(disk) != member_state::optimal) return true;
    return ok;
}

void firmware_kit::fragments_of(const layout &l, bool write, uint64_t lbn, uint32_t sectors,
                                std::vector<disk_fragment> &out) const {
    const int failed = platform.failed_disk();
    std::vector<chunk> chunks;
    l.map(int64_t(lbn), int32_t(sectors), chunks);
    out.clear();
    std::vector<replica> live;
    for (const chunk &c : chunks) {
        live.clear();
        for (const replica &r : c.replicas)
            if (r.disk != failed) live.push_back(r);
        if (live.empty()) {  // every copy lost
            out.clear();
            return;
        }
        // Replicated layouts read through their own paths; here a read has one copy.
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

bool firmware_kit::run_fragments(bool write, const std::vector<disk_fragment> &pieces,
                                 protocol::buffer_block *buffer) {
    return parallel(pieces.size(), [&](size_t i) {
        const disk_fragment &f = pieces[i];
        return disk_io(write, f.disk, f.lbn, f.sectors, buffer, f.host_offset);
    });
}

bool firmware_kit::maintenance_io(bool read, int disk, uint64_t lbn, uint32_t sectors,
                                  protocol::buffer_block *buffer) {
    return disk_io(!read, disk, lbn, sectors, buffer, 0, nullptr, nullptr, nullptr, -1, true);
}

void firmware_kit::restart() {
    queues.restart();
    locks.clear();
    m_staging.clear();  // the buffer DRAM came back empty
}

void firmware_kit::report(nlohmann::json &out) const {
    const disk_queue_statistics &s = queues.statistics();
    out["tag_wait"] = wait_json(s.tag_wait);
    if (queues.predicts()) {
        // The rest of the prediction figures (predicted vs actual) are the platform's probe.
        out["prediction"]["mean_slack_sectors"] =
            s.slack_samples ? s.slack_sectors_sum / double(s.slack_samples) : 0.0;
        out["prediction"]["reference_reads"] = s.reference_reads;
    }
}

}  // namespace raidtlm::controller
