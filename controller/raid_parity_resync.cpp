// RAID 4/5 recovery after a power loss: the write hole closed. A write torn by the loss may have
// reached some of its stripe's disks and not others, so the stripe's parity no longer matches its
// data; a later disk loss would then rebuild wrong data for sectors the host wrote long ago.
// Every stripe a write-intent record names is resynchronised before the firmware serves again:
// all its data units read, their XOR written as the parity (the whole unit: the torn write's
// rows are not known more finely than its range). A stripe that already lost a disk cannot be
// resynchronised: its lost unit's contents are gone (the classic write hole), reported as lost.
#include <set>

#include "controller/raid_firmware.h"

namespace raidtlm::controller {

size_t raid_firmware::restart_after_power_loss() {
    m_kit.restart();
    m_order.clear();  // the reads from before the loss are gone, and the writes that waited for them
    const auto records = write_intent_log::read(m_platform);
    std::set<int64_t> stripes;
    if (m_stripes)
        for (const auto &[address, r] : records) {
            const int64_t first = m_stripes->stripe_of(int64_t(r.lbn));
            const int64_t last = m_stripes->stripe_of(int64_t(r.lbn + r.sectors - 1));
            for (int64_t s = first; s <= last; ++s) stripes.insert(s);
        }
    size_t resynced = 0;
    for (int64_t s : stripes) resynced += resync_parity(s) ? 1 : 0;
    // The records are done with once their stripes are consistent again.
    for (const auto &[address, r] : records) m_platform.nvram_release(address);
    m_stats.resynced_stripes += resynced;
    m_rebuild.restart_all();  // the cursors were in volatile memory
    return resynced;
}

bool raid_firmware::resync_parity(int64_t stripe) {
    const parity_stripe_layout &l = *m_stripes;
    const int lost = m_platform.failed_disk();
    const unit_place parity = l.parity_unit(stripe);
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(stripe);
    const int lost_unit = lost >= 0 ? l.unit_on_disk(stripe, lost) : -2;
    if (lost_unit >= 0) {
        // The lost data unit cannot be told from the others: its sectors are lost.
        record_lost_stripe_rows(stripe, lost);
        return false;
    }
    if (lost_unit == -1) return false;  // no parity to make consistent
    m_kit.locks.lock(stripe);
    // With tokens always: the firmware cannot know after a restart whether the host sent any.
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(n + 1) * unit * protocol::sector_bytes, uint64_t(n + 1) * unit);
    // Slot 0 the new parity, slot 1 + j data unit j.
    bool ok = m_kit.parallel(size_t(n), [&](size_t j) {
        const unit_place u = l.data_unit(stripe, int(j));
        return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, (1 + j) * unit);
    });
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

}  // namespace raidtlm::controller
