// RAID 6 rebuild of a replaced member (raid6_firmware.h): stripe by stripe, in the background,
// against the foreground I/O. Each stripe, under its lock: the members its recovery coefficients
// name read (the whole unit), the member's unit computed by one engine command (XOR from P when
// only it is missing, the GF mode when two members are), written to the new drive; then the
// cursor passes the stripe, so from there on reads and writes treat the unit as the member's.
// With two members being rebuilt (or one rebuilt and one still failed) every stripe is rebuilt
// from the other n members. A survivor's MEDIUM ERROR joins the missing members for the stripe
// (RAID 6 rebuilds one member past a second fault); a third missing member loses the unit.
#include <algorithm>

#include "controller/pq_parity.h"
#include "controller/raid6_firmware.h"
#include "controller/raid6_layout.h"

namespace raidtlm::controller {

bool raid6_firmware::start_rebuild(int disk) {
    // The member must be rebuildable: at most two members unavailable, counting it.
    int unavailable = 0;
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) != member_state::optimal) ++unavailable;
    if (unavailable > 2) return false;
    m_rebuilt_below[size_t(disk)] = 0;
    raid6_statistics::rebuild r;
    r.disk = disk;
    r.start_ms = m_platform.now_ms();
    r.stripes = dynamic_cast<const raid6_layout &>(*m_stripes).stripes();
    r.other_members_lost = unavailable - 1;
    m_raid6_stats.rebuilds.push_back(r);
    const size_t record = m_raid6_stats.rebuilds.size() - 1;
    m_platform.run_background([this, disk, record] { rebuild_member(disk, record); });
    return true;
}

size_t raid6_firmware::restart_after_power_loss() {
    const size_t resynced = raid_firmware::restart_after_power_loss();
    for (size_t i = 0; i < m_raid6_stats.rebuilds.size(); ++i) {
        const int disk = m_raid6_stats.rebuilds[i].disk;
        if (m_raid6_stats.rebuilds[i].end_ms < 0 && m_platform.member_state_of(disk) == member_state::rebuilding)
            m_platform.run_background([this, disk, i] { rebuild_member(disk, i); });
    }
    return resynced;
}

void raid6_firmware::rebuild_member(int disk, size_t record) {
    const parity_stripe_layout &l = *m_stripes;
    const int64_t stripes = m_raid6_stats.rebuilds[record].stripes;
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(0);
    protocol::buffer_block *work = nullptr;
    for (int64_t s = m_rebuilt_below[size_t(disk)]; s < stripes; ++s) {
        // The new drive lost too: the member is failed again, the rebuild over.
        if (m_platform.member_state_of(disk) != member_state::rebuilding) return;
        m_kit.locks.lock(s);
        const int target = member_on_disk(s, disk);
        std::vector<int> media_errors;
        bool done = false;
        for (int attempt = 0; attempt < 3 && !done; ++attempt) {
            const std::vector<int> lost = unreadable_members(s, media_errors);
            if (lost.size() > 2) break;
            const std::vector<uint8_t> all =
                pq::recovery_coefficients(n, lost.at(0), lost.size() > 1 ? lost[1] : -1, target);
            std::vector<int> needed;
            std::vector<uint8_t> coefficients;
            for (int m = 0; m < n + 2; ++m)
                if (all[size_t(m)] != 0) {
                    needed.push_back(m);
                    coefficients.push_back(all[size_t(m)]);
                }
            // Slot k: needed member k; the last slot the rebuilt unit.
            const uint64_t slots = needed.size() + 1;
            work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
            int failed = -1;
            bool ok = m_kit.parallel(needed.size(), [&](size_t k) {
                const unit_place u = member_place(s, needed[k]);
                if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, k * unit)) return true;
                failed = u.disk;
                return false;
            });
            if (ok) {
                std::vector<protocol::buffer_ref> inputs;
                for (size_t k = 0; k < needed.size(); ++k) inputs.push_back({work, k * unit});
                combine(inputs, coefficients, {work, needed.size() * unit}, unit, 0);
                const unit_place u = member_place(s, target);
                done = m_kit.disk_io(true, disk, uint64_t(u.drive_lbn), uint32_t(unit), work, needed.size() * unit);
            }
            m_platform.free_buffer(work);
            work = nullptr;
            if (done || failed < 0) break;
            if (!disk_lost(s, failed)) media_errors.push_back(failed);  // a MEDIUM ERROR on a survivor
        }
        if (!done) record_lost_members(s, {target});
        m_rebuilt_below[size_t(disk)] = s + 1;
        m_kit.locks.unlock(s);
        // Progress in about 256 steps (the waves' rebuild_pct, stats).
        if ((s + 1) % std::max<int64_t>(1, stripes / 256) == 0 || s + 1 == stripes)
            m_platform.rebuild_progress(disk, double(s + 1) / double(stripes));
    }
    m_raid6_stats.rebuilds[record].end_ms = m_platform.now_ms();
    m_platform.member_rebuilt(disk);
}

}  // namespace raidtlm::controller
