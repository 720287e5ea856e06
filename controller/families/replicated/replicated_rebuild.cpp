// Replicated layouts (RAID 1, RAID 10, SR-Array): a member rebuilt onto a fresh drive, unit by
// unit in logical order (rebuild_runner). A unit is read like a host read from a current copy
// on another member (never the new drive: it is not rebuilt there yet) and written to each of
// the new drive's copies of it. Below the cursor the new drive's copies are copies like any
// other: reads may go there, writes make them stale and delayed writes bring them up to date.
// At or above it they are none of the data: reads and first writes go elsewhere, and a write's
// other copies leave them out (the rebuild copies the newest data when it gets there).
//
// The one race: a write scheduled between a rebuild step's read and its cursor advance would
// leave the new drive's copy stale. A write whose range a step is working on waits for the
// step, then chooses its copies (the new drive's then among them); without the delayed-write
// table, writes go to every live copy and hold the units' stripe locks against the step.
//
// Losses (notice_lost_disk, mark_lost) and the delayed writes a loss forces (force_current) live
// here too. A new loss leaves some units without a present copy (the other copy on the lost disk, or on
// a new drive the rebuild had not reached): those are lost (lost_ranges), and reads of them fail.
#include <algorithm>

#include "controller/families/replicated/replicated_firmware.h"

