// Parity logging recovery when the controller stops: a power loss, or a controller lost and
// replaced with its NVRAM module moved to the replacement (fault kind controller_loss; the policy
// and its source: EXPERIMENTS.md 9). What survives is what NVRAM and the drives hold: the log
// buffers (records never written to a sublog), the log directory (each log write's sublog, offset
// and record headers: kind, parity sector, sequence; the model's sectors carry one token each, so
// the headers stay in NVRAM next to the buffers while the images are on the drives), the
// reintegration-in-progress mark, and the write-intent records of the host writes in flight.
// Recovery, before the first request is served:
//   1. a log write in flight at the loss may be torn on the drive: its records are still in their
//      NVRAM buffers (freed only when the write completes), so they count as buffered;
//   2. a region that was reintegrating may have some parity runs rewritten and others not:
//      applying the log again would XOR updates in twice, so its parity is rebuilt from the data
//      and the log dropped;
//   3. every other region with a log is reintegrated: the sublogs read back from the drives, the
//      buffered records from NVRAM, the parity written and the log truncated;
//   4. every logical stripe a write-intent record names (a host write in flight: its data may be
//      on the drive and its record not logged, or the reverse) gets its parity recomputed from
//      its data, as RAID 5's resync closes the write hole.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include <map>
#include <set>

