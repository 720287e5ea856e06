// Parity logging: rebuilding a lost member onto a fresh drive in its slot (firmware::start_rebuild),
// at every number of checks (1: RAID 5 rows, 2: P+Q, 3: P+Q+R), on the shared rebuild_runner as
// the RAID families do (raid_rebuild.cpp): paced against foreground I/O by controller.rebuild_share
// and rebuild_rate_mb_s, rebuild_units_in_flight steps at once, the cursor checkpointed in NVRAM
// after every step and resumed from there after a power loss (restart_after_power_loss).
//
// Units. Member d of region b keeps M slots of P tracks (slot s holds big row q: s = q with one
// check, s = (q + m + 1) mod M with more, parity_logging_layout.h); unit b*M + s is that slot, so
// the rebuild walks the new drive in drive-LBN order, one sequential P-track access per surviving
// member and one write per step. A step holds the stripe locks of the big row's P*T/u logical
// stripes (taken in ascending order; a write holds one stripe lock at a time, so no deadlock), the
// locks every write of those rows takes (stripe_write, degraded_write, degraded_write_checks,
// write_lost_row), so no write comes between a step's reads and its write.
//   a data column of the row: solved from the surviving data and the live checks (from P alone,
//     the XOR engine; with other members lost too, the GF mode: rebuild_row_member in
//     parity_logging_lost_rows.cpp, the lost-row algebra of the degraded reads);
//   a check (P, Q or R) of the row: recomputed from the row's data (lost columns solved first).
// The checks are current when a step reads them: a member was lost, so every region stopped
// logging (C > 1) or its log was applied when the loss was handled (C = 1: a region with the lost
// disk among its members has no log since; handle_failure) and its writes update the checks
// directly. A region whose sublog the lost disk held (C = 1, L > 1) kept logging on its other
// sublogs; the disk is a log disk there, so the rebuild has nothing of its rows to make.
//
// Log disks. A log disk's part of the new drive (its sublogs: units whose region it does not
// belong to as a member) is not rebuilt: rebuild_unit_bytes says 0. The firmware never reads a
// sublog beyond what it wrote since the log was last truncated (r.fill), and nothing on the lost
// disk's sublogs counts any more: at the loss every region's log was applied and truncated (with
// C > 1 from another copy; with C = 1 a region that lost its sublog got its parity rebuilt from
// its data and its log dropped), and the disk's sublogs take no log writes until it is back (no
// region logs at C > 1; at C = 1 the log writer counts a lost disk's sublog full). So the fresh
// drive's sublogs are empty logs, which is all the firmware needs of them.
//
// Rows not reached, rows passed. absent() says whether a member's rows are there: a handled lost
// disk's are not, unless it is rebuilding and its rebuild passed them (the runner's cursor, or a
// unit done above it with several in flight). Reads of absent rows are rebuilt from the row,
// writes leave them out (the step that reaches them later computes them from the current row);
// rows passed are read and written like any member's, checks included. Decided under the stripe
// lock, so a write sees a step done or not begun; a read that found its piece absent without the
// lock decides again under it (degraded_read: the step that held the lock may have written it).
//
// Back to logging. The rebuild ends with member_rebuilt; the next request (catch_up) lets the
// writes in flight finish, then takes the member back: with no member lost, every region logs
// again. What that needs: every check image equal to what the region's data give, and every log
// empty, or holding exactly the records not yet in the checks. Both hold: the logs were applied at
// the loss and stayed empty (the C = 1 regions that kept logging on their other sublogs kept their
// log and checks consistent as without a loss), the direct updates kept every row's live checks
// current, and the rebuild made the new member's checks and data from the current rows (writes
// keep the rows it passed current). Nothing is reintegrated or recomputed at the switch.
//
// Beyond the checks: a second lost disk at C = 1 while a member rebuilds leaves the rows not
// reached two members short, a MEDIUM ERROR on a source leaves a unit unmade: the step records
// what the new drive holds there lost (parity_logging_beyond_checks.cpp), so it is never served;
// a step whose source was lost during it runs again once the loss is handled. A host write torn
// by a power loss in a row not reached: the resync records the row's missing column lost.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include <set>

