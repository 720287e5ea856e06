// Replicated layouts (RAID 1, RAID 10, SR-Array): reads to one holder (duplicate-and-cancel),
// writes through the NVRAM delayed-write table, power-loss recovery, reference reads.
#include "controller/families/replicated/replicated_firmware.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "controller/firmware_api/plugins.h"

namespace raidtlm::controller {

namespace {
const char *msg_type = "/raidtlm/controller/replicated";
}

replicated_firmware::replicated_firmware(firmware_platform &platform)
    : kit_firmware(platform),
      m_platform(platform),
      m_rebuild(
          platform, [this](int disk, uint64_t unit) { return rebuild_unit(disk, unit); },
          [this](int disk, uint64_t unit) { return rebuild_unit_bytes(disk, unit); }) {
    const firmware_config &fw = platform.config().firmware;
    m_layout = make_array_layout(platform);
    if (!m_layout) SC_REPORT_FATAL(msg_type, "the replicated firmware needs an array layout");
    // Every layout with copies: reads to one holder (acquire_any), writes through the table.
    m_replicated_reads = !dynamic_cast<const parity_layout *>(m_layout.get()) && m_layout->copies() > 1;
    // Host pieces (host_pieces.h) in whole units; the largest work buffer beside them is a
    // rebuild step's unit (host reads and writes use the host's buffer only).
    m_kit.plan_host_pieces(unit_sectors(), unit_sectors(), unit_sectors() * protocol::sector_bytes);
    if (m_replicated_reads && !fw.delayed_writes.foreground_propagation) {
        delayed_write_table::config tc;
        tc.force_threshold_entries = fw.delayed_writes.threshold_entries;
        m_table = std::make_unique<delayed_write_table>(platform.disk_count(), tc);
        const uint64_t bytes = uint64_t(fw.delayed_writes.threshold_entries) * fw.delayed_writes.entry_bytes;
        m_nvram_table_base = platform.nvram_allocate(bytes);
        if (m_nvram_table_base < 0)
            SC_REPORT_FATAL(msg_type, fmt::format("the delayed-write table ({} entries of {} bytes) does not fit "
                                                  "the NVRAM ({} bytes)",
                                                  fw.delayed_writes.threshold_entries, fw.delayed_writes.entry_bytes,
                                                  platform.nvram_capacity_bytes())
                                          .c_str());
        m_kit.queues.on_idle = [this](int d) { serve_delayed(d); };
        m_foreground_copies.assign(size_t(platform.disk_count()), 0);
    }
}

replicated_firmware::~replicated_firmware() = default;

bool replicated_firmware::serve(const host_command &cmd) {
    notice_lost_disk();
    std::vector<uint64_t> logical;  // this request's place in the write order
    std::optional<uint64_t> fence_ticket;
    // Overlapping host writes are served one after the other, in the order they began: a write
    // of several runs (or one split where its current copies differ) schedules its runs at
    // different times, and an overlapping write scheduled between them would come first on some
    // sectors and second on others, which no acknowledgement order matches (and each waited for
    // the other's ticket in m_logical: a RAID 1 rebuild deadlock). A command of one piece waits
    // with its data in (its host DMA overlaps the wait); one of several before its first piece,
    // holding no buffer an earlier write needs for its next piece.
    auto enter_write_fence = [&] {
        fence_ticket = m_write_fence.write_begins(int64_t(cmd.lbn), int64_t(cmd.sectors));
        m_write_fence.wait_for_earlier_writes(m_platform, *fence_ticket);
    };
    if (m_table && cmd.write && !m_kit.one_piece(cmd)) enter_write_fence();
    uint64_t owner = 0;  // names the buffer of the piece being served, which delayed copies may keep
    auto serve_piece = [&](const host_command &piece, protocol::buffer_block *buffer) {
        owner = 0;
        bool ok;
        const uint64_t lost_mark = m_lost_sectors.mark();
        if (!piece.write && overlaps_lost(piece.lbn, piece.sectors)) {
            ok = false;  // data lost to a second fault: the host gets an error, never stale data
        } else if (m_replicated_reads && !piece.write) {
            ok = replicated_read(piece.lbn, piece.sectors, buffer, &logical);
        } else if (m_table && piece.write) {
            if (!fence_ticket) enter_write_fence();
            owner = ++m_last_owner;
            ok = replicated_write(piece.lbn, piece.sectors, buffer, owner, piece.affinity, &logical);
            // write_run clears the loss records of the runs it wrote, each when it is sure of it.
        } else {
            for (;;) {
                const uint64_t losses = m_platform.member_losses();
                std::vector<disk_fragment> pieces;
                const bool locked = piece.write && lock_units(piece.lbn, piece.sectors);
                m_kit.fragments_of(*m_layout, piece.write, piece.lbn, piece.sectors, pieces);
                ok = !pieces.empty() && m_kit.run_fragments(piece.write, pieces, buffer);
                if (locked) unlock_units(piece.lbn, piece.sectors);
                if (!piece.write || pieces.empty() || m_platform.member_losses() == losses) break;
                // A member lost during the write may have held the only copy written: written again
                // to the copies left (the data are still in the buffer, not yet acknowledged).
                notice_lost_disk();
            }
            if (piece.write && ok) m_lost_sectors.written(int64_t(piece.lbn), int64_t(piece.lbn + piece.sectors), lost_mark);
        }
        // Lost while the read was out: what it read is unknown (lost_sector_record.h).
        if (!piece.write && ok && m_lost_sectors.noted_since(lost_mark, int64_t(piece.lbn), int64_t(piece.lbn + piece.sectors)))
            ok = false;
        return ok;
    };
    auto release_piece = [&](const host_command &, protocol::buffer_block *buffer) {
        const auto held = owner ? m_held.find(owner) : m_held.end();
        if (held != m_held.end()) {
            // The delayed copies still need the data: freed when the last is written.
            held->second.acknowledged = true;
            try_free(owner);
        } else {
            m_kit.free_host_buffer(buffer);
        }
    };
    bool ok = false;
    const firmware_kit::host_request r = m_kit.serve_pieces(cmd, serve_piece, &ok, release_piece);
    if (!logical.empty()) {
        for (uint64_t t : logical) m_logical.leave(t);
        m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    }
    if (fence_ticket) m_write_fence.write_done(*fence_ticket);
    m_kit.finish(cmd, r);
    if (r.buffer) release_piece(cmd, r.buffer);  // one piece: released last, as before pieces
    return ok;
}

void replicated_firmware::reset_statistics() {
    m_kit.reset_statistics();
    replicated_statistics fresh;
    fresh.lost_ranges = std::move(m_stats.lost_ranges);  // a fault's outcome covers the whole run
    if (m_table) {
        m_superseded_base = m_table->superseded();
        m_forced_base = m_table->forced();
        fresh.peak_table_entries = m_table->entries();
        fresh.peak_buffered_sectors = m_table->buffered_sectors();
    }
    m_stats = fresh;
}

void replicated_firmware::report(nlohmann::json &out) const {
    m_kit.report(out);
    out["layout"] = m_layout->describe();
    out["capacity_sectors"] = m_layout->capacity_sectors();  // what the array exports to the host
    report_lost_ranges(m_stats.lost_ranges, out);
    m_rebuild.report(out);
    if (!m_replicated_reads) return;
    out["media_retries"] = m_stats.media_retries;
    out["media_repairs"] = m_stats.media_repairs;
    // Duplicated requests (mirror reads, first writes) and the table.
    const disk_queue_statistics &q = m_kit.queues.statistics();
    out["duplicated_requests"] = q.duplicated_requests;
    out["cancelled_duplicates"] = q.cancelled_duplicates;
    out["delayed_writes"] = {{"enabled", m_table != nullptr},
                             {"issued", m_stats.delayed_writes_issued},
                             {"superseded", m_stats.delayed_writes_superseded},
                             {"forced", m_stats.delayed_writes_forced},
                             {"forced_by_loss", m_stats.delayed_writes_forced_by_loss},
                             {"peak_table_entries", m_stats.peak_table_entries},
                             {"peak_buffered_sectors", m_stats.peak_buffered_sectors},
                             {"entries_at_end", m_table ? m_table->entries() : 0}};
}

void replicated_firmware::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    if (m_table) waveforms::trace(tf, m_table_entries, prefix + ".nvram.delayed_entries");
}

