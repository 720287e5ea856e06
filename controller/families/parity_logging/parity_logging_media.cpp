// Parity logging and unreadable sectors (MEDIUM ERROR from a drive, no member lost). A data
// piece is rebuilt like a lost member's (the row's other data XOR its parity), but parity
// logging defers parity updates, so the region's log is applied first: then the parity is
// current and the rebuilt piece is the acknowledged data; rewriting it clears the error on the
// drive. Degraded reads share the rebuild. A check run or sublog that a reintegration cannot read:
// the records it could read go to the runs it read, the rest of the region's checks (the unread
// runs' rows, the rows the unread sublogs' records name) is left stale and the log truncated as
// usual, so the writers waiting on the reintegration go on. Rebuilding the stale checks from the
// data there would race with the small writes whose data are on their way to the drives while
// their records wait for the region (they hold their stripe locks); so the next request waits for
// the requests in flight, as a loss does, and the stale regions' checks are rebuilt from the data
// with their logs dropped (repair_stale_checks; rewriting an unreadable run clears its error). A
// data piece of a stale row that cannot be read meanwhile has nothing to be rebuilt from: lost.
// With two or three
// checks (P+Q, P+Q+R) the same: the row's other data and P rebuild the piece once the log is
// applied, and rewriting the acknowledged data leaves the checks as they are.
#include "controller/families/parity_logging/parity_logging_firmware.h"

#include <algorithm>