namespace raidtlm::controller {

std::vector<int> parity_logging_firmware::unavailable_disks() const {
    std::vector<int> out;
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) != member_state::optimal) out.push_back(d);
    return out;
}

bool parity_logging_firmware::absent(int disk, int region, int64_t drive_lbn) const {
    if (!is_lost(disk)) return false;
    const member_state s = m_platform.member_state_of(disk);
    if (s == member_state::failed) return true;
    const uint64_t unit = uint64_t(region) * uint64_t(m_layout.members()) +
                          uint64_t((drive_lbn - m_layout.region_start(region, disk)) / m_layout.parity_unit_sectors());
    if (m_rebuild.present(disk, unit)) return false;
    const auto it = m_rebuilt_ahead.find(disk);
    return s != member_state::rebuilding || it == m_rebuilt_ahead.end() || it->second.count(unit) == 0;
}

bool parity_logging_firmware::start_rebuild(int disk) {
    // Each row can then miss at most as many members as it has checks (the new drive counted).
    if (int(unavailable_disks().size()) > m_layout.checks()) return false;
    m_rebuilt_ahead.erase(disk);
    m_rebuild.start(disk, uint64_t(m_layout.regions()) * uint64_t(m_layout.members()));
    return true;
}

uint64_t parity_logging_firmware::rebuild_unit_bytes(int disk, uint64_t unit) const {
    const int region = int(unit / uint64_t(m_layout.members()));
    if (m_layout.member_of(region, disk) < 0) return 0;  // a log disk of the region: nothing to make
    return uint64_t(m_layout.parity_unit_sectors()) * protocol::sector_bytes;
}

bool parity_logging_firmware::rebuild_unit(int disk, uint64_t unit) {
    const int M = m_layout.members(), C = m_layout.checks(), D = m_layout.data_columns();
    const int region = int(unit / uint64_t(M)), slot = int(unit % uint64_t(M));
    const int m = m_layout.member_of(region, disk);
    const int q = C == 1 ? slot : ((slot - m - 1) % M + M) % M;  // the big row in the slot
    const int64_t pt = m_layout.parity_unit_sectors();
    const int64_t lbn = int64_t(region) * m_layout.region_data_sectors() + int64_t(q) * D * pt;  // its first row
    // The member's place in the row: check k on member (pm + k) mod M, data column j on (pm + C + j) mod M.
    const int after_p = (m - m_layout.check_member(q, 0) + M) % M;
    const int member = after_p < C ? D + after_p : after_p - C;
    const int64_t first = m_layout.stripe_of(lbn), stripes = pt / m_layout.unit_sectors();
    // Sources whose read of the unit met MEDIUM ERROR: left out like missing members, so the row
    // is solved from the others while the checks allow (31:5, 111:3: one unreadable check of a
    // P+Q+R row lost the whole unit on the new drive, within the promise).
    std::set<int> unreadable;
    for (;;) {
        // A loss not yet handled (the drive replaced before a request came) is handled first: its
        // logs applied, so the checks the steps read are current.
        if (!catch_up(0)) return false;
        const uint64_t losses = m_platform.member_losses();
        for (int64_t s = first; s < first + stripes; ++s) m_kit.locks.lock(s);
        // With tokens always: the rebuild cannot know whether the host ever sent any.
        const uint64_t n = uint64_t(pt), slots = uint64_t(D + C);
        protocol::buffer_block *work = m_platform.allocate_buffer(slots * n * protocol::sector_bytes, slots * n);
        // Members missing here, or recorded lost (parity_logging_beyond_checks.cpp), are not sources.
        bool ok = rebuild_row_member(lbn, n, member, [&](const region_extent &e) {
            return e.disk == disk || unreadable.count(e.disk) > 0 || gone(region, {e.disk, e.drive_lbn, pt});
        }, work);
        if (ok)
            ok = member_io(true, disk, uint64_t(m_layout.region_start(region, disk) + int64_t(slot) * pt), uint32_t(n),
                           work, uint64_t(member) * n);
        m_platform.free_buffer(work);
        const bool rebuilding = m_platform.member_state_of(disk) == member_state::rebuilding;
        if (ok && rebuilding) m_rebuilt_ahead[disk].insert(unit);
        for (int64_t s = first; s < first + stripes; ++s) m_kit.locks.unlock(s);
        if (ok || !rebuilding) return ok;  // the new drive lost too: a later rebuild does it again
        // Another member lost during the step (its reads fail): once handled, the row is solved
        // without it, as long as the checks allow.
        if (m_platform.member_losses() != losses) continue;
        // No member lost: a source could not be read. Each source read alone (as firmware can:
        // one command's status per member) says which; solved again without them.
        if (C > 1 && find_unreadable_sources(region, q, disk, unreadable)) continue;
        // Not made (more members missing than checks, or a source unreadable): the runner moves
        // past the unit, so what the new drive holds there, data or check, is recorded lost on it
        // (a later row decision counts it missing) and its data never served.
        const int64_t at = m_layout.region_start(region, disk) + int64_t(slot) * pt;
        const int64_t data_lbn = member < D ? lbn + int64_t(member) * m_layout.unit_sectors() : -1;
        record_lost({disk, at, pt}, data_lbn, int64_t(D) * m_layout.unit_sectors());
        return false;
    }
}