// ---- SR-Array (SR-Mirror family) --------------------------------------------------------------

void replicated_firmware::runs_of(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const {
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

bool replicated_firmware::replicated_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                                          std::vector<uint64_t> *logical, uint64_t buffer_lbn, read_purpose purpose) {
    if (buffer_lbn == UINT64_MAX) buffer_lbn = lbn;
    std::vector<chunk> runs;
    runs_of(lbn, sectors, runs);
    const uint64_t epoch = m_platform.power_epoch();
    return m_kit.parallel(runs.size(), [&](size_t i) {
        chunk c = runs[i];
        std::vector<copy_location> unreadable;  // copies that answered MEDIUM ERROR for this run
        for (;;) {
            disk_queues::grant g;
            int d = -1;
            uint64_t ticket = 0;
            std::vector<disk_queues::holder> hs;
            uint64_t losses = 0;
            for (;;) {
                notice_lost_disk();
                // Chosen again after a loss (below), the run may be recorded lost while a fresh
                // drive in the slot serves (a rebuild with no source ends at once): the host's read
                // fails, as one begun now would (before: served the blank drive's zeros).
                if (purpose == read_purpose::host && overlaps_lost(uint64_t(c.lbn), uint32_t(c.sectors))) return false;
                losses = m_platform.member_losses();
                chunk live = c;
                auto excluded = [&](const replica &r) {
                    if (std::find(unreadable.begin(), unreadable.end(), copy_location{r.disk, r.copy}) != unreadable.end())
                        return true;
                    // A lost member, or a new drive not yet rebuilt there, holds none of the data.
                    if (!copy_present(r.disk, c.lbn, c.sectors)) return true;
                    // Copies still waiting for a delayed write hold old data: only current ones serve.
                    return m_table && !m_table->is_current({r.disk, r.copy}, c.lbn, c.sectors);
                };
                live.replicas.erase(std::remove_if(live.replicas.begin(), live.replicas.end(), excluded),
                                    live.replicas.end());
                m_kit.queues.holders_of(live, m_platform.failed_disk(), hs);
                if (hs.empty() && !unreadable.empty()) {
                    // The other copies wait for a propagation of newer data: forced, then read.
                    const bool pending = m_table && std::any_of(c.replicas.begin(), c.replicas.end(), [&](const replica &r) {
                        return r.disk != m_platform.failed_disk() &&
                               std::find(unreadable.begin(), unreadable.end(), copy_location{r.disk, r.copy}) ==
                                   unreadable.end() &&
                               !m_table->is_current({r.disk, r.copy}, c.lbn, c.sectors);
                    });
                    if (pending && force_current(c, epoch)) continue;
                    mark_lost(c.lbn, c.sectors);  // no readable copy left
                    return false;
                }
                if (hs.empty() && m_table && c.sectors > 1 && m_platform.failed_disk() < 0) {
                    // Parts of the run have their only current copy on different disks (pending
                    // updates of two writes): read the halves separately.
                    const uint32_t half = uint32_t(c.sectors) / 2;
                    return replicated_read(uint64_t(c.lbn), half, buffer, logical, buffer_lbn, purpose) &&
                           replicated_read(uint64_t(c.lbn) + half, uint32_t(c.sectors) - half, buffer, logical,
                                           buffer_lbn, purpose);
                }
                if (hs.empty() && m_table && force_current(c, epoch)) continue;  // the newest data are pending
                if (hs.empty()) return false;
                g = m_kit.queues.acquire_any(hs, false);
                m_platform.check_power(epoch);
                d = hs[g.holder].disk;
                if (m_platform.member_losses() != losses) {
                    // A member lost while the read waited (perhaps this one, perhaps replaced by a
                    // fresh drive that holds none of the data yet): its copies are chosen again.
                    m_kit.queues.release_tag(d);
                    continue;
                }
                if (!m_table) break;
                // While it waited, a newer write may have left this copy stale: then ask again.
                if (m_table->is_current({d, hs[g.holder].choices[g.placement].copy}, c.lbn, c.sectors)) {
                    ticket = m_guard.enter(d, c.lbn, c.sectors);  // after a write to it already sent
                    // Newer writes are acknowledged only after this read is checked (b_transport).
                    logical->push_back(m_logical.enter(0, c.lbn, c.sectors));
                    break;
                }
                m_kit.queues.release_tag(d);
            }
            if (ticket) wait_turn(ticket, epoch);
            // A replica past a track's slot 0 is two extents: one command each, under the same tag
            // (about a revolution more than one pass; a drive command for both is not modelled).
            const placement &at = hs[g.holder].choices[g.placement];
            const std::vector<disk_extent> &ex = at.extents;
            uint64_t offset = uint64_t(c.lbn) - buffer_lbn;
            uint64_t n = g.n;
            bool ok = true;
            for (size_t k = 0; k < ex.size() && ok; ++k) {
                ok = m_kit.drive_command(false, d, n, uint64_t(ex[k].drive_lbn), uint32_t(ex[k].sectors), buffer, offset);
                offset += uint64_t(ex[k].sectors);
                n = 1;
            }
            m_platform.check_power(epoch);
            if (ticket) {
                m_guard.leave(ticket);
                m_guard_changed.notify(sc_core::SC_ZERO_TIME);
            }
            m_kit.queues.release_tag(d);
            // A member lost since the copy was chosen (the read may have waited its turn behind a
            // write): what came back may be no drive's of the array now. Chosen again.
            if (m_platform.member_losses() != losses) continue;
            if (!ok) {
                // MEDIUM ERROR: another copy serves the read, then repairs this one.
                unreadable.push_back({d, at.copy});
                ++m_stats.media_retries;
                continue;
            }
            for (const copy_location &bad : unreadable) repair_copy(c, {d, at.copy}, bad);
            return true;
        }
    });
}

// ---- delayed writes (NVRAM delayed-write table) -------------------------------------------------

bool replicated_firmware::replicated_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, uint64_t owner,
                                      int affinity, std::vector<uint64_t> *logical) {
    std::vector<chunk> runs;
    runs_of_for_write(lbn, sectors, runs);
    const uint64_t epoch = m_platform.power_epoch();
    held_buffer &hb = m_held[owner];
    hb.buffer = buffer;
    hb.lbn = lbn;
    return m_kit.parallel(runs.size(), [&](size_t i) {
        return write_run(runs[i], lbn, buffer, owner, affinity, logical, epoch);
    });
}

