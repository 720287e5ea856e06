// Parity logging over P+Q or P+Q+R (controller.parity_logging.checks 2, 3): the check images
// recomputed from the data as the drives hold them, for the recovery paths that drop a log (a
// reintegration torn by a power loss, a controller's state lost) or close the write hole (the
// stripes of the writes in flight). Check k = sum g^(k j) D_j (pq_parity.h's check_coefficient;
// P = sum D_j, Q = sum g^j D_j, R = sum g^2j D_j), j the data column; P on the XOR engine, the
// others on its GF mode, one command each. The single-check forms are rebuild_parity and
// resync_stripe themselves.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/layouts/pq_parity.h"

namespace raidtlm::controller {

// The data units `data` (one per column, `n` sectors each) read, the checks made and written to
// `checks` (P first).
bool parity_logging_firmware::write_checks_from_data(const std::vector<region_extent> &data,
                                                     const std::vector<region_extent> &checks, uint64_t n,
                                                     int affinity) {
    const size_t d = data.size(), c = checks.size();
    // With tokens always: after a restart the firmware cannot know whether the host sent any.
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(d + c) * n * protocol::sector_bytes, uint64_t(d + c) * n);
    m_platform.check_power();
    bool ok = m_kit.parallel(d, [&](size_t j) {
        return member_io(false, data[j].disk, uint64_t(data[j].drive_lbn), uint32_t(n), work, j * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<int> columns;
        for (size_t j = 0; j < d; ++j) {
            inputs.push_back({work, j * n});
            columns.push_back(int(j));
        }
        make_checks(inputs, columns, int(c), {work, d * n}, n, affinity);
        ok = m_kit.parallel(c, [&](size_t k) {
            return member_io(true, checks[k].disk, uint64_t(checks[k].drive_lbn), uint32_t(n), work, (d + k) * n);
        });
    }
    m_platform.free_buffer(work);
    return ok;
}

void parity_logging_firmware::make_checks(const std::vector<protocol::buffer_ref> &row, const std::vector<int> &columns,
                                          int checks, protocol::buffer_ref out, uint64_t n, int affinity,
                                          const std::function<bool(int)> &made) {
    for (int k = 0; k < checks; ++k) {
        if (made && !made(k)) continue;
        const protocol::buffer_ref to{out.block, out.first_sector + uint64_t(k) * n};
        if (k == 0) {
            m_kit.xor_blocks(row, to, n, affinity);
            continue;
        }
        std::vector<uint8_t> coefficients;
        for (int j : columns) coefficients.push_back(pq::check_coefficient(k, j));
        m_kit.gf_blocks(row, coefficients, to, n, affinity);
    }
}

bool parity_logging_firmware::rebuild_checks(int region, int affinity, const std::vector<int64_t> *stale_images) {
    const int M = m_layout.members(), C = m_layout.checks();
    const int64_t pt = m_layout.parity_unit_sectors();
    auto at = [&](int q, int m) {
        const int d = m_layout.member_disk(region, m);
        return region_extent{d, m_layout.region_start(region, d) + m_layout.slot(q, m) * pt, pt};
    };
    bool ok = true;
    for (int q = 0; q < M; ++q) {
        // A data member missing: the big row's stale rows are lost on it (each check may be torn,
        // so none of them solves it). Missing checks are written all the same: a lost drive's
        // writes count done, and a rebuild that has not reached the row makes it later.
        if (data_member_missing(region, q)) {
            lose_rows(region, q, stale_images);
            continue;
        }
        const int pm = m_layout.check_member(q, 0);
        std::vector<region_extent> data, checks;
        for (int j = 0; j < m_layout.data_columns(); ++j) data.push_back(at(q, (pm + C + j) % M));
        for (int k = 0; k < C; ++k) checks.push_back(at(q, m_layout.check_member(q, k)));
        const bool made = write_checks_from_data(data, checks, uint64_t(pt), affinity);
        if (!made && data_member_missing(region, q)) lose_rows(region, q, stale_images);  // lost meanwhile
        ok = made && ok;
    }
    m_regions[size_t(region)].stale_images.clear();
    ++m_stats.parity_rebuilds;
    return ok;
}

bool parity_logging_firmware::resync_stripe_checks(int64_t stripe, const std::set<int64_t> &offsets, int affinity) {
    const int64_t u = m_layout.unit_sectors();
    const int64_t first = stripe * m_layout.stripe_data_sectors();
    std::vector<region_extent> data, checks;
    for (int j = 0; j < m_layout.data_columns(); ++j) data.push_back(m_layout.data_location(first + int64_t(j) * u));
    for (int k = 0; k < m_layout.checks(); ++k) {
        const parity_location c = m_layout.check_of(first, k);
        checks.push_back({c.disk, c.drive_lbn, u});
    }
    // A data member missing (lost, or rebuilding and not reached here): the torn rows' checks may
    // each be torn, so its sectors in them are lost. Missing checks are written all the same (a
    // lost drive's writes count done; a rebuild not there yet makes them from the data later).
    const int region = m_layout.region_of(first);
    bool torn_rows_lost = false;
    for (size_t j = 0; j < data.size(); ++j) {
        if (!missing(data[j].disk, region, data[j].drive_lbn)) continue;
        for (int64_t o : offsets) note_lost(first + int64_t(j) * u + o, 1);
        torn_rows_lost = true;
    }
    if (torn_rows_lost) return false;
    m_kit.locks.lock(stripe);
    const bool ok = write_checks_from_data(data, checks, uint64_t(u), affinity);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