namespace raidtlm::controller {

size_t parity_logging_firmware::restart_after_power_loss() {
    m_kit.restart();
    m_read_fence.clear();
    m_rebuilt_ahead.clear();  // volatile: a rebuild's units done above its cursor are done again
    // The threads that ran before the loss are gone, and their claims with them.
    m_active = 0;
    m_recovering = true;
    m_reintegrating = 0;
    m_log_writes = 0;
    m_blocked = 0;
    const int affinity = 0;
    size_t recovered = 0;
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        const bool torn_reintegration = r.reintegrating;
        r.reintegrating = false;
        r.log_writer_running = false;
        r.flush = false;
        if (r.log_writes_in_flight > 0) {  // 1.
            const logged_write w = r.writes.back();
            r.writes.pop_back();
            const int64_t n = int64_t(w.records.size());
            r.fill[size_t(w.sublog)] -= n;
            r.buffered.insert(r.buffered.begin(), w.records.begin(), w.records.end());
            m_pool.finish_log_write(region, n);
            r.log_writes_in_flight = 0;
        }
        if (torn_reintegration || r.stale_parity) {  // 2.
            if (remake_checks_dropping_log(region, affinity)) ++recovered;
        } else if (r.committed > 0 && logging(region)) {  // 3.
            if (reintegrate(region, affinity)) ++recovered;
        }
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    // 4.
    const auto records = write_intent_log::read(m_platform);
    // Per stripe, the unit offsets of the rows the torn writes touched.
    std::map<int64_t, std::set<int64_t>> stripes;
    const int64_t u = m_layout.unit_sectors();
    for (const auto &[address, rec] : records)
        for (int64_t lbn = int64_t(rec.lbn); lbn < int64_t(rec.lbn + rec.sectors); ++lbn)
            stripes[m_layout.stripe_of(lbn)].insert(lbn % m_layout.stripe_data_sectors() % u);
    for (const auto &[s, offsets] : stripes) recovered += resync_stripe(s, offsets, affinity) ? 1 : 0;
    for (const auto &[address, rec] : records) m_platform.nvram_release(address);
    m_stats.resynced_stripes += stripes.size();
    m_recovering = false;
    m_recovered.notify(sc_core::SC_ZERO_TIME);
    // The rebuilds go on from their NVRAM checkpoints; the units done above a cursor were in
    // volatile memory, so they count as not rebuilt and are done again.
    m_rebuild.restart_all();
    return recovered;
}

// The stripe's u parity sectors from its M - 1 data units (each unit contiguous on its disk, the
// parity run contiguous on the parity member). A stripe with a lost member (or a rebuilding one
// whose rebuild has not reached it) is left alone: with the parity lost there is nothing to make
// consistent; with a data unit lost its torn rows cannot be told, so they are recorded lost
// (RAID 5's write hole; before, they were rebuilt from the torn parity and served). With members
// missing or sectors recorded lost on them: parity_logging_beyond_checks.cpp.
bool parity_logging_firmware::resync_stripe(int64_t stripe, const std::set<int64_t> &offsets, int affinity) {
    if (!unavailable_disks().empty() || !m_lost_on_disk.empty()) return resync_torn_stripe(stripe, affinity);
    if (m_layout.checks() > 1) return resync_stripe_checks(stripe, offsets, affinity);
    const int64_t u = m_layout.unit_sectors();
    const int64_t first = stripe * m_layout.stripe_data_sectors();
    const int units = m_layout.members() - 1;
    const parity_location pl = m_layout.parity_of(first);
    if (missing(pl.disk, pl.region, pl.drive_lbn)) return false;
    std::vector<region_extent> data;
    bool torn_rows_lost = false;
    for (int j = 0; j < units; ++j) {
        data.push_back(m_layout.data_location(first + int64_t(j) * u));
        if (!missing(data.back().disk, pl.region, data.back().drive_lbn)) continue;
        for (int64_t o : offsets) note_lost(first + int64_t(j) * u + o, 1);
        torn_rows_lost = true;
    }
    if (torn_rows_lost) return false;
    m_kit.locks.lock(stripe);
    const uint64_t n = uint64_t(u);
    // With tokens always: after a restart the firmware cannot know whether the host sent any.
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(units + 1) * n * protocol::sector_bytes, uint64_t(units + 1) * n);
    bool ok = m_kit.parallel(size_t(units), [&](size_t j) {
        return member_io(false, data[j].disk, uint64_t(data[j].drive_lbn), uint32_t(n), work, (1 + j) * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (int j = 0; j < units; ++j) inputs.push_back({work, (1 + uint64_t(j)) * n});
        m_kit.xor_blocks(inputs, {work, 0}, n, affinity);
        ok = member_io(true, pl.disk, uint64_t(pl.drive_lbn), uint32_t(n), work, 0);
    }
    m_platform.free_buffer(work);
    if (!ok && unavailable_disks().empty()) {
        // A data read met MEDIUM ERROR: the torn rows' unreadable sectors lost, the others
        // repaired from the parity (parity_logging_unreadable_rows.cpp).
        std::vector<region_extent> units_of_stripe;
        for (const region_extent &e : data) units_of_stripe.push_back({e.disk, e.drive_lbn, u});
        ok = make_parity_around_unreadable(
            units_of_stripe, {pl.disk, pl.drive_lbn, u}, [&](int j, int64_t o) { return first + int64_t(j) * u + o; },
            [&](int64_t o) { return offsets.count(o) > 0; }, affinity);
    }
    m_kit.locks.unlock(stripe);
    return ok;
}

bool parity_logging_firmware::reintegrate_all(int affinity) {
    bool ok = true;
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        if (r.committed == 0) continue;
        wait_region_idle(region);
        ok = reintegrate(region, affinity) && ok;
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    return ok;
}

bool parity_logging_firmware::lose_controller_state(int affinity) {
    while (m_recovering) sc_core::wait(m_recovered);
    m_platform.check_power();  // a thread from before a power loss that woke after it stops here
    m_recovering = true;
    while (m_active > 0) sc_core::wait(m_drained);
    m_platform.check_power();
    bool ok = true;
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        if (r.committed == 0) continue;
        wait_region_idle(region);
        r.buffered.clear();
        m_pool.take_unwritten(region);
        r.writes.clear();
        std::fill(r.fill.begin(), r.fill.end(), 0);
        r.committed = 0;
        ok = rebuild_parity(region, affinity) && ok;
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    m_recovering = false;
    m_recovered.notify(sc_core::SC_ZERO_TIME);
    return ok;
}

// The region's log forgotten (its parity is made again from the data instead): its records,
// buffered or written, its sublogs' fill and its buffers back in the pool. Whether its checks
// are still stale is the caller's to say.
void parity_logging_firmware::drop_log(int region) {
    region_state &r = m_regions[size_t(region)];
    r.images_being_applied.clear();
    r.buffered.clear();
    m_pool.take_unwritten(region);
    r.writes.clear();
    std::fill(r.fill.begin(), r.fill.end(), 0);
    r.committed = 0;
}

// Before, the callers dropped the log and cleared the flag first: a power loss while the checks
// were being made forgot which rows they had left stale, and the recovery made nothing (the
// explorer's 171:578: a disk lost, the controller lost while the loss's handling remade the
// checks of a region whose sublog the disk held; a second disk lost later was served from those
// checks: 280 wrong reads).
bool parity_logging_firmware::remake_checks_dropping_log(int region, int affinity) {
    region_state &r = m_regions[size_t(region)];
    const std::vector<int64_t> stale = logged_images(region);  // the log directory, in NVRAM
    r.stale_images = stale;
    r.stale_parity = true;
    drop_log(region);
    r.next_sublog = 0;
    const bool made = rebuild_parity(region, affinity, &stale);
    if (made) {
        r.stale_parity = false;
        r.stale_images.clear();
    } else {
        r.stale_images = stale;  // the rows stay stale (stale_row)
    }
    return made;
}

}  // namespace raidtlm::controller
