// Parity logging over P+Q or P+Q+R (controller.parity_logging.checks 2, 3) with a disk lost:
// every region stops logging (its log was applied when the loss was handled, reading a surviving
// log copy) and a write updates its checks directly, as RAID 6 does (raid6_firmware; check k' =
// check k + g^(k j) (old + new), pq_parity.h's check_coefficient): a read-modify-write of the data
// and whichever checks are alive, or, when the piece's own data disk is lost, a reconstruct-write
// of every check from the row's other data and the new data. Reads of the lost disk are rebuilt
// from the other data and P (degraded_read: P is current, since nothing is logged any more).
// Under the stripe lock. With more than one disk lost: write_lost_row (parity_logging_lost_rows.cpp).
// One check: degraded_write, RAID 5's read-modify-write or reconstruct-write. A member being
// rebuilt counts as lost in the rows its rebuild has not reached (absent()) and as any member in
// the others, decided under the stripe lock (a rebuild step holds its rows' locks).
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/layouts/pq_parity.h"

namespace raidtlm::controller {

bool parity_logging_firmware::degraded_write_checks(const piece &p, protocol::buffer_block *buffer, int affinity) {
    if (m_lost.size() > 1) return write_lost_row(p, buffer, affinity);
    const bool data = !buffer->tokens.empty();
    const region_extent dl = m_layout.data_location(p.lbn);
    const int C = m_layout.checks();
    std::vector<parity_location> cl;
    for (int k = 0; k < C; ++k) cl.push_back(m_layout.check_of(p.lbn, k));
    const int column = cl[0].column;
    const uint64_t n = uint64_t(p.sectors), c = uint64_t(C);
    const int64_t u = m_layout.unit_sectors();
    const int columns = m_layout.data_columns();
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    ++m_stats.degraded_writes;
    m_kit.locks.lock(stripe);
    if (const int beyond = beyond_checks_write(p, buffer); beyond >= 0) {
        m_stats.lost_requests += beyond == 0 ? 1 : 0;
        m_kit.locks.unlock(stripe);
        return beyond == 1;
    }
    const int region = m_layout.region_of(p.lbn);
    bool ok;
    protocol::buffer_block *work;
    if (absent(dl.disk, region, dl.drive_lbn)) {
        // Reconstruct-write: the row's other columns read (slot j), every check of all columns
        // (slots D + k) written; the lost disk gets nothing.
        work = m_platform.allocate_buffer(uint64_t(columns + C) * n * protocol::sector_bytes,
                                          data ? uint64_t(columns + C) * n : 0);
        m_platform.check_power();
        std::vector<region_extent> at;
        for (int j = 0; j < columns; ++j)
            at.push_back(m_layout.data_location(p.lbn + int64_t(j - column) * u));  // same row and offset
        ok = m_kit.parallel(size_t(columns), [&](size_t j) {
            if (int(j) == column) return true;
            return member_io(false, at[j].disk, uint64_t(at[j].drive_lbn), uint32_t(n), work, j * n);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            std::vector<int> all;
            for (int j = 0; j < columns; ++j) {
                inputs.push_back(j == column ? protocol::buffer_ref{buffer, p.offset}
                                             : protocol::buffer_ref{work, uint64_t(j) * n});
                all.push_back(j);
            }
            make_checks(inputs, all, C, {work, uint64_t(columns) * n}, n, affinity);
            ok = m_kit.parallel(c, [&](size_t k) {
                return member_io(true, cl[k].disk, uint64_t(cl[k].drive_lbn), uint32_t(n), work,
                                     (uint64_t(columns) + k) * n);
            });
        }
    } else {
        // Read-modify-write. Slots: 0 old data, 1 + k old check k, 1 + C + k new check k; a lost
        // check is neither read nor written.
        work = m_platform.allocate_buffer((1 + 2 * c) * n * protocol::sector_bytes, data ? (1 + 2 * c) * n : 0);
        m_platform.check_power();
        // A check recorded lost (an unread check run) is skipped like an absent one.
        auto alive = [&](size_t k) {
            return !absent(cl[k].disk, region, cl[k].drive_lbn) &&
                   !recorded_lost({cl[k].disk, cl[k].drive_lbn, int64_t(n)});
        };
        std::vector<char> unread(1 + c, 0);
        ok = m_kit.parallel(1 + c, [&](size_t i) {
            bool read = true;
            if (i == 0) read = member_io(false, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), work, 0);
            else if (alive(i - 1))
                read = member_io(false, cl[i - 1].disk, uint64_t(cl[i - 1].drive_lbn), uint32_t(n), work, i * n);
            unread[i] = !read;
            return read;
        });
        if (!ok && !unread[0] && record_unreadable_checks(region, cl, n, unread)) {
            // The write goes on without them (beyond_checks_write judges the row again).
            m_platform.free_buffer(work);
            m_kit.locks.unlock(stripe);
            return degraded_write_checks(p, buffer, affinity);
        }
        if (ok) {
            for (size_t k = 0; k < c; ++k) {
                if (!alive(k)) continue;
                const std::vector<protocol::buffer_ref> inputs{{work, 0}, {work, (1 + k) * n}, {buffer, p.offset}};
                const protocol::buffer_ref out{work, (1 + c + k) * n};
                if (k == 0) {
                    m_kit.xor_blocks(inputs, out, n, affinity);
                } else {
                    const uint8_t g = pq::check_coefficient(int(k), column);
                    m_kit.gf_blocks(inputs, {g, 1, g}, out, n, affinity);
                }
            }
            ok = m_kit.parallel(1 + c, [&](size_t i) {
                if (i == 0) return member_io(true, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), buffer, p.offset);
                if (!alive(i - 1)) return true;
                return member_io(true, cl[i - 1].disk, uint64_t(cl[i - 1].drive_lbn), uint32_t(n), work,
                                     (c + i) * n);
            });
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

// Old checks of a read-modify-write that answered MEDIUM ERROR, their disks there: recorded lost
// like an unread check run (note_unread_checks), so that every row decision counts them gone and
// the write goes on with the checks left; made again from the data before the next request
// (repair_stale_checks). Before, the write failed although the row was within its checks (the
// explorer's 141:1302, P+Q+R with a disk rebuilding: 117 writes failed). False: none such.
bool parity_logging_firmware::record_unreadable_checks(int region, const std::vector<parity_location> &checks,
                                                       uint64_t sectors, const std::vector<char> &unread) {
    bool any = false;
    for (size_t k = 0; k < checks.size(); ++k) {
        const parity_location &c = checks[k];
        if (!unread[1 + k] || missing(c.disk, region, c.drive_lbn)) continue;
        record_lost({c.disk, c.drive_lbn, int64_t(sectors)}, -1, 0);
        any = true;
    }
    if (!any) return false;
    m_regions[size_t(region)].stale_parity = true;
    m_checks_repair_due = true;
    return true;
}

// A unit piece written with a disk lost: the parity updated directly (RAID 5).
bool parity_logging_firmware::degraded_write(const piece &p, protocol::buffer_block *buffer, int affinity) {
    if (m_layout.checks() > 1) return degraded_write_checks(p, buffer, affinity);
    const bool data = !buffer->tokens.empty();
    const region_extent dl = m_layout.data_location(p.lbn);
    const parity_location pl = m_layout.parity_of(p.lbn);
    const uint64_t n = uint64_t(p.sectors);
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    ++m_stats.degraded_writes;
    m_kit.locks.lock(stripe);  // before absent(): a rebuild step of the row is done or not begun
    if (const int beyond = beyond_checks_write(p, buffer); beyond >= 0) {
        m_stats.lost_requests += beyond == 0 ? 1 : 0;
        m_kit.locks.unlock(stripe);
        return beyond == 1;
    }
    const int region = m_layout.region_of(p.lbn);
    bool ok;
    if (absent(pl.disk, region, pl.drive_lbn)) {
        ok = member_io(true, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), buffer, p.offset);
    } else if (absent(dl.disk, region, dl.drive_lbn)) {
        // Reconstruct-write: the row's other data and the new data make the parity.
        const std::vector<region_extent> partners = m_layout.row_partners(p.lbn);
        const uint64_t k = partners.size();
        protocol::buffer_block *work = m_platform.allocate_buffer((k + 1) * n * protocol::sector_bytes, data ? (k + 1) * n : 0);
        m_platform.check_power();
        ok = m_kit.parallel(k, [&](size_t i) {
            return member_io(false, partners[i].disk, uint64_t(partners[i].drive_lbn), uint32_t(n), work, i * n);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs{{buffer, p.offset}};
            for (uint64_t i = 0; i < k; ++i) inputs.push_back({work, i * n});
            m_kit.xor_blocks(inputs, {work, k * n}, n, affinity);
            ok = member_io(true, pl.disk, uint64_t(pl.drive_lbn), uint32_t(n), work, k * n);
        }
        m_platform.free_buffer(work);
    } else {
        // Read-modify-write: slots 0 old data, 1 old parity, 2 new parity.
        protocol::buffer_block *work = m_platform.allocate_buffer(3 * n * protocol::sector_bytes, data ? 3 * n : 0);
        m_platform.check_power();
        ok = m_kit.parallel(2, [&](size_t i) {
            return i == 0 ? member_io(false, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), work, 0)
                          : member_io(false, pl.disk, uint64_t(pl.drive_lbn), uint32_t(n), work, n);
        });
        if (ok) {
            m_kit.xor_blocks({{work, 0}, {work, n}, {buffer, p.offset}}, {work, 2 * n}, n, affinity);
            ok = m_kit.parallel(2, [&](size_t i) {
                return i == 0 ? member_io(true, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), buffer, p.offset)
                              : member_io(true, pl.disk, uint64_t(pl.drive_lbn), uint32_t(n), work, 2 * n);
            });
        }
        m_platform.free_buffer(work);
    }
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
