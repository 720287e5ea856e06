// RAID 6 rebuild of a replaced member (raid6_firmware.h), one stripe at a time as the RAID
// firmware's rebuild_runner asks (paced against foreground I/O: controller.rebuild_share,
// rebuild_rate_mb_s). Each stripe, under its lock: the members its recovery coefficients name read
// (the whole unit), the member's unit computed by one engine command (XOR from P when only it is
// missing, the GF mode when more members are), written to the new drive; then the runner's cursor
// passes the stripe, and from there on reads and writes treat the unit as the member's. With as
// many members missing as checks (being rebuilt, or still failed) every stripe is rebuilt from
// the other n members. A survivor's MEDIUM ERROR joins the missing members for the stripe (RAID 6
// rebuilds one member past a second fault); one more missing member than checks loses the unit.
#include <algorithm>

#include "controller/pq_parity.h"
#include "controller/raid6_firmware.h"
#include "controller/raid6_layout.h"

namespace raidtlm::controller {

bool raid6_firmware::start_rebuild(int disk) {
    // The member must be rebuildable: at most as many members unavailable as checks, counting it.
    int unavailable = 0;
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) != member_state::optimal) ++unavailable;
    if (unavailable > checks()) return false;
    m_rebuild.start(disk, uint64_t(dynamic_cast<const raid6_layout &>(*m_stripes).stripes()));
    return true;
}

bool raid6_firmware::rebuild_stripe_unit(int disk, int64_t s) {
    const parity_stripe_layout &l = *m_stripes;
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(s);
    const int target = member_on_disk(s, disk);
    m_kit.locks.lock(s);
    std::vector<int> media_errors;
    std::vector<int> unreadable = {target};  // the stripe's unreadable members at the last try
    bool done = false;
    for (int attempt = 0; attempt < 3 && !done; ++attempt) {
        const std::vector<int> lost = unreadable_members(s, media_errors);
        unreadable = lost;
        if (lost.size() > size_t(checks())) break;
        const std::vector<uint8_t> all = pq::erasure_coefficients(n, checks(), lost, target);
        std::vector<int> needed;
        std::vector<uint8_t> coefficients;
        for (int m = 0; m < n + checks(); ++m)
            if (all[size_t(m)] != 0) {
                needed.push_back(m);
                coefficients.push_back(all[size_t(m)]);
            }
        // With tokens always: the rebuild cannot know whether the host ever sent any.
        // Slot k: needed member k; the last slot the rebuilt unit.
        const uint64_t slots = needed.size() + 1;
        protocol::buffer_block *work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
        int failed = -1;
        const bool read = m_kit.parallel(needed.size(), [&](size_t k) {
            const unit_place u = member_place(s, needed[k]);
            if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, k * unit)) return true;
            failed = u.disk;
            return false;
        });
        if (read) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k = 0; k < needed.size(); ++k) inputs.push_back({work, k * unit});
            combine(inputs, coefficients, {work, needed.size() * unit}, unit, 0);
            const unit_place u = member_place(s, target);
            done = m_kit.disk_io(true, disk, uint64_t(u.drive_lbn), uint32_t(unit), work, needed.size() * unit);
        }
        m_platform.free_buffer(work);
        if (done || failed < 0) break;
        if (!disk_lost(s, failed)) media_errors.push_back(failed);  // a MEDIUM ERROR on a survivor
    }
    // Not rebuilt with the new drive still there: the stripe is beyond its checks. Its unreadable
    // data units (the target too, if it is one) are reported lost, so reads of them fail until
    // rewritten: once the cursor passes, the unit counts as present, and a check unit left as
    // the new drive held it would otherwise rebuild wrong data (before, a lost check's failed
    // rebuild recorded nothing and reads of a lost data unit were rebuilt from it: the triple
    // family of scripts/soak_faults, 24 integrity errors). The new drive lost meanwhile: nothing
    // lost but the rebuild's progress.
    if (!done && m_platform.member_state_of(disk) == member_state::rebuilding) {
        std::vector<int> lost_data;
        for (int m : unreadable)
            if (m < n) lost_data.push_back(m);
        record_lost_members(s, lost_data);
    }
    m_kit.locks.unlock(s);
    return done;
}

}  // namespace raidtlm::controller
