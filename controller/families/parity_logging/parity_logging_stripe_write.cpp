// parity_logging_firmware's write of one logical stripe (small: old ^ new logged as update
// records; large: the new check images logged as overwrite records). With C > 1 checks (P+Q,
// P+Q+R: controller.parity_logging.checks 2, 3) an update record carries the sectors of checks
// k = 1 .. C-1 and their coefficients g^(k j), j its data column, so reintegration adds
// g^(k j) (old ^ new) into check k (pq_parity.h; raid6_firmware's Q' = Q + g^j (old + new)); the
// log holds the one image per sector, as with one check. A large write's check k > 0 comes from
// the new data on the XOR engine's GF mode, logged as overwrite records beside P's.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include <algorithm>

#include "controller/layouts/pq_parity.h"

namespace raidtlm::controller {

// One logical stripe's part of a write, under the stripe's lock.
bool parity_logging_firmware::stripe_write(int64_t stripe, const std::vector<piece> &pieces,
                                           protocol::buffer_block *buffer, int affinity) {
    const bool data = !buffer->tokens.empty();
    if (data) m_carries_tokens = true;
    int64_t n = 0;
    for (const piece &p : pieces) n += p.sectors;
    const bool large = n == m_layout.stripe_data_sectors();
    const int region = m_layout.region_of(pieces.front().lbn);
    auto write_data = [&](size_t i) {
        const piece &p = pieces[i];
        const region_extent e = m_layout.data_location(p.lbn);
        return member_io(true, e.disk, uint64_t(e.drive_lbn), uint32_t(p.sectors), buffer, p.offset);
    };
    m_kit.locks.lock(stripe);
    std::vector<log_record> records;
    bool ok = true;
    bool data_written = false;  // by the read-rotate-write preread
    protocol::buffer_block *work;
    if (large) {
        // New parity from the new data (every unit of the stripe), logged as overwrite records.
        ++m_stats.large_writes;
        // Check k > 0 = sum g^(k j) D_j in slot k of `work` (GF mode), logged too.
        const int64_t u = m_layout.unit_sectors();
        const int checks = m_layout.checks();
        work = m_platform.allocate_buffer(uint64_t(checks * u) * protocol::sector_bytes,
                                          data ? uint64_t(checks * u) : 0);
        m_platform.check_power();
        std::vector<protocol::buffer_ref> inputs;
        std::vector<int> columns;
        for (const piece &p : pieces) {
            inputs.push_back({buffer, p.offset});
            columns.push_back(m_layout.parity_of(p.lbn).column);
        }
        make_checks(inputs, columns, checks, {work, 0}, uint64_t(u), affinity);
        for (int k = 0; k < checks; ++k)
            for (int64_t s = 0; s < u; ++s)
                records.push_back({record_kind::overwrite, 0, m_layout.check_of(pieces.front().lbn + s, k).image_index,
                                   data ? work->tokens[size_t(k * u + s)] : 0});
        m_stats.overwrite_records += uint64_t(checks * u);
    } else {
        // Small write: old data (preread, or cached), the update image old ^ new by the XOR engine.
        ++m_stats.small_writes;
        work = m_platform.allocate_buffer(2 * uint64_t(n) * protocol::sector_bytes, data ? 2 * uint64_t(n) : 0);
        m_platform.check_power();
        std::vector<uint64_t> at(pieces.size(), 0);
        for (size_t i = 1; i < pieces.size(); ++i) at[i] = at[i - 1] + uint64_t(pieces[i - 1].sectors);
        if (m_config.preread && m_platform.config().firmware.parity_writes.read_rotate_write) {
            // controller.rmw read_rotate_write: preread and overwrite in one drive command (the
            // paper's Section 3: "seeks ..., reads the data, waits for the disk to spin around
            // once, then updates the data"); the drive returns the old tokens.
            ok = m_kit.parallel(pieces.size(), [&](size_t i) {
                const region_extent e = m_layout.data_location(pieces[i].lbn);
                std::vector<uint64_t> old;
                const bool done = member_io(true, e.disk, uint64_t(e.drive_lbn), uint32_t(pieces[i].sectors),
                                                buffer, pieces[i].offset, &old);
                if (data && done) std::copy(old.begin(), old.end(), work->tokens.begin() + int64_t(at[i]));
                return done;
            });
            data_written = true;
        } else if (m_config.preread) {
            ok = m_kit.parallel(pieces.size(), [&](size_t i) {
                const region_extent e = m_layout.data_location(pieces[i].lbn);
                return member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(pieces[i].sectors), work, at[i]);
            });
        } else if (data) {
            for (size_t i = 0; i < pieces.size() && ok; ++i) {
                const region_extent e = m_layout.data_location(pieces[i].lbn);
                // The cache holds no lost member's data (member_io's rule for the preread).
                ok = !loss_not_handled(e.disk);
                if (ok) peek(e.disk, e.drive_lbn, uint32_t(pieces[i].sectors), work->tokens.data() + at[i]);
            }
        }
        if (ok) {
            // The pieces of one stripe of one request are contiguous in the request's buffer.
            m_kit.xor_blocks({{work, 0}, {buffer, pieces.front().offset}}, {work, uint64_t(n)}, uint64_t(n), affinity);
            for (const piece &p : pieces)
                for (int32_t k = 0; k < p.sectors; ++k) {
                    const parity_location pl = m_layout.parity_of(p.lbn + k);
                    log_record x{record_kind::update, 0, pl.image_index,
                                 data ? work->tokens[size_t(uint64_t(n) + at[size_t(&p - &pieces[0])] + uint64_t(k))]
                                      : 0};
                    for (int c = 1; c < m_layout.checks(); ++c) {  // Q's, R's sector and g^(c j)
                        x.check_index[size_t(c - 1)] = m_layout.check_of(p.lbn + k, c).image_index;
                        x.check_coefficient[size_t(c - 1)] = pq::check_coefficient(c, pl.column);
                    }
                    records.push_back(x);
                }
            m_stats.update_records += uint64_t(n);
        }
    }
    if (ok)
        ok = m_kit.parallel(pieces.size() + 1, [&](size_t i) {
            if (i == pieces.size()) return log_records(region, records, affinity);
            return data_written || write_data(i);
        });
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