bool replicated_firmware::write_run(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, uint64_t owner,
                               int affinity, std::vector<uint64_t> *logical, uint64_t epoch) {
    // The first write is scheduled like a read; the copy the scheduler picks is the first. Only
    // a copy that is current for the whole run may take it: if the power failed before it was
    // written, recovery copies that copy to the others, so it must hold every acknowledged write.
    std::vector<disk_queues::holder> hs;
    for (;;) {
        disk_queues::grant g;
        int d = -1;
        for (;;) {
            notice_lost_disk();
            const uint64_t losses = m_platform.member_losses();
            chunk live = c;
            auto stale = [&](const replica &r) {
                return !copy_present(r.disk, c.lbn, c.sectors) ||
                       !m_table->is_current({r.disk, r.copy}, c.lbn, c.sectors);
            };
            live.replicas.erase(std::remove_if(live.replicas.begin(), live.replicas.end(), stale), live.replicas.end());
            m_kit.queues.holders_of(live, m_platform.failed_disk(), hs);
            if (hs.empty() && c.sectors > 1 && m_platform.failed_disk() < 0) {
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
            if (hs.empty() && force_current(c, epoch)) continue;  // its only current copy was lost
            if (hs.empty()) return false;
            g = m_kit.queues.acquire_any(hs, true);
            m_platform.check_power(epoch);
            d = hs[g.holder].disk;
            if (m_platform.member_losses() != losses) {
                // A member lost while the write waited for its tag (perhaps this one): its loss has
                // been noticed and its table entries dropped already, so an entry naming it as the
                // first write's location would survive, and a power loss would copy the slot's new
                // drive (blank) over the live copies: zeros served as data. Chosen again.
                m_kit.queues.release_tag(d);
                continue;
            }
            // While it waited, a newer write may have left this copy stale: then ask again.
            const bool current = m_table->is_current({d, hs[g.holder].choices[g.placement].copy}, c.lbn, c.sectors);
            if (current && !rebuild_holds(c.lbn, c.sectors)) break;
            m_kit.queues.release_tag(d);
            if (current) {
                // A rebuild step copies the range to a new drive: the write's copies are chosen
                // after it (then the new drive's copy is among them).
                sc_core::wait(m_rebuild_step_done);
                m_platform.check_power(epoch);
            }
        }
        const uint64_t first_losses = m_platform.member_losses(d);
        const uint64_t lost_mark = m_lost_sectors.mark();
        const placement &first = hs[g.holder].choices[g.placement];
        // A copy on a drive being rebuilt is written when any unit of the range is rebuilt already:
        // the unit the rebuild has passed must get the new data (before, a write across a rebuilt
        // unit and one still to do left that copy out, and the rebuilt unit kept the old data:
        // the explorer's 141:1842). The part ahead of the rebuild is written too; its step, ordered
        // after this write (rebuild_holds, the write-order guard), copies the same data again.
        std::vector<copy_location> others;
        for (const replica &r : c.replicas)
            if (copy_partly_present(r.disk, c.lbn, c.sectors) && !(r.disk == d && r.copy == first.copy))
                others.push_back({r.disk, r.copy});
        std::vector<propagation> to_foreground;  // foreground propagation: every other copy now
        m_table->first_write_scheduled(c.lbn, c.sectors, {d, first.copy}, others, to_foreground, owner);
        const uint64_t ticket = m_guard.enter(d, c.lbn, c.sectors);  // ordered with the table update
        const uint64_t order = m_logical.enter(0, c.lbn, c.sectors);
        for (const propagation &p : to_foreground) {
            ++m_held[p.owner].in_flight;
            m_platform.run_background([this, p] { run_propagation(p, false); });
        }
        after_table_change();
        if (m_table->flushing_any()) {  // the threshold: every disk with delayed writes flushes
            for (int disk = 0; disk < m_platform.disk_count(); ++disk) serve_delayed(disk);
        } else {
            for (const copy_location &o : others) serve_delayed(o.disk);
        }
        // The table entry into NVRAM (the first write's location) while the disk is told.
        m_platform.cpu_run_priced(rtl_models::cpu_task::table_update, affinity);
        m_platform.check_power(epoch);
        const uint32_t entry_bytes = m_platform.config().firmware.delayed_writes.entry_bytes;
        const uint64_t slot = m_nvram_slot++ % m_platform.config().firmware.delayed_writes.threshold_entries;
        const uint64_t record[2] = {uint64_t(c.lbn), (uint64_t(c.sectors) << 32) | (uint64_t(d) << 16) |
                                                         uint64_t(uint16_t(first.copy))};
        m_platform.nvram_write(uint64_t(m_nvram_table_base) + slot * entry_bytes, record,
                               std::min<uint32_t>(entry_bytes, 16));
        wait_turn(ticket, epoch);
        uint64_t offset = uint64_t(c.lbn) - host_lbn;
        uint64_t n = g.n;
        bool ok = true;
        for (const disk_extent &e : first.extents) {
            if (ok)
                ok = m_kit.drive_command(true, d, n, uint64_t(e.drive_lbn), uint32_t(e.sectors), buffer, offset);
            offset += uint64_t(e.sectors);
            n = 1;
        }
        m_platform.check_power(epoch);
        m_guard.leave(ticket);
        m_guard_changed.notify(sc_core::SC_ZERO_TIME);
        m_kit.queues.release_tag(d);
        // Acknowledged in the order the writes were scheduled (the order the table supersedes
        // in), and after every read that began before it (it may have read the old data).
        while (m_logical.must_wait(order)) {
            sc_core::wait(m_guard_changed);
            m_platform.check_power(epoch);
        }
        if (m_platform.member_losses(d) != first_losses) {
            // The first write's member was lost after it was chosen: the data (perhaps written, perhaps
            // not) went with it, and where it was the only current copy its run is recorded lost. The
            // buffer still holds the data, not yet acknowledged: it is written again where it can be
            // now (before: the write was acknowledged, the run's loss record erased, and a read served
            // the blank drive in the slot).
            m_logical.leave(order);
            m_guard_changed.notify(sc_core::SC_ZERO_TIME);
            continue;
        }
        logical->push_back(order);
        // A copy holds the run's data: its sectors are no longer lost, but for what a loss noted
        // while it was written touches (lost_sector_record.h).
        if (ok) m_lost_sectors.written(int64_t(c.lbn), int64_t(c.lbn + c.sectors), lost_mark);
        return ok;
    }
}

}  // namespace raidtlm::controller
