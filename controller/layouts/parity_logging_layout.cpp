#include "controller/layouts/parity_logging_layout.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace raidtlm::controller {

parity_logging_layout::parity_logging_layout(const std::vector<int64_t> &disk_sectors,
                                             const parity_logging_params &p)
    : m_n(int(disk_sectors.size())), m_l(p.log_stripes), m_track(p.track_sectors), m_unit(p.unit_sectors),
      m_a(p.log_to_parity) {
    m_c = p.checks;
    if (m_c < 1 || m_c > 3)
        throw layout_error(
            fmt::format("parity logging: checks = {} (1: parity, 2: P and Q, 3: P, Q and R) is not modelled", m_c));
    if (m_c > 1 && m_n - m_c * m_l < m_c + 1)
        throw layout_error(fmt::format("parity logging with {} checks and L = {} sublogs needs at least {} disks ({} "
                                       "copies of the log on distinct disks, then {} and a data member); the "
                                       "array has {}",
                                       m_c, m_l, m_c * m_l + m_c + 1, m_c, m_c == 2 ? "P, Q" : "P, Q, R", m_n));
    if (m_track < 1) throw layout_error("parity logging needs the disks' track size (sectors per track > 0)");
    if (m_unit < 1) throw layout_error("parity logging: the stripe unit must be at least one sector");
    if (!(m_a > 0)) throw layout_error(fmt::format("parity logging: log_to_parity_ratio A = {} must be > 0", m_a));
    if (m_l < 1) throw layout_error(fmt::format("parity logging: log_stripes L = {} must be at least 1", m_l));
    if (m_n - m_l < 2)
        throw layout_error(fmt::format("parity logging with L = {} sublogs needs at least L + 2 = {} disks (a region's "
                                       "sublogs may not share a disk with its data or parity); the array has {}",
                                       m_l, m_l + 2, m_n));
    if (p.log_write_tracks < 1) throw layout_error("parity logging: log_write_tracks K must be at least 1");
    std::vector<int64_t> tracks;
    for (int64_t s : disk_sectors) tracks.push_back(s / m_track);
    const int64_t min_tracks = *std::min_element(tracks.begin(), tracks.end());
    m_b_opt = std::sqrt(double(min_tracks) / double(p.log_write_tracks));
    if (p.regions_per_disk > 0) {
        if (!try_regions(p.regions_per_disk, tracks))
            throw layout_error(fmt::format(
                "parity logging: {} regions do not fit: a region needs at least {} whole tracks of {} sectors on "
                "each of its {} data/parity disks (with a parity run that is a multiple of the {}-sector stripe "
                "unit), and a disk has {} tracks",
                p.regions_per_disk, members(), m_track, members(), m_unit, min_tracks));
        return;
    }
    // The paper's search: every B within +-10% of the optimum, the least unused space wins.
    const int lo = std::max(1, int(std::floor(0.9 * m_b_opt)));
    const int hi = std::max(lo, int(std::ceil(1.1 * m_b_opt)));
    int best = -1;
    double best_unused = 2;
    for (int b = lo; b <= hi; ++b) {
        if (!try_regions(b, tracks)) continue;
        const bool closer = std::abs(b - m_b_opt) < std::abs(best - m_b_opt);
        if (m_unused < best_unused - 1e-12 || (m_unused <= best_unused + 1e-12 && closer)) {
            best = b;
            best_unused = m_unused;
        }
    }
    if (best < 0 || !try_regions(best, tracks))
        throw layout_error(fmt::format(
            "parity logging: no region count within 10% of the optimum {:.1f} fits {} disks of {} tracks "
            "({} sectors each) with whole-track parity runs that are multiples of the {}-sector stripe unit",
            m_b_opt, m_n, min_tracks, m_track, m_unit));
}

bool parity_logging_layout::try_regions(int b, const std::vector<int64_t> &disk_tracks) {
    const int m = members();
    std::vector<int64_t> log_regions(size_t(m_n), 0);
    for (int r = 0; r < b; ++r)
        for (int i = 0; i < log_disks(); ++i) ++log_regions[size_t((int64_t(r) * log_disks() + i) % m_n)];
    auto sublog = [&](int64_t p) { return std::max<int64_t>(1, int64_t(std::ceil(m_a * m * p / m_l - 1e-9))); };
    auto fits = [&](int64_t p) {
        for (int d = 0; d < m_n; ++d) {
            const int64_t used = log_regions[size_t(d)] * sublog(p) + (b - log_regions[size_t(d)]) * m * p;
            if (used > disk_tracks[size_t(d)]) return false;
        }
        return true;
    };
    int64_t p = *std::min_element(disk_tracks.begin(), disk_tracks.end()) / std::max<int64_t>(1, int64_t(b) * m) + 1;
    while (p >= 1 && (!fits(p) || (p * m_track) % m_unit != 0)) --p;
    if (p < 1) return false;
    m_regions = b;
    m_p = p;
    m_s = sublog(p);
    m_start.assign(size_t(b) * size_t(m_n), 0);
    std::vector<int64_t> at(size_t(m_n), 0);
    for (int r = 0; r < b; ++r)
        for (int d = 0; d < m_n; ++d) {
            m_start[size_t(r) * size_t(m_n) + size_t(d)] = at[size_t(d)] * m_track;
            at[size_t(d)] += is_log_disk(r, d) ? m_s : int64_t(m) * m_p;
        }
    int64_t used = 0, total = 0;
    for (int d = 0; d < m_n; ++d) used += at[size_t(d)], total += disk_tracks[size_t(d)];
    m_unused = total > 0 ? 1.0 - double(used) / double(total) : 0.0;
    return true;
}

