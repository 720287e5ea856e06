// Parity logging over P+Q (controller.parity_logging.checks 2) with a disk lost: every region
// stops logging (its log was applied when the loss was handled, reading the surviving log copy)
// and a write updates P and Q directly, as RAID 6 does (raid6_firmware; Q' = Q + g^j (old + new),
// pq_parity.h): a read-modify-write of the data and whichever checks are alive, or, when the
// piece's own data disk is lost, a reconstruct-write of P and Q from the row's other data and the
// new data. Reads of the lost disk are rebuilt from the other data and P (degraded_read: P is
// current, since nothing is logged any more). Under the stripe lock.
#include "controller/parity_logging_firmware.h"

#include "controller/pq_parity.h"

namespace raidtlm::controller {

bool parity_logging_firmware::degraded_write_pq(const piece &p, protocol::buffer_block *buffer, int affinity) {
    const bool data = !buffer->tokens.empty();
    const region_extent dl = m_layout.data_location(p.lbn);
    const parity_location pl = m_layout.check_of(p.lbn, 0), ql = m_layout.check_of(p.lbn, 1);
    const uint64_t n = uint64_t(p.sectors);
    const int64_t u = m_layout.unit_sectors();
    const int columns = m_layout.data_columns();
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    ++m_stats.degraded_writes;
    m_kit.locks.lock(stripe);
    bool ok;
    protocol::buffer_block *work;
    if (dl.disk == m_known_failed) {
        // Reconstruct-write: the row's other columns read (slot j), P and Q of all columns
        // (slots D, D+1) written; the lost disk gets nothing.
        work = m_platform.allocate_buffer(uint64_t(columns + 2) * n * protocol::sector_bytes,
                                          data ? uint64_t(columns + 2) * n : 0);
        m_platform.check_power();
        std::vector<region_extent> at;
        for (int j = 0; j < columns; ++j)
            at.push_back(m_layout.data_location(p.lbn + int64_t(j - pl.column) * u));  // same row and offset
        ok = m_kit.parallel(size_t(columns), [&](size_t j) {
            if (int(j) == pl.column) return true;
            return m_kit.disk_io(false, at[j].disk, uint64_t(at[j].drive_lbn), uint32_t(n), work, j * n);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            std::vector<uint8_t> coefficients;
            for (int j = 0; j < columns; ++j) {
                inputs.push_back(j == pl.column ? protocol::buffer_ref{buffer, p.offset}
                                                : protocol::buffer_ref{work, uint64_t(j) * n});
                coefficients.push_back(pq::q_coefficient(j));
            }
            m_kit.xor_blocks(inputs, {work, uint64_t(columns) * n}, n, affinity);
            m_kit.gf_blocks(inputs, coefficients, {work, uint64_t(columns + 1) * n}, n, affinity);
            ok = m_kit.parallel(2, [&](size_t k) {
                const parity_location &c = k == 0 ? pl : ql;
                return m_kit.disk_io(true, c.disk, uint64_t(c.drive_lbn), uint32_t(n), work, (uint64_t(columns) + k) * n);
            });
        }
    } else {
        // Read-modify-write. Slots: 0 old data, 1 old P, 2 old Q, 3 new P, 4 new Q; a lost check
        // is neither read nor written.
        work = m_platform.allocate_buffer(5 * n * protocol::sector_bytes, data ? 5 * n : 0);
        m_platform.check_power();
        const bool p_alive = pl.disk != m_known_failed, q_alive = ql.disk != m_known_failed;
        ok = m_kit.parallel(3, [&](size_t i) {
            if (i == 0) return m_kit.disk_io(false, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), work, 0);
            const parity_location &c = i == 1 ? pl : ql;
            if (!(i == 1 ? p_alive : q_alive)) return true;
            return m_kit.disk_io(false, c.disk, uint64_t(c.drive_lbn), uint32_t(n), work, i * n);
        });
        if (ok) {
            const uint8_t g = pq::q_coefficient(pl.column);
            if (p_alive) m_kit.xor_blocks({{work, 0}, {work, n}, {buffer, p.offset}}, {work, 3 * n}, n, affinity);
            if (q_alive)
                m_kit.gf_blocks({{work, 0}, {work, 2 * n}, {buffer, p.offset}}, {g, 1, g}, {work, 4 * n}, n, affinity);
            ok = m_kit.parallel(3, [&](size_t i) {
                if (i == 0) return m_kit.disk_io(true, dl.disk, uint64_t(dl.drive_lbn), uint32_t(n), buffer, p.offset);
                const parity_location &c = i == 1 ? pl : ql;
                if (!(i == 1 ? p_alive : q_alive)) return true;
                return m_kit.disk_io(true, c.disk, uint64_t(c.drive_lbn), uint32_t(n), work, (i + 2) * n);
            });
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
