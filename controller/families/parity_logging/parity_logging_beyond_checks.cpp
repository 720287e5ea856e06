// Parity logging beyond its checks: more members of a row missing than it has checks (a second
// lost disk at C = 1 or a fourth at C = 3, a disk lost while another is still being rebuilt onto
// rows the rebuild has not reached, a stripe torn by a power loss while one of its members is
// missing, a log lost with a member). A real controller neither stops nor guesses there: it keeps
// serving the rows it can, records the member sectors whose contents it can no longer know, and
// fails the host requests that need them, as Linux md's bad-block list and RAID 5's lost stripes
// (raid_firmware) do.
//
// What is recorded: per member, the drive sectors whose contents are lost (m_lost_on_disk): the
// absent members' sectors of a row found with more missing members than checks (their data
// cannot be solved), a torn stripe's absent members, a rebuild unit that could not be made, the
// check sectors of a row whose log was lost with one of its data members (the checks miss
// records and cannot be recomputed). Recorded sectors count as missing in every later row
// decision (gone()), so a row beyond its checks stays so: its lost columns are never solved from
// checks that no longer describe them, and a rebuild onto the member leaves them recorded (what
// it writes there is not the host's data). The data sectors among them are reported as
// firmware.lost_sectors / lost_ranges (logical sectors).
//
// Serving such rows: a read of a recorded or unsolvable piece fails; a write of one fails; a
// write of a present piece of a row beyond its checks writes the data alone (the row's checks
// describe nothing any more) and succeeds. Recorded sectors stay recorded (not handled: a write
// making a whole row whole again).
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/kit/firmware_kit.h"

#include <set>

