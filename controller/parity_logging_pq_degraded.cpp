// Parity logging over P+Q or P+Q+R (controller.parity_logging.checks 2, 3) with a disk lost:
// every region stops logging (its log was applied when the loss was handled, reading a surviving
// log copy) and a write updates its checks directly, as RAID 6 does (raid6_firmware; check k' =
// check k + g^(k j) (old + new), pq_parity.h's check_coefficient): a read-modify-write of the data
// and whichever checks are alive, or, when the piece's own data disk is lost, a reconstruct-write
// of every check from the row's other data and the new data. Reads of the lost disk are rebuilt
// from the other data and P (degraded_read: P is current, since nothing is logged any more).
// Under the stripe lock. With more than one disk lost: write_lost_row (parity_logging_lost_rows.cpp).
#include "controller/parity_logging_firmware.h"

#include "controller/pq_parity.h"

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
    bool ok;
    protocol::buffer_block *work;
    if (dl.disk == m_known_failed) {
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
            return m_kit.disk_io(false, at[j].disk, uint64_t(at[j].drive_lbn), uint32_t(n), work, j * n);
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
                return m_kit.disk_io(true, cl[k].disk, uint64_t(cl[k].drive_lbn), uint32_t(n), work,
                                     (uint64_t(columns) + k) * n);
            });
        }
    } else {
        // Read-modify-write. Slots: 0 old data, 1 + k old check k, 1 + C + k new check k; a lost
        // check is neither read nor written.
        work = m_platform.allocate_buffer((1 + 2 * c) * n * protocol::sector_bytes, data ? (1 + 2 * c) * n : 0);
        m_platform.check_power();
        auto alive = [&](size_t k) { return cl[k].disk != m_known_failed; };
        ok = m_kit.parallel(1 + c, [&](size_t i) {
            if (i == 0) return m_kit.disk_io(false, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), work, 0);
            if (!alive(i - 1)) return true;
            return m_kit.disk_io(false, cl[i - 1].disk, uint64_t(cl[i - 1].drive_lbn), uint32_t(n), work, i * n);
        });
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
                if (i == 0) return m_kit.disk_io(true, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), buffer, p.offset);
                if (!alive(i - 1)) return true;
                return m_kit.disk_io(true, cl[i - 1].disk, uint64_t(cl[i - 1].drive_lbn), uint32_t(n), work,
                                     (c + i) * n);
            });
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
