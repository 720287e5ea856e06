// Replicated layouts (RAID 1, RAID 10, SR-Array): reads to one holder (duplicate-and-cancel),
// writes through the NVRAM delayed-write table, power-loss recovery, reference reads.
#include "controller/controller_top.h"
#include "controller/controller_top_state.h"
#include "controller/mirror_read_router.h"

#include <algorithm>
#include <limits>

namespace raidtlm::controller {

using rtl_models::now_s;

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
    for (auto &channel : m_channels) channel->abandon_all();
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

}  // namespace raidtlm::controller