std::string parity_logging_layout::describe() const {
    if (m_c > 1)
        return fmt::format("parity logging over {}, {} disks, {} regions, L = {} sublogs of {} tracks in {} copies, "
                           "{} {} tracks each per member, A = {}, {}-sector track, {}-sector stripe unit, "
                           "{:.2f}% unused",
                           m_c == 2 ? "P+Q" : "P+Q+R", m_n, m_regions, m_l, m_s, m_c,
                           m_c == 2 ? "P and Q" : "P, Q and R", m_p, m_a, m_track, m_unit, 100.0 * m_unused);
    return fmt::format("parity logging, {} disks, {} regions, L = {} sublogs of {} tracks, parity {} tracks per "
                       "member, A = {}, {}-sector track, {}-sector stripe unit, {:.2f}% unused",
                       m_n, m_regions, m_l, m_s, m_p, m_a, m_track, m_unit, 100.0 * m_unused);
}

bool parity_logging_layout::is_log_disk(int region, int disk) const {
    return member_of(region, disk) < 0;
}

int parity_logging_layout::member_of(int region, int disk) const {
    const int first_log = int((int64_t(region) * log_disks()) % m_n);
    const int k = ((disk - first_log) % m_n + m_n) % m_n;  // position after the first log disk
    return k < log_disks() ? -1 : k - log_disks();
}

region_extent parity_logging_layout::parity_extent(int region, int m) const {
    const int q = members() - 1 - m;  // member m holds big row q's parity (P); Q of row q + 1, next
    const int d = member_disk(region, m);
    return {d, region_start(region, d) + slot(q, m) * parity_unit_sectors(), m_c * parity_unit_sectors()};
}

region_extent parity_logging_layout::sublog_extent(int region, int i, int copy) const {
    const int d = log_disk(region, copy * m_l + i);
    return {d, region_start(region, d), sublog_sectors()};
}

parity_logging_layout::coords parity_logging_layout::locate(int64_t lbn) const {
    const int m = members();
    const int64_t unit = parity_unit_sectors();
    coords c;
    c.region = int(lbn / region_data_sectors());
    const int64_t x = lbn % region_data_sectors();
    c.q = int(x / (int64_t(m - m_c) * unit));
    const int64_t y = x % (int64_t(m - m_c) * unit);
    const int64_t u = y / m_unit;
    const int j = int(u % (m - m_c));
    c.offset = (u / (m - m_c)) * m_unit + y % m_unit;
    const int parity_member = m - 1 - c.q;
    c.member = (parity_member + m_c + j) % m;
    c.column = j;
    return c;
}

region_extent parity_logging_layout::data_location(int64_t lbn) const {
    const coords c = locate(lbn);
    const int d = member_disk(c.region, c.member);
    return {d, region_start(c.region, d) + slot(c.q, c.member) * parity_unit_sectors() + c.offset, 1};
}

parity_location parity_logging_layout::check_of(int64_t lbn, int k) const {
    const coords c = locate(lbn);
    const int m = check_member(c.q, k);
    const int d = member_disk(c.region, m);
    const int64_t pt = parity_unit_sectors();
    return {c.region, d, region_start(c.region, d) + slot(c.q, m) * pt + c.offset,
            check_run_image_index(m) + k * pt + c.offset, c.column};
}

int64_t parity_logging_layout::lbn_at(int region, int q, int64_t offset, int column) const {
    const int64_t columns = data_columns();
    // locate(): unit u of the big row lies in column u % D at slot offset (u / D) * unit.
    const int64_t u = (offset / m_unit) * columns + column;
    return int64_t(region) * region_data_sectors() + int64_t(q) * columns * parity_unit_sectors() + u * m_unit +
           offset % m_unit;
}

parity_logging_layout::image_row parity_logging_layout::row_of_image(int64_t image_index) const {
    const int64_t pt = parity_unit_sectors();
    const int m = members() - 1 - int(image_index / (int64_t(m_c) * pt));  // check_run_image_index's inverse
    const int k = int((image_index % (int64_t(m_c) * pt)) / pt);
    return {((members() - 1 + k - m) % members() + members()) % members(), image_index % pt};
}

std::vector<region_extent> parity_logging_layout::row_partners(int64_t lbn) const {
    const coords c = locate(lbn);
    std::vector<region_extent> out;
    for (int j = 0; j < data_columns(); ++j) {
        const int m = (check_member(c.q, 0) + m_c + j) % members();
        if (m == c.member) continue;
        const int d = member_disk(c.region, m);
        out.push_back({d, region_start(c.region, d) + slot(c.q, m) * parity_unit_sectors() + c.offset, 1});
    }
    return out;
}

void parity_logging_layout::map(int64_t lbn, int32_t sectors, std::vector<chunk> &out) const {
    check_range(lbn, sectors);
    out.clear();
    for_each_unit_piece(lbn, sectors, m_unit, [&](int64_t, int64_t, int64_t at, int32_t n) {
        const region_extent e = data_location(at);
        chunk c;
        c.lbn = at;
        c.sectors = n;
        replica r;
        r.disk = e.disk;
        r.extents.push_back({e.drive_lbn, n, false});
        c.replicas.push_back(std::move(r));
        out.push_back(std::move(c));
    });
}

}  // namespace raidtlm::controller