// The first loss handled (catch_up, the requests in flight done): every region's log applied, or
// its checks made from the data where the log is lost or left stale; from then on no region with
// the disk among its members logs (rebuild above).
bool parity_logging_firmware::handle_failure(int affinity) {
    m_recovering = true;
    const std::vector<int> unavailable = unavailable_disks();
    if (unavailable.empty()) {  // marked live again meanwhile: nothing to handle
        m_recovering = false;
        m_recovered.notify(sc_core::SC_ZERO_TIME);
        return true;
    }
    const int d = unavailable.front();  // failed, or already rebuilding (replaced before a request came)
    bool ok = true;
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        if (r.committed == 0 && !r.stale_parity) continue;  // parity current
        wait_region_idle(region);
        // More checks: a lost log disk's sublogs are read from another copy (reintegrate).
        // A region left stale (a log on the lost disk, a run unread) too: its records are not all
        // in the checks, which the data make again.
        if ((m_layout.checks() == 1 && m_layout.is_log_disk(region, d)) || m_config.discard_log_on_failure ||
            r.stale_parity) {
            // A lost sublog: the parity rebuilt from the data. (The test hook leaves it stale.)
            if (!m_config.discard_log_on_failure) {
                ok = remake_checks_dropping_log(region, affinity) && ok;
            } else {
                drop_log(region);
                r.stale_parity = false;
            }
        } else {
            ok = reintegrate(region, affinity) && ok;  // apply the log first
        }
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    m_known_failed = d;
    m_lost = {d};  // any other lost meanwhile: check_failure at the next request (handle_another_loss)
    m_recovering = false;
    m_recovered.notify(sc_core::SC_ZERO_TIME);
    return ok;
}

bool parity_logging_firmware::find_unreadable_sources(int region, int q, int disk, std::set<int> &unreadable) {
    bool found = false;
    for (const region_extent &e : big_row_members(region, q)) {
        if (e.disk == disk || unreadable.count(e.disk) > 0 || gone(region, e)) continue;
        protocol::buffer_block *probe = m_platform.allocate_buffer(uint64_t(e.sectors) * protocol::sector_bytes,
                                                                   uint64_t(e.sectors));
        m_platform.check_power();
        const bool read = member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), probe, 0);
        m_platform.free_buffer(probe);
        if (!read && m_platform.member_state_of(e.disk) == member_state::optimal) {
            unreadable.insert(e.disk);
            found = true;
        }
    }
    return found;
}

}  // namespace raidtlm::controller
