// RAID 4/5 recovery after a power loss: the write hole closed. A write torn by the loss may have
// reached some of its stripe's disks and not others, so the stripe's parity no longer matches its
// data; a later disk loss would then rebuild wrong data for sectors the host wrote long ago.
// Every stripe a write-intent record names is resynchronised before the firmware serves again:
// all its data units read, their XOR written as the parity (the whole unit: consistent rows are
// rewritten unchanged).
//
// A stripe missing a member (a lost disk, or a new drive its rebuild has not reached) cannot be
// resynchronised: the missing unit exists only as the parity's sum over the others. Its rows the
// torn writes made ambiguous are lost, sector by sector (torn_stripe_rows.h), and reads of them
// fail until rewritten; the parity is left as it is, so the rest of the unit still rebuilds
// right. Before, a member being rebuilt was not counted missing: its new drive's blank rows went
// into the recomputed parity and the member's data were served as zeros (EXPERIMENTS 19.10).
//
// The rebuild cursors are taken from their NVRAM checkpoints before the stripes are judged, and
// the rebuilds go on only after: a rebuild step must not copy a torn parity onto the new drive
// before its stripe's loss is recorded.
//
// A second fault during the resync: a data unit whose read answers MEDIUM ERROR (a torn stripe
// with an unreadable member is beyond one check) is narrowed to its unreadable sectors; in those
// rows the unit is missing, so the torn writes' rules above say which rows are lost (and every
// row with two members unreadable). Every unreadable row is written back as the parity XOR the
// other units (the drive reallocates the sectors on the write): the lost ones so that the stripe
// is consistent again and a later loss of another member rebuilds that member's rows right, the
// others because that is their data. Before, the resync gave up on the stripe and recorded
// nothing: the torn parity stayed, the unit's rows were later repaired from it and a lost
// member's rebuilt from it, served as good data (tests/explorer_cases/wrong_data_floating_21_41:
// 24 wrong reads; EXPERIMENTS 19.14). A member lost while the stripe is being resynchronised:
// the stripe is judged again with it absent.
#include "controller/families/raid/raid_firmware.h"
#include "controller/kit/torn_stripe_rows.h"

namespace raidtlm::controller {

size_t raid_firmware::restart_after_power_loss() {
    m_kit.restart();
    m_order.clear();  // the reads from before the loss are gone, and the writes that waited for them
    const auto records = write_intent_log::read(m_platform);
    m_rebuild.resume_all();  // the cursors were in volatile memory: where the checkpoints say
    size_t resynced = 0;
    if (m_stripes) {
        // A write recorded while every member was present may have been a read-rotate-write.
        const bool read_rotate_writes =
            m_always_read_rotate_write || m_platform.config().firmware.parity_writes.read_rotate_write;
        torn_stripe_rows torn(*m_stripes, read_rotate_writes);
        for (const auto &[address, r] : records) torn.add_write(int64_t(r.lbn), int64_t(r.sectors));
        for (int64_t s : torn.stripes()) resynced += resync_parity(s, torn) ? 1 : 0;
    }
    // The records are done with once their stripes are consistent again (or their loss recorded).
    for (const auto &[address, r] : records) m_platform.nvram_release(address);
    m_stats.resynced_stripes += resynced;
    m_rebuild.start_all();
    return resynced;
}

bool raid_firmware::resync_parity(int64_t stripe, const torn_stripe_rows &torn) {
    for (int attempt = 0; attempt < 4; ++attempt) {
        const uint64_t losses = m_platform.member_losses();
        const bool ok = resync_stripe(stripe, torn);
        if (ok || m_platform.member_losses() == losses) return ok;
    }
    return false;
}

bool raid_firmware::resync_stripe(int64_t stripe, const torn_stripe_rows &torn) {
    const parity_stripe_layout &l = *m_stripes;
    const unit_place parity = l.parity_unit(stripe);
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(stripe);
    std::vector<int> absent;
    absent_in_stripe(stripe, absent);
    std::vector<int> missing_data;  // data unit indices
    for (int d : absent)
        if (l.unit_on_disk(stripe, d) >= 0) missing_data.push_back(l.unit_on_disk(stripe, d));
    if (!missing_data.empty()) {
        // The missing units' rows the torn writes made ambiguous are lost; nothing is rewritten.
        for (const sector_run &r : torn.rows_lost(stripe, missing_data))
            for (int j : missing_data)
                note_lost_range(l.stripe_first_lbn(stripe) + j * int64_t(unit) + int64_t(r.first), int32_t(r.count));
        return false;
    }
    if (!absent.empty()) return false;  // the parity missing: nothing to make consistent
    m_kit.locks.lock(stripe);
    // With tokens always: the firmware cannot know after a restart whether the host sent any.
    // Slot 0 the new parity, slot 1 + j data unit j, slot 1 + n the old parity (read only when a
    // data unit is unreadable).
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(n + 2) * unit * protocol::sector_bytes, uint64_t(n + 2) * unit);
    const uint64_t losses = m_platform.member_losses();
    std::vector<char> unreadable(size_t(n), 0);
    bool ok = m_kit.parallel(size_t(n), [&](size_t j) {
        const unit_place u = l.data_unit(stripe, int(j));
        unreadable[j] = !m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, (1 + j) * unit);
        return !unreadable[j];
    });
    if (!ok && m_platform.member_losses() == losses) ok = resync_unreadable_rows(stripe, torn, unreadable, work, {unit, (1 + uint64_t(n)) * unit, 0});
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (int j = 0; j < n; ++j) inputs.push_back({work, (1 + uint64_t(j)) * unit});
        m_kit.xor_blocks(inputs, {work, 0}, unit, 0);
        ok = m_kit.disk_io(true, parity.disk, uint64_t(parity.drive_lbn), uint32_t(unit), work, 0);
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

