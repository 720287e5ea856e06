// Parity logging over P+Q (controller.parity_logging.checks 2): P and Q recomputed from the data
// as the drives hold them, for the recovery paths that drop a log (a reintegration torn by a power
// loss, a controller's state lost) or close the write hole (the stripes of the writes in flight).
// P = sum D_j, Q = sum g^j D_j (pq_parity.h), j the data column; P on the XOR engine, Q on its GF
// mode. The single-check forms are rebuild_parity and resync_stripe themselves.
#include "controller/parity_logging_firmware.h"

#include "controller/pq_parity.h"

namespace raidtlm::controller {

// The data units `data` (one per column, `n` sectors each) read, P and Q made and written to `p`
// and `q`.
bool parity_logging_firmware::write_pq_from_data(const std::vector<region_extent> &data, const region_extent &p,
                                                 const region_extent &q, uint64_t n, int affinity) {
    const size_t d = data.size();
    // With tokens always: after a restart the firmware cannot know whether the host sent any.
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(d + 2) * n * protocol::sector_bytes, uint64_t(d + 2) * n);
    m_platform.check_power();
    bool ok = m_kit.parallel(d, [&](size_t j) {
        return m_kit.disk_io(false, data[j].disk, uint64_t(data[j].drive_lbn), uint32_t(n), work, j * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<uint8_t> coefficients;
        for (size_t j = 0; j < d; ++j) {
            inputs.push_back({work, j * n});
            coefficients.push_back(pq::q_coefficient(int(j)));
        }
        m_kit.xor_blocks(inputs, {work, d * n}, n, affinity);
        m_kit.gf_blocks(inputs, coefficients, {work, (d + 1) * n}, n, affinity);
        ok = m_kit.parallel(2, [&](size_t k) {
            const region_extent &c = k == 0 ? p : q;
            return m_kit.disk_io(true, c.disk, uint64_t(c.drive_lbn), uint32_t(n), work, (d + k) * n);
        });
    }
    m_platform.free_buffer(work);
    return ok;
}

bool parity_logging_firmware::rebuild_checks_pq(int region, int affinity) {
    const int M = m_layout.members();
    const int64_t pt = m_layout.parity_unit_sectors();
    auto at = [&](int q, int m) {
        const int d = m_layout.member_disk(region, m);
        return region_extent{d, m_layout.region_start(region, d) + m_layout.slot(q, m) * pt, pt};
    };
    bool ok = true;
    for (int q = 0; q < M && ok; ++q) {
        const int pm = m_layout.check_member(q, 0);
        std::vector<region_extent> data;
        for (int j = 0; j < m_layout.data_columns(); ++j) data.push_back(at(q, (pm + 2 + j) % M));
        ok = write_pq_from_data(data, at(q, pm), at(q, m_layout.check_member(q, 1)), uint64_t(pt), affinity);
    }
    ++m_stats.parity_rebuilds;
    return ok;
}

bool parity_logging_firmware::resync_stripe_pq(int64_t stripe, int affinity) {
    const int64_t u = m_layout.unit_sectors();
    const int64_t first = stripe * m_layout.stripe_data_sectors();
    std::vector<region_extent> data;
    for (int j = 0; j < m_layout.data_columns(); ++j) data.push_back(m_layout.data_location(first + int64_t(j) * u));
    const parity_location p = m_layout.check_of(first, 0), q = m_layout.check_of(first, 1);
    m_kit.locks.lock(stripe);
    const bool ok = write_pq_from_data(data, {p.disk, p.drive_lbn, u}, {q.disk, q.drive_lbn, u}, uint64_t(u), affinity);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
