// Replicated layouts (RAID 1, RAID 10, SR-Array): the delayed copies' propagation (the NVRAM
// delayed-write table's entries written to their other copies, media repairs) and the restart
// after a power loss (the table's stale copies rewritten from the first write's location, or
// without the table the intent records' ranges resynchronised). Split from replicated_firmware.cpp.
#include <algorithm>
#include <optional>

#include "controller/families/replicated/replicated_firmware.h"

namespace raidtlm::controller {

void replicated_firmware::wait_turn(uint64_t ticket, uint64_t epoch) {
    while (m_guard.must_wait(ticket)) {
        sc_core::wait(m_guard_changed);
        m_platform.check_power(epoch);
    }
}

void replicated_firmware::repair_copy(const chunk &c, copy_location source, copy_location bad) {
    // Rewritten from a good copy like a delayed write after a power loss (read the source, write
    // the copy), through the table so that a newer write supersedes it; while it is pending the
    // copy is not current and no read goes there. With writes to the range pending, or without
    // the table, it is left to them (or to the next write of the range): the copy stays unreadable.
    if (!m_table || !m_table->add_repair(c.lbn, c.sectors, source, bad)) return;
    ++m_stats.media_repairs;
    after_table_change();
    serve_delayed(bad.disk);
}

void replicated_firmware::serve_delayed(int d) {
    if (!m_table || !m_platform.powered() || m_platform.member_state_of(d) == member_state::failed) return;
    disk_queues::disk_state &ds = m_kit.queues.state(d);
    int &queued_copies = m_foreground_copies[size_t(d)];
    // Copies queued in the foreground (after a power loss the whole table; past the threshold
    // every delayed write) are bounded a disk: unbounded, that was thousands of buffers, queued
    // commands and firmware threads at once, and a scheduler scanning them all; one at a time,
    // the scheduler had nothing to choose from (controller.delayed_writes.foreground_copies_per_disk,
    // EXPERIMENTS 19.32 and 19.37).
    const int limit = std::max(ds.tags, int(m_platform.config().firmware.delayed_writes.foreground_copies_per_disk));
    while (m_table->delayed(d) > 0) {
        const bool idle = ds.queue.empty() && ds.in_use < ds.tags;
        const bool room = queued_copies < limit;
        if (!idle && !(room && m_table->flushing(d))) break;
        // An idle disk's free tag goes to a buffered copy at once; any other copy queues for it.
        const bool take_tag = idle && m_table->next_is_buffered(d);
        if (!take_tag && !room) break;
        const std::optional<propagation> p = m_table->next_delayed(d);
        if (!p) break;
        if (p->data_buffered) ++m_held[p->owner].in_flight;
        if (take_tag) {
            ++ds.in_use;
            m_platform.run_background([this, q = *p] { run_propagation(q, true); });
            continue;
        }
        // After a power loss the source is read first: that must not hold a tag here (its disk
        // may be waiting for this one's), so the propagation queues for its tag afterwards.
        ++queued_copies;
        m_platform.run_background([this, q = *p, epoch = m_platform.power_epoch()] {
            run_propagation(q, false);
            if (m_platform.power_epoch() != epoch) return;  // the restart reset the count
            --m_foreground_copies[size_t(q.to.disk)];
            serve_delayed(q.to.disk);
        });
    }
    m_stats.delayed_writes_forced = m_table->forced() - m_forced_base;  // it changes only here
}

void replicated_firmware::run_propagation(propagation p, bool have_tag) {
    const uint64_t epoch = m_platform.power_epoch();
    const int d = p.to.disk;
    if (m_platform.member_state_of(d) == member_state::failed) {
        // Its disk was lost since the copy was handed out: nothing to write (a rebuild will).
        m_table->propagation_done(p.op);
        if (p.data_buffered) --m_held[p.owner].in_flight;
        after_table_change();
        if (p.data_buffered) try_free(p.owner);
        if (have_tag) m_kit.queues.release_tag(d);
        return;
    }
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
        work = m_platform.allocate_buffer(uint64_t(p.sectors) * protocol::sector_bytes, uint64_t(p.sectors));
        m_platform.check_power(epoch);
        m_layout->map(p.lbn, p.sectors, chunks);
        std::vector<disk_extent> src;
        for (const chunk &c : chunks)
            for (const replica &r : c.replicas)
                if (r.disk == p.source.disk && r.copy == p.source.copy)
                    src.insert(src.end(), r.extents.begin(), r.extents.end());
        uint64_t offset = 0;
        for (const disk_extent &e : src) {
            ok = ok && m_kit.disk_io(false, p.source.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), work, offset);
            offset += uint64_t(e.sectors);
        }
        m_platform.check_power(epoch);
        data = work;
        data_lbn = uint64_t(p.lbn);
        if (!ok || m_platform.member_state_of(p.source.disk) == member_state::failed) {
            // The only copy with the newest data cannot be read (MEDIUM ERROR, or its disk is
            // lost): the range is lost; reads of it fail until a write gives it new data. A
            // repair's data are on the other copies too: the target stays unreadable, and the
            // next read of it repairs it from another copy (or records the loss if none is left).
            if (!p.repair) mark_lost(p.lbn, p.sectors);
            m_table->propagation_done(p.op);
            m_platform.free_buffer(work);
            after_table_change();
            if (have_tag) m_kit.queues.release_tag(d);
            return;
        }
    }
    std::vector<disk_extent> ex;
    uint64_t n = 1;
    if (!have_tag) {
        extents_of_copy(p.lbn, p.sectors, ex);
        n = m_kit.queues.acquire_tag(d, uint64_t(ex.front().drive_lbn), uint32_t(ex.front().sectors), true);
        m_platform.check_power(epoch);
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
            ok = m_kit.drive_command(true, d, n, uint64_t(e.drive_lbn), uint32_t(e.sectors), data, offset) && ok;
            offset += uint64_t(e.sectors);
            n = 1;
        }
    }
    m_platform.check_power(epoch);
    for (uint64_t t : tickets) m_guard.leave(t);
    m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    m_table->propagation_done(p.op);  // (drive errors are not modelled)
    if (work) m_platform.free_buffer(work);
    if (p.data_buffered) --m_held[p.owner].in_flight;
    after_table_change();
    if (p.data_buffered) try_free(p.owner);
    m_kit.queues.release_tag(d);
}