namespace raidtlm::controller {

uint64_t replicated_firmware::unit_sectors() const {
    return std::max<uint64_t>(1, m_platform.config().firmware.stripe_unit_sectors);
}

uint64_t replicated_firmware::unit_count() const {
    const uint64_t capacity = uint64_t(m_layout->capacity_sectors());
    return (capacity + unit_sectors() - 1) / unit_sectors();
}

std::pair<uint64_t, uint64_t> replicated_firmware::units_of(int64_t lbn, int32_t sectors) const {
    return {uint64_t(lbn) / unit_sectors(), uint64_t(lbn + sectors - 1) / unit_sectors()};
}

bool replicated_firmware::copy_present(int disk, int64_t lbn, int32_t sectors) const {
    const auto [first, last] = units_of(lbn, sectors);
    if (m_platform.member_state_of(disk) != member_state::rebuilding) return m_rebuild.present(disk, last);
    // The cursor moves forward only: the last unit of the range below it means all of it is. Not
    // so for a unit done ahead of the cursor (m_rebuild.present says yes for it too): an earlier
    // unit of the range may still be blank (before: a read across two units, the second done
    // ahead, was served the first's zeros from the new drive).
    const rebuild_cursor *cursor = m_rebuild.cursor(disk);
    if (cursor && cursor->rebuilt(last)) return true;
    for (uint64_t u = first; u <= last; ++u)
        if (!unit_on_new_drive(disk, u)) return false;
    return true;
}

bool replicated_firmware::unit_on_new_drive(int disk, uint64_t unit) const {
    if (m_rebuild.present(disk, unit)) return true;
    // With several units in flight a step may finish ahead of the cursor: the new drive then holds
    // that unit, and a write leaving it out would make it stale for good once the cursor passes
    // (the step is not done again; before: wrong reads with rebuild_units_in_flight > 1, and the
    // explorer's 161:505, a write that left out a unit done ahead).
    const auto it = m_rebuilt_ahead.find(disk);
    return it != m_rebuilt_ahead.end() && it->second.count(unit);
}

bool replicated_firmware::copy_partly_present(int disk, int64_t lbn, int32_t sectors) const {
    if (m_platform.member_state_of(disk) != member_state::rebuilding) return copy_present(disk, lbn, sectors);
    const auto [first, last] = units_of(lbn, sectors);
    for (uint64_t u = first; u <= last; ++u)
        if (unit_on_new_drive(disk, u)) return true;
    return false;
}

bool replicated_firmware::rebuild_holds(int64_t lbn, int32_t sectors) const {
    if (m_units_in_rebuild.empty()) return false;
    const auto [first, last] = units_of(lbn, sectors);
    const auto it = m_units_in_rebuild.lower_bound(first);
    return it != m_units_in_rebuild.end() && *it <= last;
}

bool replicated_firmware::lock_units(uint64_t lbn, uint32_t sectors) {
    bool rebuilding = false;
    for (int d = 0; d < m_platform.disk_count(); ++d)
        rebuilding = rebuilding || m_platform.member_state_of(d) == member_state::rebuilding;
    if (!rebuilding) return false;
    const uint64_t first = lbn / unit_sectors(), last = (lbn + sectors - 1) / unit_sectors();
    for (uint64_t u = first; u <= last; ++u) m_kit.locks.lock(int64_t(u));  // ascending: no deadlock
    return true;
}

void replicated_firmware::unlock_units(uint64_t lbn, uint32_t sectors) {
    const uint64_t first = lbn / unit_sectors(), last = (lbn + sectors - 1) / unit_sectors();
    for (uint64_t u = first; u <= last; ++u) m_kit.locks.unlock(int64_t(u));
}

void replicated_firmware::runs_of_for_write(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const {
    bool rebuilding = false;
    for (int d = 0; d < m_platform.disk_count(); ++d)
        rebuilding = rebuilding || m_platform.member_state_of(d) == member_state::rebuilding;
    if (!rebuilding) {
        runs_of(lbn, sectors, out);
        return;
    }
    out.clear();
    std::vector<chunk> part;
    for (uint64_t at = lbn, end = lbn + sectors; at < end;) {
        const uint64_t piece_end = std::min(end, (at / unit_sectors() + 1) * unit_sectors());
        runs_of(at, uint32_t(piece_end - at), part);
        out.insert(out.end(), part.begin(), part.end());
        at = piece_end;
    }
}

bool replicated_firmware::start_rebuild(int disk) {
    if (!m_replicated_reads) return false;  // one copy: nothing to rebuild from
    notice_lost_disk();
    m_rebuilt_ahead.erase(disk);
    m_rebuild.start(disk, unit_count());
    return true;
}

uint64_t replicated_firmware::rebuild_unit_bytes(int disk, uint64_t unit) const {
    const uint64_t lbn = unit * unit_sectors();
    const uint64_t sectors = std::min<uint64_t>(unit_sectors(), uint64_t(m_layout->capacity_sectors()) - lbn);
    std::vector<chunk> chunks;
    m_layout->map(int64_t(lbn), int32_t(sectors), chunks);
    uint64_t on_disk = 0;
    for (const chunk &c : chunks)
        for (const replica &r : c.replicas)
            if (r.disk == disk)
                for (const disk_extent &e : r.extents) on_disk += uint64_t(e.sectors);
    return on_disk * protocol::sector_bytes;
}

bool replicated_firmware::rebuild_unit(int disk, uint64_t unit) {
    notice_lost_disk();
    const uint64_t lbn = unit * unit_sectors();
    const uint32_t sectors = uint32_t(std::min<uint64_t>(unit_sectors(), uint64_t(m_layout->capacity_sectors()) - lbn));
    // A unit with lost sectors is copied all the same: once the cursor passes it the new drive's
    // copy is served, and its sectors not lost must hold their data there (skipping the unit left
    // them blank: zeros returned as data). The lost sectors' reads fail until a write gives them
    // new data, on every present copy.
    const bool locked = !m_table;
    if (locked) m_kit.locks.lock(int64_t(unit));
    m_units_in_rebuild.insert(unit);
    // With tokens always: the rebuild cannot know whether the host ever sent any.
    protocol::buffer_block *work = m_platform.allocate_buffer(uint64_t(sectors) * protocol::sector_bytes, sectors);
    std::vector<uint64_t> logical;
    bool ok = replicated_read(lbn, sectors, work, &logical, UINT64_MAX, read_purpose::rebuild);
    for (uint64_t t : logical) m_logical.leave(t);
    if (!logical.empty()) m_guard_changed.notify(sc_core::SC_ZERO_TIME);
    // No copy could give the unit: the cursor passes it all the same and the new drive's copy is
    // served, so its sectors are recorded lost (reads fail) rather than served blank.
    if (!ok && !m_lost_sectors.covers(int64_t(lbn), int64_t(lbn + sectors))) mark_lost(int64_t(lbn), int32_t(sectors));
    if (ok) {
        std::vector<chunk> chunks;
        m_layout->map(int64_t(lbn), int32_t(sectors), chunks);
        for (const chunk &c : chunks)
            for (const replica &r : c.replicas) {
                if (r.disk != disk) continue;
                uint64_t offset = uint64_t(c.lbn) - lbn;
                for (const disk_extent &e : r.extents) {
                    ok = m_kit.disk_io(true, disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), work, offset) && ok;
                    offset += uint64_t(e.sectors);
                }
            }
    }
    m_platform.free_buffer(work);
    if (ok && m_platform.member_state_of(disk) == member_state::rebuilding) {
        std::set<uint64_t> &ahead = m_rebuilt_ahead[disk];
        ahead.insert(unit);
        // Those the cursor has passed say nothing more.
        const rebuild_cursor *cursor = m_rebuild.cursor(disk);
        if (cursor) ahead.erase(ahead.begin(), ahead.lower_bound(cursor->next()));
    }
    // This step only (a restart after a power loss may have released every unit already).
    if (const auto held = m_units_in_rebuild.find(unit); held != m_units_in_rebuild.end()) m_units_in_rebuild.erase(held);
    m_rebuild_step_done.notify(sc_core::SC_ZERO_TIME);
    if (locked) m_kit.locks.unlock(int64_t(unit));
    return ok;
}

void replicated_firmware::mark_lost(int64_t lbn, int32_t sectors) {
    m_stats.lost_ranges.emplace_back(lbn, sectors);
    m_lost_sectors.note(lbn, lbn + sectors);
}

bool replicated_firmware::overlaps_lost(uint64_t lbn, uint32_t sectors) const {
    return m_lost_sectors.overlaps(int64_t(lbn), int64_t(lbn + sectors));
}

void replicated_firmware::notice_lost_disk() {
    // By each member's loss count, not by which members are failed now: a member lost and
    // replaced before the firmware looked (the new drive already rebuilding) was lost all the same,
    // and its pending copies and sources must be dropped (before: the table kept naming the new
    // drive as the first write's location, and a power loss copied its blank sectors as data).
    m_losses_noticed.resize(size_t(m_platform.disk_count()), 0);
    std::vector<int> fresh;
    for (int d = 0; d < m_platform.disk_count(); ++d) {
        const uint64_t losses = m_platform.member_losses(d);
        if (losses != m_losses_noticed[size_t(d)]) fresh.push_back(d);
        m_losses_noticed[size_t(d)] = losses;
    }
    drop_lost_disks(fresh);
}

void replicated_firmware::drop_lost_disks(const std::vector<int> &disks) {
    if (disks.empty()) return;
    if (m_table) {
        for (int d : disks)
            for (const auto &[lbn, sectors] : m_table->disk_lost(d)) mark_lost(lbn, sectors);
        after_table_change();
    }
    lose_ranges_without_copies();
}

bool replicated_firmware::force_current(const chunk &c, uint64_t epoch) {
    // Only a copy that holds its member's data can be brought up to date: none when every holder
    // is lost or a new drive the rebuild has not reached (two members gone, beyond the promise).
    std::vector<int> present;
    for (const replica &r : c.replicas)
        if (copy_present(r.disk, c.lbn, c.sectors)) present.push_back(r.disk);
    if (present.empty()) return false;
    const int lost = m_platform.failed_disk();
    std::vector<propagation> forced;
    m_table->force_overlapping(c.lbn, c.sectors, lost, forced);
    for (const propagation &p : forced) {
        if (p.data_buffered) ++m_held[p.owner].in_flight;
        m_platform.run_background([this, p] { run_propagation(p, false); });
    }
    m_stats.delayed_writes_forced_by_loss += forced.size();
    if (!forced.empty()) after_table_change();
    // Nothing handed out now and nothing on its way to a present copy: no table change is coming
    // that would make one current (waiting for one was the stall of a RAID 1 that lost its second
    // member while the first was being rebuilt).
    if (forced.empty() && std::none_of(present.begin(), present.end(), [&](int d) {
            return m_table->in_flight_overlaps(d, c.lbn, c.sectors);
        }))
        return false;
    sc_core::wait(m_table_changed);  // a propagation of the range written (or a newer write)
    m_platform.check_power(epoch);
    return true;
}

void replicated_firmware::lose_ranges_without_copies() {
    std::vector<chunk> chunks;
    for (uint64_t u = 0, n = unit_count(); u < n; ++u) {
        if (m_units_in_rebuild.count(u)) continue;  // the step decides: its read may have been done
        const uint64_t lbn = u * unit_sectors();
        const uint32_t sectors = uint32_t(std::min<uint64_t>(unit_sectors(), uint64_t(m_layout->capacity_sectors()) - lbn));
        m_layout->map(int64_t(lbn), int32_t(sectors), chunks);
        for (const chunk &c : chunks) {
            const bool any = std::any_of(c.replicas.begin(), c.replicas.end(),
                                         [&](const replica &r) { return copy_present(r.disk, c.lbn, c.sectors); });
            if (!any && !overlaps_lost(uint64_t(c.lbn), uint32_t(c.sectors))) mark_lost(c.lbn, c.sectors);
        }
    }
}

}  // namespace raidtlm::controller