namespace raidtlm::controller {

bool parity_logging_firmware::reconstruct_piece(const piece &p, protocol::buffer_block *buffer, int affinity) {
    const bool data = !buffer->tokens.empty();
    std::vector<region_extent> sources = m_layout.row_partners(p.lbn);
    const parity_location pl = m_layout.parity_of(p.lbn);
    sources.push_back({pl.disk, pl.drive_lbn, 1});
    const uint64_t n = uint64_t(p.sectors);
    const uint64_t k = sources.size();
    protocol::buffer_block *work = m_platform.allocate_buffer(k * n * protocol::sector_bytes, data ? k * n : 0);
    m_platform.check_power();
    const bool ok = m_kit.parallel(k, [&](size_t i) {
        return member_io(false, sources[i].disk, uint64_t(sources[i].drive_lbn), uint32_t(n), work, i * n);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (uint64_t i = 0; i < k; ++i) inputs.push_back({work, i * n});
        m_kit.xor_blocks(inputs, {buffer, p.offset}, n, affinity);
    }
    m_platform.free_buffer(work);
    return ok;
}

// A piece on a lost disk. read_piece found it absent before it had the stripe lock; a rebuild
// step of its row may have held the lock meanwhile and written the piece onto the new drive, so
// it is decided again under the lock (as the degraded writes decide): a piece present by then is
// read from its drive. Rebuilt from the row as if still absent it would be right with one lost
// disk (the row's other data and P), but with more (read_lost_row) the row's lost members are
// taken again under the lock, and the piece's own column is no longer among them.
bool parity_logging_firmware::degraded_read(const piece &p, protocol::buffer_block *buffer, int affinity) {
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    m_kit.locks.lock(stripe);
    const region_extent e = m_layout.data_location(p.lbn);
    bool ok;
    if (beyond_checks_read(p, absent(e.disk, m_layout.region_of(p.lbn), e.drive_lbn))) {
        ++m_stats.lost_requests;  // recorded lost, or its row misses more members than checks
        ok = false;
    } else if (!absent(e.disk, m_layout.region_of(p.lbn), e.drive_lbn)) {
        ok = member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(p.sectors), buffer, p.offset);
    } else if (stale_row(p.lbn)) {
        // Its checks miss records an unreadable sublog kept out (note_unread_checks), not yet
        // made again from the data: nothing describes the absent piece, which is lost.
        record_lost({e.disk, e.drive_lbn, p.sectors}, p.lbn, 0);
        ++m_stats.lost_requests;
        ok = false;
    } else {
        ++m_stats.rebuilt_reads;
        // P alone when it is the row's only other gone member; else (more lost disks, or a check
        // recorded lost: an unread check run) the row solved from the checks there.
        const uint64_t losses = m_platform.member_losses();
        ok = m_lost.size() > 1 || gone_in_row(p.lbn, p.sectors) > 1 ? read_lost_row(p, buffer, affinity)
                                                                     : reconstruct_piece(p, buffer, affinity);
        // From P alone a source answered MEDIUM ERROR: with more checks the row is solved without
        // it (98:292, P+Q+R with a disk lost and a media error on another: 468 reads failed
        // within the promise).
        if (!ok && m_layout.checks() > 1 && m_platform.member_losses() == losses)
            ok = read_lost_row(p, buffer, affinity);
    }
    m_kit.locks.unlock(stripe);
    return ok;
}

bool parity_logging_firmware::repair_piece(const piece &p, protocol::buffer_block *buffer, int affinity) {
    const int64_t stripe = m_layout.stripe_of(p.lbn);
    const int region = m_layout.region_of(p.lbn);
    // Under the stripe lock no write of this row is between its data write and its record.
    m_kit.locks.lock(stripe);
    if (gone_in_row(p.lbn, p.sectors) > 0) {
        // A row member recorded lost: the piece cannot be rebuilt, and is lost too.
        const region_extent e = m_layout.data_location(p.lbn);
        record_lost({e.disk, e.drive_lbn, p.sectors}, p.lbn, 0);
        ++m_stats.lost_requests;
        m_kit.locks.unlock(stripe);
        return false;
    }
    // A reintegration of the region may be running (a writer's whose log was full, another
    // repair's): it is waited for. reintegrate() takes the region only when it is free; called
    // while another holds it, it ran alongside, read the same sublogs and applied their records
    // to the parity a second time (the explorer's 97:1732: 128 wrong reads, repairs rebuilt from
    // that parity).
    region_state &r = m_regions[size_t(region)];
    while (r.reintegrating) sc_core::wait(r.changed);
    m_platform.check_power();
    bool ok = r.committed == 0 || reintegrate(region, affinity);
    if (ok && stale_row(p.lbn)) {
        // The row's parity misses records a MEDIUM ERROR kept out (note_unread_checks): beyond it.
        const region_extent e = m_layout.data_location(p.lbn);
        record_lost({e.disk, e.drive_lbn, p.sectors}, p.lbn, 0);
        ++m_stats.lost_requests;
        ok = false;
    }
    if (ok) ok = reconstruct_piece(p, buffer, affinity);
    if (ok) {
        const region_extent e = m_layout.data_location(p.lbn);
        ok = member_io(true, e.disk, uint64_t(e.drive_lbn), uint32_t(p.sectors), buffer, p.offset);
    }
    if (ok) ++m_stats.media_repairs;
    m_kit.locks.unlock(stripe);
    return ok;
}

bool parity_logging_firmware::read_piece(const chunk &c, const piece &p, protocol::buffer_block *buffer, int affinity) {
    const int disk = c.replicas[0].disk;
    const disk_extent &e = c.replicas[0].extents[0];
    if (beyond_checks_read(p, false)) {
        ++m_stats.lost_requests;  // recorded lost
        return false;
    }
    if (absent(disk, m_layout.region_of(p.lbn), e.drive_lbn)) return degraded_read(p, buffer, affinity);
    if (member_io(false, disk, uint64_t(e.drive_lbn), uint32_t(c.sectors), buffer, p.offset)) return true;
    // A member lost meanwhile is serve_across_a_loss's case; otherwise the drive could not read it.
    // Not repaired while a member is rebuilt either (its row may be one the rebuild has not reached).
    if (!unavailable_disks().empty()) return false;
    return repair_piece(p, buffer, affinity);
}

bool parity_logging_firmware::stripe_write_repairing(int64_t stripe, const std::vector<piece> &pieces,
                                                     protocol::buffer_block *buffer, int affinity) {
    if (stripe_write(stripe, pieces, buffer, affinity)) return true;
    // The preread met MEDIUM ERROR and nothing was written: the pieces that cannot be read are
    // rebuilt and rewritten (readable again), then the write goes again. A member lost
    // meanwhile (failed, or already replaced and rebuilding): serve_across_a_loss.
    if (!unavailable_disks().empty()) return false;
    const bool data = !buffer->tokens.empty();
    bool ok = true;
    for (const piece &p : pieces) {
        protocol::buffer_block *old =
            m_platform.allocate_buffer(uint64_t(p.sectors) * protocol::sector_bytes, data ? uint64_t(p.sectors) : 0);
        m_platform.check_power();
        const region_extent e = m_layout.data_location(p.lbn);
        if (!member_io(false, e.disk, uint64_t(e.drive_lbn), uint32_t(p.sectors), old, 0))
            ok = unavailable_disks().empty() && repair_piece({p.lbn, p.sectors, 0}, old, affinity) && ok;
        m_platform.free_buffer(old);
    }
    return ok && stripe_write(stripe, pieces, buffer, affinity);
}

void parity_logging_firmware::note_unread_checks(int region, const std::vector<char> &run_read,
                                                 const std::vector<char> &sublog_read) {
    region_state &r = m_regions[size_t(region)];
    // An unread check run is one unreadable member of each row it holds a check of (P of one big
    // row, Q of another, R of a third at C = 3): recorded lost on its disk as check sectors, so
    // every row decision counts it gone (gone()) and solves the row from its other checks, which
    // took the records. Before, its rows were staled whole, and a stale row with a data member
    // missing was recorded lost although only one of its checks missed records (51:210, 91:538:
    // 1,344 sectors lost within the promise). repair_stale_checks makes the run again from the
    // data (rebuild_checks_around_losses takes the record off once it is written).
    for (size_t m = 0; m < run_read.size(); ++m)
        if (!run_read[m]) record_lost(m_layout.parity_extent(region, int(m)), -1, 0);
    for (const logged_write &w : r.writes)
        if (!sublog_read[size_t(w.sublog)])
            for (const log_record &x : w.records) r.stale_images.push_back(x.image_index);
    std::sort(r.stale_images.begin(), r.stale_images.end());
    r.stale_images.erase(std::unique(r.stale_images.begin(), r.stale_images.end()), r.stale_images.end());
    r.stale_parity = true;
    m_checks_repair_due = true;
}

bool parity_logging_firmware::stale_row(int64_t lbn) const {
    const region_state &r = m_regions[size_t(m_layout.region_of(lbn))];
    if (!r.stale_parity) return false;
    const parity_logging_layout::image_row row = m_layout.row_of_image(m_layout.parity_of(lbn).image_index);
    for (int64_t image : r.stale_images) {
        const parity_logging_layout::image_row stale = m_layout.row_of_image(image);
        if (stale.q == row.q && stale.offset == row.offset) return true;
    }
    return false;
}

// Called by catch_up with the writes in flight done and the next requests held: every region a
// reintegration left stale gets its checks from its data (the data are the acknowledged writes:
// the records logged since, of every row, are in them), its log dropped. The flag stays until the
// checks are written: a power loss meanwhile has the recovery rebuild them from the log directory.
bool parity_logging_firmware::repair_stale_checks(int affinity) {
    m_checks_repair_due = false;
    bool ok = true;
    for (int region = 0; region < m_layout.regions(); ++region) {
        region_state &r = m_regions[size_t(region)];
        if (!r.stale_parity) continue;
        wait_region_idle(region);
        if (remake_checks_dropping_log(region, affinity)) ++m_stats.media_repairs;
        else ok = false;  // a data read failed too: the rows stay stale, tried at a loss
        r.reintegrating = false;
        --m_reintegrating;
        r.changed.notify(sc_core::SC_ZERO_TIME);
    }
    m_buffers_in_use = m_pool.buffers_in_use();
    return ok;
}

}  // namespace raidtlm::controller