namespace raidtlm::controller {

bool parity_logging_firmware::recorded_lost(const region_extent &e) const {
    const auto it = m_lost_on_disk.find(e.disk);
    return it != m_lost_on_disk.end() && it->second.overlaps(e.drive_lbn, e.drive_lbn + e.sectors);
}

// A member whose loss is not handled yet (failed or replaced while the firmware had not applied
// the logs: a power loss during the handling, or a further loss) counts as missing too: its slot
// may hold a fresh drive whose zeros are no data of the array. Before, absent() alone said
// present there, and a power-loss recovery that made a torn region's checks again from its data
// read the new drive's zeros as the member's data (the explorer's 15:27, 15:28, 16:36).
bool parity_logging_firmware::gone(int region, const region_extent &e) const {
    return missing(e.disk, region, e.drive_lbn) || recorded_lost(e);
}

std::vector<region_extent> parity_logging_firmware::row_members(int64_t lbn, int64_t sectors) const {
    std::vector<region_extent> out;
    const int column = m_layout.parity_of(lbn).column;
    const int64_t u = m_layout.unit_sectors();
    for (int j = 0; j < m_layout.data_columns(); ++j) {
        region_extent e = m_layout.data_location(lbn + int64_t(j - column) * u);
        e.sectors = sectors;
        out.push_back(e);
    }
    for (int k = 0; k < m_layout.checks(); ++k) {
        const parity_location c = m_layout.check_of(lbn, k);
        out.push_back({c.disk, c.drive_lbn, sectors});
    }
    return out;
}

int parity_logging_firmware::gone_in_row(int64_t lbn, int64_t sectors) const {
    const int region = m_layout.region_of(lbn);
    int n = 0;
    for (const region_extent &e : row_members(lbn, sectors)) n += gone(region, e) ? 1 : 0;
    return n;
}

void parity_logging_firmware::record_lost(const region_extent &e, int64_t first_lbn, int64_t lbn_stride) {
    sector_ranges &on_disk = m_lost_on_disk[e.disk];
    if (on_disk.covers(e.drive_lbn, e.drive_lbn + e.sectors)) return;
    on_disk.insert(e.drive_lbn, e.drive_lbn + e.sectors);
    if (first_lbn < 0) return;  // check sectors: no host data
    // The member's data sectors as logical sectors: one unit per logical stripe of the run.
    const int64_t u = m_layout.unit_sectors();
    for (int64_t s = 0; s * u < e.sectors; ++s)
        m_lost_logical.push_back({first_lbn + s * lbn_stride, int32_t(std::min(u, e.sectors - s * u))});
}

void parity_logging_firmware::record_row_lost(int64_t lbn, int64_t sectors, bool checks_too) {
    const int region = m_layout.region_of(lbn);
    const std::vector<region_extent> members = row_members(lbn, sectors);
    const int D = m_layout.data_columns(), column = m_layout.parity_of(lbn).column;
    for (size_t m = 0; m < members.size(); ++m) {
        const bool data = int(m) < D;
        if (!missing(members[m].disk, region, members[m].drive_lbn) && !(checks_too && !data)) continue;
        record_lost(members[m], data ? lbn + int64_t(int(m) - column) * m_layout.unit_sectors() : -1, 0);
    }
}

// Big row q of a region (P tracks of every member): data columns first, then the checks; each
// member's extent one run of P tracks (its slot).
std::vector<region_extent> parity_logging_firmware::big_row_members(int region, int q) const {
    const int M = m_layout.members(), C = m_layout.checks();
    const int64_t pt = m_layout.parity_unit_sectors();
    auto at = [&](int m) {
        const int d = m_layout.member_disk(region, m);
        return region_extent{d, m_layout.region_start(region, d) + m_layout.slot(q, m) * pt, pt};
    };
    std::vector<region_extent> out;
    const int pm = m_layout.check_member(q, 0);
    for (int j = 0; j < m_layout.data_columns(); ++j) out.push_back(at((pm + C + j) % M));
    for (int k = 0; k < C; ++k) out.push_back(at(m_layout.check_member(q, k)));
    return out;
}

void parity_logging_firmware::record_big_row_lost(int region, int q, bool checks_too) {
    const std::vector<region_extent> members = big_row_members(region, q);
    const int D = m_layout.data_columns();
    const int64_t u = m_layout.unit_sectors(), first = int64_t(region) * m_layout.region_data_sectors() +
                                                       int64_t(q) * D * m_layout.parity_unit_sectors();
    for (size_t m = 0; m < members.size(); ++m) {
        const bool data = int(m) < D;
        if (!missing(members[m].disk, region, members[m].drive_lbn) && !(checks_too && !data)) continue;
        record_lost(members[m], data ? first + int64_t(m) * u : -1, int64_t(D) * u);
    }
}

void parity_logging_firmware::record_rows_beyond_checks() {
    const int C = m_layout.checks();
    for (int region = 0; region < m_layout.regions(); ++region)
        for (int q = 0; q < m_layout.members(); ++q) {
            int missing = 0;
            for (const region_extent &e : big_row_members(region, q)) missing += gone(region, e) ? 1 : 0;
            if (missing > C) record_big_row_lost(region, q, false);
        }
}

// A row's data members (`members`: D data extents of one size, then its C checks) read, and the
// checks marked `live` made from them and written; false: a read or write failed.
bool parity_logging_firmware::remake_live_checks(const std::vector<region_extent> &members, const std::vector<bool> &live,
                                                 int affinity) {
    const int D = m_layout.data_columns(), C = m_layout.checks();
    const uint64_t n = uint64_t(members.front().sectors), slots = uint64_t(D + C);
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * n * protocol::sector_bytes, slots * n);
    m_platform.check_power();
    bool ok = m_kit.parallel(size_t(D), [&](size_t j) {
        return member_io(false, members[j].disk, uint64_t(members[j].drive_lbn), uint32_t(n), work, j * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<int> columns;
        for (int j = 0; j < D; ++j) {
            inputs.push_back({work, uint64_t(j) * n});
            columns.push_back(j);
        }
        make_checks(inputs, columns, C, {work, uint64_t(D) * n}, n, affinity, [&](int k) { return bool(live[size_t(k)]); });
        ok = m_kit.parallel(size_t(C), [&](size_t k) {
            if (!live[k]) return true;
            const region_extent &e = members[size_t(D) + k];
            return m_kit.disk_io(true, e.disk, uint64_t(e.drive_lbn), uint32_t(n), work, (uint64_t(D) + k) * n);
        });
    }
    m_platform.free_buffer(work);
    return ok;
}

// The region's checks describe its data no longer (its log lost with a member, or partly
// applied): each big row's live checks made again from its data where every data column is
// there; where one is missing, the data and checks of the rows the dropped log named
// (`stale_images`, the log directory's check image sectors) are lost, or of every row of the big
// row when they are unknown (nullptr: a lost controller state). The rows the log did not name
// have checks that describe them still (a torn rewrite of a check run leaves each of their
// sectors old or new, and the two are equal), so only the named ones are lost: per sector, not
// whole big rows (issue 27's loss accounting).
bool parity_logging_firmware::rebuild_checks_around_losses(int region, int affinity,
                                                           const std::vector<int64_t> *stale_images) {
    const int D = m_layout.data_columns();
    bool ok = true;
    for (int q = 0; q < m_layout.members(); ++q) {
        const std::vector<region_extent> members = big_row_members(region, q);
        bool data_missing = false;
        for (int j = 0; j < D; ++j) data_missing = data_missing || gone(region, members[size_t(j)]);
        if (data_missing) {
            if (!stale_images) {
                record_big_row_lost(region, q, true);
                continue;
            }
            for (int64_t image : *stale_images) {
                const parity_logging_layout::image_row row = m_layout.row_of_image(image);
                if (row.q == q) record_row_lost(m_layout.lbn_at(region, q, row.offset, 0), 1, true);
            }
            continue;
        }
        const int C = m_layout.checks();
        // Every data column there: the checks on drives present are made from the data, those
        // recorded lost too (an unread check run, note_unread_checks; a check lost with a data
        // member since rewritten): the data are the acknowledged writes, so the record comes off.
        std::vector<bool> live(static_cast<size_t>(C));
        for (int k = 0; k < C; ++k) {
            const region_extent &e = members[size_t(D + k)];
            live[size_t(k)] = !missing(e.disk, region, e.drive_lbn);
        }
        if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) continue;
        // The data read, the live checks made and written (tokens always: the firmware cannot
        // know whether the host sent any).
        const uint64_t losses = m_platform.member_losses();
        const bool row_ok = remake_live_checks(members, live, affinity);
        if (row_ok) {
            for (int k = 0; k < C; ++k) {
                const region_extent &e = members[size_t(D + k)];
                const auto it = m_lost_on_disk.find(e.disk);
                if (!live[size_t(k)] || it == m_lost_on_disk.end()) continue;
                it->second.erase(e.drive_lbn, e.drive_lbn + e.sectors);
                if (it->second.sectors() == 0) m_lost_on_disk.erase(it);
            }
        }
        // A member lost meanwhile: not made, lost. A read that met MEDIUM ERROR with every member
        // there: with one check, each row judged (its unreadable sectors repaired or recorded lost);
        // with more, the row's checks stay as they were (stale, or recorded lost), tried again later.
        bool lost_meanwhile = false;
        for (int j = 0; j < D; ++j) lost_meanwhile = lost_meanwhile || gone(region, members[size_t(j)]);
        bool made = row_ok;
        if (!row_ok && lost_meanwhile) {
            record_big_row_lost(region, q, true);
        } else if (!row_ok && C == 1 && m_platform.member_losses() == losses) {
            // One check: judged row by row as rebuild_parity does (parity_logging_unreadable_rows.cpp),
            // so a row left stale is never taken as current.
            std::set<int64_t> stale_rows;
            if (stale_images)
                for (int64_t image : *stale_images) {
                    const parity_logging_layout::image_row row = m_layout.row_of_image(image);
                    if (row.q == q) stale_rows.insert(row.offset);
                }
            const std::vector<region_extent> data(members.begin(), members.begin() + D);
            made = make_parity_around_unreadable(
                data, members[size_t(D)], [&](int j, int64_t offset) { return m_layout.lbn_at(region, q, offset, j); },
                [&](int64_t offset) { return !stale_images || stale_rows.count(offset) > 0; }, affinity);
        }
        ok = made && ok;
    }
    ++m_stats.parity_rebuilds;
    return ok;
}

bool parity_logging_firmware::beyond_checks_read(const piece &p, bool own_absent) {
    const region_extent own = m_layout.data_location(p.lbn);
    if (recorded_lost({own.disk, own.drive_lbn, p.sectors})) return true;
    if (!own_absent) return false;
    if (gone_in_row(p.lbn, p.sectors) <= m_layout.checks()) return false;
    record_row_lost(p.lbn, p.sectors);
    return true;
}

int parity_logging_firmware::beyond_checks_write(const piece &p, protocol::buffer_block *buffer) {
    const region_extent own = m_layout.data_location(p.lbn);
    const int region = m_layout.region_of(p.lbn);
    if (recorded_lost({own.disk, own.drive_lbn, p.sectors})) return 0;
    if (gone_in_row(p.lbn, p.sectors) <= m_layout.checks()) return -1;
    record_row_lost(p.lbn, p.sectors);
    if (missing(own.disk, region, own.drive_lbn)) return 0;
    // The row's checks describe nothing any more: the data alone.
    return m_kit.disk_io(true, own.disk, uint64_t(own.drive_lbn), uint32_t(p.sectors), buffer, p.offset) ? 1 : 0;
}

// A logical stripe a write was in flight in when the power failed, with members missing: its
// rows may be torn (data and checks written in part), so a missing data column cannot be solved
// from them: recorded lost with the live checks; with only checks missing, the live checks are
// made again from the data (as the resync does with none missing).
bool parity_logging_firmware::resync_torn_stripe(int64_t stripe, int affinity) {
    const int64_t u = m_layout.unit_sectors(), first = stripe * m_layout.stripe_data_sectors();
    const int region = m_layout.region_of(first), D = m_layout.data_columns(), C = m_layout.checks();
    m_kit.locks.lock(stripe);
    const std::vector<region_extent> members = row_members(first, u);
    bool data_missing = false;
    for (int j = 0; j < D; ++j) data_missing = data_missing || gone(region, members[size_t(j)]);
    bool ok = false;
    if (data_missing) {
        record_row_lost(first, u, true);
    } else {
        std::vector<bool> live(static_cast<size_t>(C));
        for (int k = 0; k < C; ++k) live[size_t(k)] = !gone(region, members[size_t(D + k)]);
        ok = remake_live_checks(members, live, affinity);
        if (!ok) record_row_lost(first, u, true);  // a member lost meanwhile: the row not made
    }
    m_kit.locks.unlock(stripe);
    return ok;
}

// Another lost disk while one or more are handled (at C = 1 a second one is beyond the checks
// wherever both are missing from a row). The requests in flight finish first. A region that
// logged until now (C = 1: its one lost disk was one of its log disks) and stops: its log applied
// (the lost members' check runs skipped); a region whose log is lost or stale (a sublog on a lost
// disk, a reintegration that failed): its checks made from the data, its rows missing data lost.
// Then every big row with more missing members than checks is recorded lost.
bool parity_logging_firmware::handle_another_loss(const std::vector<int> &failed, int affinity) {
    m_recovering = true;
    while (m_active > 0) sc_core::wait(m_drained);
    m_platform.check_power();
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        const bool stops = logs_with(region, m_lost) && !logs_with(region, failed);
        if (!r.stale_parity && !(stops && r.committed > 0)) continue;
        wait_region_idle(region);
        // The rows the log names, before a reintegration that fails truncates it.
        const std::vector<int64_t> stale = logged_images(region);
        if (!r.stale_parity && !reintegrate(region, affinity)) {
            r.stale_parity = true;
            r.stale_images.insert(r.stale_images.end(), stale.begin(), stale.end());
        }
        if (r.stale_parity) remake_checks_dropping_log(region, affinity);
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    m_lost = failed;
    record_rows_beyond_checks();
    m_recovering = false;
    m_recovered.notify(sc_core::SC_ZERO_TIME);
    return true;
}

void parity_logging_firmware::report_lost(nlohmann::json &out) const {
    // Two records of lost host sectors: rows beyond the checks (m_lost_logical) and rows whose
    // checks could not be trusted with a member missing (m_stats.lost_ranges,
    // parity_logging_lost_sectors.cpp); the report merges them.
    if (!m_lost_logical.empty() || !m_stats.lost_ranges.empty()) {
        std::vector<std::pair<int64_t, int32_t>> lost = m_lost_logical;
        lost.insert(lost.end(), m_stats.lost_ranges.begin(), m_stats.lost_ranges.end());
        report_lost_ranges(lost, out);
    }
    if (m_lost_logical.empty() && m_lost_on_disk.empty()) return;
    int64_t member_sectors = 0;
    for (const auto &[disk, ranges] : m_lost_on_disk) member_sectors += ranges.sectors();
    out["parity_logging"]["lost_member_sectors"] = member_sectors;
    out["parity_logging"]["lost_requests"] = m_stats.lost_requests;
}

}  // namespace raidtlm::controller