bool raid_firmware::resync_unreadable_rows(int64_t stripe, const torn_stripe_rows &torn,
                                           const std::vector<char> &unreadable, protocol::buffer_block *work,
                                           const resync_slots &slots) {
    const parity_stripe_layout &l = *m_stripes;
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(stripe);
    const uint64_t old_parity_slot = slots.old_parity;
    auto data_slot = [&](int j) { return slots.first_data + uint64_t(j) * unit; };
    const uint64_t losses = m_platform.member_losses();
    // The unreadable sectors of each data unit (the readable ones read into its slot on the way)
    // and of the old parity.
    std::vector<std::vector<sector_run>> bad(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) {
        if (!unreadable[size_t(j)]) continue;
        const unit_place u = l.data_unit(stripe, j);
        bad[size_t(j)] = narrow_unreadable(unit, [&](uint64_t at, uint64_t count) {
            return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn) + at, uint32_t(count), work, data_slot(j) + at);
        });
    }
    const unit_place p = l.parity_unit(stripe);
    std::vector<sector_run> parity_bad;
    if (!m_kit.disk_io(false, p.disk, uint64_t(p.drive_lbn), uint32_t(unit), work, old_parity_slot))
        parity_bad = narrow_unreadable(unit, [&](uint64_t at, uint64_t count) {
            return m_kit.disk_io(false, p.disk, uint64_t(p.drive_lbn) + at, uint32_t(count), work, old_parity_slot + at);
        });
    if (m_platform.member_losses() != losses) return false;  // judged again with the member absent
    for (int j = 0; j < n; ++j) {
        const std::vector<sector_run> &rows = bad[size_t(j)];
        if (rows.empty()) continue;
        ++m_stats.media_repairs;
        // The unit's rows as the parity gives them: old parity XOR the other units.
        std::vector<protocol::buffer_ref> inputs{{work, old_parity_slot}};
        for (int k = 0; k < n; ++k)
            if (k != j) inputs.push_back({work, data_slot(k)});
        m_kit.xor_blocks(inputs, {work, slots.scratch}, unit, 0);
        const std::vector<sector_run> ambiguous = torn.rows_lost(stripe, {j});
        std::vector<sector_run> lost;
        for (const sector_run &r : rows)
            for (uint64_t row = r.first; row < r.first + r.count; ++row) {
                int missing = in_runs(parity_bad, row) ? 1 : 0;
                for (const auto &b : bad) missing += in_runs(b, row) ? 1 : 0;
                if (missing > 1 || in_runs(ambiguous, row)) add_run(lost, row, 1);
                work->tokens[size_t(data_slot(j) + row)] = work->tokens[size_t(slots.scratch + row)];
            }
        for (const sector_run &r : lost)
            note_lost_range(l.stripe_first_lbn(stripe) + j * int64_t(unit) + int64_t(r.first), int32_t(r.count));
        const unit_place u = l.data_unit(stripe, j);
        for (const sector_run &r : rows)
            if (!m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn) + r.first, uint32_t(r.count), work,
                               data_slot(j) + r.first))
                return false;
    }
    return true;
}

}  // namespace raidtlm::controller
