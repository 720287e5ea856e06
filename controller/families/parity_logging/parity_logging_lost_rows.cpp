// Parity logging over P+Q or P+Q+R (controller.parity_logging.checks 2, 3) with more than one
// disk lost, up to `checks` of them in a row (more: parity_logging_beyond_checks.cpp). The first loss applied every
// log and no region logs since, so a row's live checks are current and the row is a plain
// C-check row: its lost data columns X solve |X| of its live checks' equations
//   sum_{x in X} g^(k x) D_x = C_k + sum_{j not in X} g^(k j) D_j
// (check k = sum g^(k j) D_j, pq_parity.h's check_coefficient; the square submatrices of
// g^(k j) over distinct k < 3 and distinct columns are nonsingular, pq_parity.h), inverted here
// in GF(2^8), so each lost column is one multiply-accumulate command of the GF engine over the
// surviving members. A read of a lost column rebuilds it; a write reads the row's surviving data
// and the checks it needs, rebuilds the other lost columns, lays the new data over and
// recomputes every live check, as raid6's degraded writes do; it writes the live checks and, when
// its disk is live, the new data. Under the stripe lock.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include "controller/layouts/pq_parity.h"
#include "rtl_models/xor/gf256.h"

namespace raidtlm::controller {

namespace {

namespace gf = rtl_models::gf256;

// A row's members at the offset of a piece: data columns 0..D-1, then checks D + k.
struct lost_row {
    std::vector<region_extent> members;
    std::vector<bool> lost;
    int columns = 0;
    int column = 0;          // the piece's own data column
    std::vector<int> lost_columns;
    std::vector<int> use;    // the live checks that rebuild them, one per lost column
    // coefficients[i][m]: lost_columns[i] = sum over members m of coefficient x member.
    std::vector<std::vector<uint8_t>> coefficients;
};

// The inverse of A[i][x] = g^(use[i] lost[x]) (Gauss-Jordan), turned into coefficients over the
// surviving members; false when there are more lost columns than live checks.
bool solve(lost_row &r, int checks) {
    for (int k = 0; k < checks && r.use.size() < r.lost_columns.size(); ++k)
        if (!r.lost[size_t(r.columns + k)]) r.use.push_back(k);
    const size_t u = r.lost_columns.size();
    if (r.use.size() < u) return false;
    std::vector<std::vector<uint8_t>> a(u, std::vector<uint8_t>(2 * u, 0));
    for (size_t i = 0; i < u; ++i) {
        for (size_t x = 0; x < u; ++x) a[i][x] = pq::check_coefficient(r.use[i], r.lost_columns[x]);
        a[i][u + i] = 1;
    }
    for (size_t c = 0; c < u; ++c) {
        size_t pivot = c;
        while (pivot < u && a[pivot][c] == 0) ++pivot;
        if (pivot == u) return false;
        std::swap(a[c], a[pivot]);
        const uint8_t scale = gf::inv(a[c][c]);
        for (uint8_t &v : a[c]) v = gf::mul(v, scale);
        for (size_t i = 0; i < u; ++i) {
            const uint8_t f = a[i][c];
            if (i == c || f == 0) continue;
            for (size_t v = 0; v < 2 * u; ++v) a[i][v] ^= gf::mul(f, a[c][v]);
        }
    }
    // D_x = sum_i inv[x][i] (C_use[i] + sum_{j live} g^(use[i] j) D_j).
    r.coefficients.assign(u, std::vector<uint8_t>(r.members.size(), 0));
    for (size_t x = 0; x < u; ++x)
        for (size_t i = 0; i < u; ++i) {
            const uint8_t w = a[x][u + i];
            r.coefficients[x][size_t(r.columns + r.use[i])] ^= w;
            for (int j = 0; j < r.columns; ++j)
                if (!r.lost[size_t(j)])
                    r.coefficients[x][size_t(j)] ^= gf::mul(w, pq::check_coefficient(r.use[i], j));
        }
    return true;
}

// The row of logical sector lbn, its members at lbn's offset, and which of them are lost
// (`lost` of the member's extent).
template <class Lost>
lost_row row_of(const parity_logging_layout &l, int64_t lbn, Lost lost) {
    lost_row r;
    r.columns = l.data_columns();
    r.column = l.parity_of(lbn).column;
    const int64_t u = l.unit_sectors();
    for (int j = 0; j < r.columns; ++j) r.members.push_back(l.data_location(lbn + int64_t(j - r.column) * u));
    for (int k = 0; k < l.checks(); ++k) {
        const parity_location c = l.check_of(lbn, k);
        r.members.push_back({c.disk, c.drive_lbn, 1});
    }
    for (size_t m = 0; m < r.members.size(); ++m) {
        r.lost.push_back(lost(r.members[m]));
        if (int(m) < r.columns && r.lost.back()) r.lost_columns.push_back(int(m));
    }
    return r;
}

}  // namespace

bool parity_logging_firmware::read_lost_row(const piece &p, protocol::buffer_block *buffer, int affinity,
                                            std::set<int> unreadable) {
    const int region = m_layout.region_of(p.lbn);
    const uint64_t losses = m_platform.member_losses();
    lost_row r = row_of(m_layout, p.lbn, [&](const region_extent &e) {
        return unreadable.count(e.disk) > 0 || gone(region, {e.disk, e.drive_lbn, p.sectors});
    });
    if (std::find(r.lost_columns.begin(), r.lost_columns.end(), r.column) == r.lost_columns.end()) {
        // The piece's own member holds its rows now: a rebuild step passed the row while the read
        // waited for the stripe lock (read_piece found it absent before). Read where it is.
        const region_extent &e = r.members[size_t(r.column)];
        return member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(p.sectors), buffer, p.offset);
    }
    if (!solve(r, m_layout.checks())) return false;
    const size_t target = size_t(std::find(r.lost_columns.begin(), r.lost_columns.end(), r.column) - r.lost_columns.begin());
    const bool data = !buffer->tokens.empty();
    const uint64_t n = uint64_t(p.sectors), slots = r.members.size();
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * n * protocol::sector_bytes, data ? slots * n : 0);
    m_platform.check_power();
    const std::vector<uint8_t> &c = r.coefficients[target];
    std::vector<char> failed(slots, 0);
    bool ok = m_kit.parallel(size_t(slots), [&](size_t m) {
        if (c[m] == 0) return true;  // not needed (or lost)
        failed[m] = !member_io(false, r.members[m].disk, uint64_t(r.members[m].drive_lbn), uint32_t(n), work, m * n);
        return !failed[m];
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (uint64_t m = 0; m < slots; ++m) inputs.push_back({work, m * n});
        m_kit.gf_blocks(inputs, c, {buffer, p.offset}, n, affinity);
    }
    m_platform.free_buffer(work);
    if (ok || m_platform.member_losses() != losses) return ok;  // a loss: serve_across_a_loss's case
    // A source answered MEDIUM ERROR (98:292, P+Q+R with a disk lost and a media error on
    // another: 468 reads failed within the promise): solved again without it, while the checks allow.
    const size_t before = unreadable.size();
    for (size_t m = 0; m < slots; ++m)
        if (failed[m]) unreadable.insert(r.members[m].disk);
    if (unreadable.size() == before) return false;
    return read_lost_row(p, buffer, affinity, std::move(unreadable));
}

