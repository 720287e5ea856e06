// Parity logging's lost sectors: what faults beyond the checks destroy, recorded so that it is
// never served. A row's lost members are rebuilt from its checks, so a row whose checks cannot
// be trusted loses every data sector it has on a missing member:
//   - a log dropped without being applied (a reintegration torn by a power loss, whose parity
//     runs are partly rewritten; a sublog on a lost disk; a controller's state lost) leaves the
//     rows its records named stale. With every data member there, the parity is made again from
//     the data (rebuild_parity); with one missing, those rows' sectors on it are lost. The log
//     directory (each record's check image sector) survives in NVRAM, so the rows are known; a
//     lost controller state loses it, and with it every row of the region's big rows.
//   - a host write torn by a power loss (its write-intent record) leaves its rows' checks
//     inconsistent with its data: resynchronised from the data, or lost on a missing member (the
//     write hole of a degraded array).
//   - a rebuild step that could not read its row (a MEDIUM ERROR on a source, a further loss)
//     leaves the new drive's slot without its data.
// Before, these rows were rebuilt from stale checks and served: the explorer's case 2:172 (a
// disk lost, the controller lost while the loss's log replay ran) read 2,788 wrong sectors.
// Reads overlapping a lost sector fail (the host sees an error, as from a real array's bad
// block list); a successful write of a sector makes it good again (its row's checks are then
// made from it: reconstruct-write while its member is missing, or the rebuild's row after).
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include <algorithm>

namespace raidtlm::controller {

std::vector<int64_t> parity_logging_firmware::logged_images(int region) const {
    const region_state &r = m_regions[size_t(region)];
    std::vector<int64_t> out = r.stale_images;
    out.insert(out.end(), r.images_being_applied.begin(), r.images_being_applied.end());
    for (const logged_write &w : r.writes)
        for (const log_record &x : w.records) out.push_back(x.image_index);
    for (const log_record &x : r.buffered) out.push_back(x.image_index);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool parity_logging_firmware::data_member_missing(int region, int q) const {
    const int M = m_layout.members(), C = m_layout.checks();
    const int64_t pt = m_layout.parity_unit_sectors();
    const int pm = m_layout.check_member(q, 0);
    for (int j = 0; j < m_layout.data_columns(); ++j) {
        const int m = (pm + C + j) % M;
        const int d = m_layout.member_disk(region, m);
        if (missing(d, region, m_layout.region_start(region, d) + m_layout.slot(q, m) * pt)) return true;
    }
    return false;
}

void parity_logging_firmware::lose_rows(int region, int q, const std::vector<int64_t> *stale_images) {
    const int64_t pt = m_layout.parity_unit_sectors();
    if (!stale_images) {
        for (int64_t offset = 0; offset < pt; ++offset) lose_row(region, q, offset);
        return;
    }
    for (int64_t image : *stale_images) {
        const parity_logging_layout::image_row row = m_layout.row_of_image(image);
        if (row.q == q) lose_row(region, q, row.offset);
    }
}

void parity_logging_firmware::lose_row(int region, int q, int64_t offset) {
    const int M = m_layout.members(), C = m_layout.checks();
    const int pm = m_layout.check_member(q, 0);
    for (int j = 0; j < m_layout.data_columns(); ++j) {
        const int m = (pm + C + j) % M;
        const int d = m_layout.member_disk(region, m);
        const int64_t drive_lbn = m_layout.region_start(region, d) + m_layout.slot(q, m) * m_layout.parity_unit_sectors();
        if (missing(d, region, drive_lbn)) note_lost(m_layout.lbn_at(region, q, offset, j), 1);
    }
}

void parity_logging_firmware::note_lost(int64_t lbn, int32_t sectors) {
    if (!m_lost_noted.covers(lbn, lbn + sectors)) {
        m_lost_noted.insert(lbn, lbn + sectors);
        m_stats.lost_ranges.push_back({lbn, sectors});
    }
    m_lost_sectors.note(lbn, lbn + sectors);
}

}  // namespace raidtlm::controller