void replicated_firmware::after_table_change() {
    m_stats.peak_table_entries = std::max(m_stats.peak_table_entries, m_table->entries());
    m_table_entries = int(m_table->entries());
    m_stats.peak_buffered_sectors = std::max(m_stats.peak_buffered_sectors, m_table->buffered_sectors());
    m_stats.delayed_writes_superseded = m_table->superseded() - m_superseded_base;
    for (uint64_t o : m_table->take_released_owners()) try_free(o);
    m_table_changed.notify(sc_core::SC_ZERO_TIME);
}

void replicated_firmware::try_free(uint64_t owner) {
    const auto it = m_held.find(owner);
    if (it == m_held.end()) return;
    const held_buffer &h = it->second;
    if (!h.acknowledged || h.in_flight > 0 || m_table->entries_of(owner) > 0) return;
    m_kit.free_host_buffer(h.buffer);
    m_held.erase(it);
}

size_t replicated_firmware::resync_copies(uint64_t lbn, uint32_t sectors) {
    std::vector<chunk> runs;
    runs_of(lbn, sectors, runs);
    size_t copies = 0;
    for (const chunk &c : runs) {
        std::vector<const replica *> live;
        for (const replica &r : c.replicas)
            if (copy_present(r.disk, c.lbn, c.sectors)) live.push_back(&r);
        if (live.size() < 2) continue;
        protocol::buffer_block *work = m_platform.allocate_buffer(uint64_t(c.sectors) * protocol::sector_bytes, uint64_t(c.sectors));
        auto move = [&](bool write, const replica &r) {
            uint64_t offset = 0;
            for (const disk_extent &e : r.extents) {
                m_kit.disk_io(write, r.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), work, offset);
                offset += uint64_t(e.sectors);
            }
        };
        move(false, *live.front());
        for (size_t k = 1; k < live.size(); ++k) move(true, *live[k]);
        copies += live.size() - 1;
        m_platform.free_buffer(work);
    }
    return copies;
}

size_t replicated_firmware::restart_after_power_loss() {
    // The firmware restarts: its queues, buffers and threads from before are gone.
    m_kit.restart();
    m_held.clear();
    m_guard.clear();
    m_logical.clear();
    m_write_fence.clear();
    // The rebuild steps under way at the loss stopped for good: none holds a unit now. The units
    // done above a cursor were known in volatile memory only: done again, as the runner does them.
    m_units_in_rebuild.clear();
    m_rebuilt_ahead.clear();
    std::fill(m_foreground_copies.begin(), m_foreground_copies.end(), 0);
    if (!m_replicated_reads) return 0;
    // The writes in flight at the loss, from their intent records. With the delayed-write table
    // their first copies are in it (its entry was written before the disk command); without it
    // (foreground propagation) their copies may differ: made equal from the first live copy.
    size_t resynced = 0;
    for (const auto &[address, r] : write_intent_log::read(m_platform)) {
        if (!m_table) resynced += resync_copies(r.lbn, r.sectors);
        m_platform.nvram_release(address);
    }
    m_stats.recovered_copies += resynced;
    if (!m_table) {
        m_rebuild.restart_all();  // the cursors were in volatile memory
        return resynced;
    }
    std::vector<std::pair<int64_t, int32_t>> lost;
    const std::vector<recovery_item> items = m_table->recover_after_power_loss(lost);
    for (const auto &[lbn, sectors] : lost) mark_lost(lbn, sectors);
    // The start-up check (check_members) may have failed members the table still names: a drive
    // pulled or swapped while the controller was off. Their pending copies will never be written
    // (serve_delayed skips a failed disk, and the wait below would never end); entries whose only
    // newest copy was there are lost. After recover_after_power_loss: no buffer holds data now.
    notice_lost_disk();
    // Members lost before the power loss, their loss handled then: the recovery hands a copy that
    // was in flight to one at the loss out again (explorer case 201:300: the repair of a MEDIUM
    // ERROR on the disk lost next), which serve_delayed never writes, and the wait below never
    // ended. Dropped as at the loss.
    drop_lost_disks(m_platform.failed_disks());
    size_t stale = 0;
    for (const recovery_item &it : items) stale += it.stale.size();
    m_stats.recovered_copies += stale;
    for (int d = 0; d < m_kit.queues.disks(); ++d) serve_delayed(d);
    while (m_table->entries() > 0) {
        sc_core::wait(m_table_changed);
        // A member lost during the recovery: the copies still to hand out to it never will be
        // (serve_delayed skips a failed disk), so they leave the table here. Its loss ends what
        // was under way with it, and that changes the table: this loop sees it.
        notice_lost_disk();
    }
    m_rebuild.restart_all();  // the cursors were in volatile memory
    return stale;
}

}  // namespace raidtlm::controller