bool parity_logging_firmware::write_lost_row(const piece &p, protocol::buffer_block *buffer, int affinity) {
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    ++m_stats.degraded_writes;
    m_kit.locks.lock(stripe);  // before the row's lost members: a rebuild step is done or not begun
    if (const int beyond = beyond_checks_write(p, buffer); beyond >= 0) {
        m_stats.lost_requests += beyond == 0 ? 1 : 0;
        m_kit.locks.unlock(stripe);
        return beyond == 1;
    }
    const int region = m_layout.region_of(p.lbn);
    lost_row r = row_of(m_layout, p.lbn, [&](const region_extent &e) {
        return gone(region, {e.disk, e.drive_lbn, p.sectors});
    });
    const int D = r.columns, C = m_layout.checks();
    // Lost columns other than the piece's own are rebuilt first (with the piece's old data).
    const bool rebuild = std::any_of(r.lost_columns.begin(), r.lost_columns.end(), [&](int x) { return x != r.column; });
    if (rebuild && !solve(r, C)) {
        m_kit.locks.unlock(stripe);
        return false;
    }
    const bool data = !buffer->tokens.empty();
    const uint64_t n = uint64_t(p.sectors), slots = uint64_t(D + 2 * C);
    // Slots: data column j at j, check k read at D + k, check k new at D + C + k.
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * n * protocol::sector_bytes, data ? slots * n : 0);
    m_platform.check_power();
    auto needed = [&](size_t m) {
        if (r.lost[m]) return false;
        if (m < size_t(D)) return int(m) != r.column || rebuild;
        return rebuild && std::find(r.use.begin(), r.use.end(), int(m) - D) != r.use.end();
    };
    bool ok = m_kit.parallel(size_t(D + C), [&](size_t m) {
        if (!needed(m)) return true;
        return member_io(false, r.members[m].disk, uint64_t(r.members[m].drive_lbn), uint32_t(n), work, m * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> read, row;
        for (uint64_t m = 0; m < uint64_t(D + C); ++m) read.push_back({work, m * n});
        for (size_t i = 0; i < r.lost_columns.size(); ++i)
            if (r.lost_columns[i] != r.column)
                m_kit.gf_blocks(read, r.coefficients[i], {work, uint64_t(r.lost_columns[i]) * n}, n, affinity);
        std::vector<int> columns;
        for (int j = 0; j < D; ++j) {
            row.push_back(j == r.column ? protocol::buffer_ref{buffer, p.offset} : protocol::buffer_ref{work, uint64_t(j) * n});
            columns.push_back(j);
        }
        make_checks(row, columns, C, {work, uint64_t(D + C) * n}, n, affinity,
                    [&](int k) { return !r.lost[size_t(D + k)]; });
        ok = m_kit.parallel(size_t(1 + C), [&](size_t i) {
            const size_t m = i == 0 ? size_t(r.column) : size_t(D) + i - 1;
            if (r.lost[m]) return true;
            if (i == 0) return member_io(true, r.members[m].disk, uint64_t(r.members[m].drive_lbn), uint32_t(n), buffer, p.offset);
            return member_io(true, r.members[m].disk, uint64_t(r.members[m].drive_lbn), uint32_t(n), work,
                                 uint64_t(D + C) * n + (i - 1) * n);
        });
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

// A rebuild step's member (parity_logging_rebuild.cpp): a data column solved from the live
// checks and surviving data (one engine command: the XOR engine when every coefficient is 1, as
// from P alone, else its GF mode), a check made from the row's data (its lost columns solved
// first). The caller holds the rows' stripe locks.
bool parity_logging_firmware::rebuild_row_member(int64_t lbn, uint64_t n, int member,
                                                 const std::function<bool(const region_extent &)> &lost,
                                                 protocol::buffer_block *work) {
    lost_row r = row_of(m_layout, lbn, lost);
    const int D = r.columns, C = m_layout.checks();
    if (!solve(r, C)) return false;
    const bool check = member >= D;
    // The members each lost column it needs reads (every one for a check, only its own for a column).
    auto wanted = [&](size_t i) { return check || r.lost_columns[i] == member; };
    std::vector<bool> read(size_t(D + C), false);
    for (size_t i = 0; i < r.lost_columns.size(); ++i)
        if (wanted(i))
            for (size_t m = 0; m < read.size(); ++m) read[m] = read[m] || r.coefficients[i][m] != 0;
    if (check)
        for (int j = 0; j < D; ++j) read[size_t(j)] = read[size_t(j)] || !r.lost[size_t(j)];
    m_platform.check_power();
    const bool ok = m_kit.parallel(read.size(), [&](size_t m) {
        if (!read[m]) return true;
        return member_io(false, r.members[m].disk, uint64_t(r.members[m].drive_lbn), uint32_t(n), work, m * n);
    });
    if (!ok) return false;
    std::vector<protocol::buffer_ref> all;
    for (uint64_t m = 0; m < uint64_t(D + C); ++m) all.push_back({work, m * n});
    for (size_t i = 0; i < r.lost_columns.size(); ++i) {
        if (!wanted(i)) continue;
        const std::vector<uint8_t> &c = r.coefficients[i];
        const protocol::buffer_ref out{work, uint64_t(r.lost_columns[i]) * n};
        if (std::all_of(c.begin(), c.end(), [](uint8_t v) { return v <= 1; })) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t m = 0; m < c.size(); ++m)
                if (c[m] == 1) inputs.push_back(all[m]);
            m_kit.xor_blocks(inputs, out, n, 0);
        } else {
            m_kit.gf_blocks(all, c, out, n, 0);
        }
    }
    if (check) {
        std::vector<int> columns;
        for (int j = 0; j < D; ++j) columns.push_back(j);
        make_checks(std::vector<protocol::buffer_ref>(all.begin(), all.begin() + D), columns, C, {work, uint64_t(D) * n},
                    n, 0, [&](int k) { return k == member - D; });
    }
    return true;
}

}  // namespace raidtlm::controller
