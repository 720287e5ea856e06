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

#include "controller/layouts/pq_parity.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/layouts/raid6_layout.h"
#include "controller/kit/unreadable_sectors.h"

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

// One stripe's unit of member `disk`, row by row where it must be: the rows are solved from the
// members the recovery coefficients of the stripe's unreadable members name (each read whole once);
// rows where one of those answered MEDIUM ERROR (narrowed to the sectors: unreadable_sectors.h)
// are solved again with it unreadable too, and rows with more unreadable members than checks are
// lost, sector by sector: the target's and every unreadable data member's rows there (before, a
// MEDIUM ERROR of 4 sectors beyond the checks lost two whole units, 128 sectors).
bool raid6_firmware::rebuild_stripe_unit(int disk, int64_t s) {
    const parity_stripe_layout &l = *m_stripes;
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int n = l.stripe_data_units(s);
    const int members = n + checks();
    const int target = member_on_disk(s, disk);
    m_kit.locks.lock(s);
    // With tokens always: the rebuild cannot know whether the host ever sent any.
    // Slot m: member m's unit; slot `members`: the rebuilt unit.
    protocol::buffer_block *work =
        m_platform.allocate_buffer(uint64_t(members + 1) * unit * protocol::sector_bytes, uint64_t(members + 1) * unit);
    auto slot = [&](int m, uint64_t row) { return protocol::buffer_ref{work, uint64_t(m) * unit + row}; };
    struct rows_to_solve {
        uint64_t first, count;
        std::vector<int> unreadable;  // the members unreadable over these rows, the target among them
    };
    std::vector<rows_to_solve> lost_rows;
    bool solved_any = false, done = false;
    // A disk lost during the step changes the stripe's unreadable members: the step starts again
    // (at most once per disk).
    for (int attempt = 0; attempt <= m_platform.disk_count() && !done; ++attempt) {
        lost_rows.clear();
        solved_any = false;
        std::vector<bool> read(size_t(members), false);
        std::vector<std::vector<sector_run>> bad(static_cast<size_t>(members));
        bool disk_gone = false;
        std::vector<rows_to_solve> todo = {{0, unit, unreadable_members(s, {})}};
        while (!todo.empty() && !disk_gone) {
            const rows_to_solve job = todo.back();
            todo.pop_back();
            if (job.unreadable.size() > size_t(checks())) {
                lost_rows.push_back(job);
                continue;
            }
            const std::vector<uint8_t> all = pq::erasure_coefficients(n, checks(), job.unreadable, target);
            std::vector<int> needed, to_read;
            std::vector<uint8_t> coefficients;
            for (int m = 0; m < members; ++m)
                if (all[size_t(m)] != 0) {
                    needed.push_back(m);
                    coefficients.push_back(all[size_t(m)]);
                    if (!read[size_t(m)]) to_read.push_back(m);
                }
            m_kit.parallel(to_read.size(), [&](size_t k) {
                const int m = to_read[k];
                const unit_place u = member_place(s, m);
                read[size_t(m)] = true;
                if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, uint64_t(m) * unit)) return true;
                if (disk_lost(s, u.disk)) {
                    disk_gone = true;
                    return false;
                }
                bad[size_t(m)] = narrow_unreadable(unit, [&](uint64_t at, uint64_t count) {
                    return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn) + at, uint32_t(count), work,
                                         uint64_t(m) * unit + at);
                });
                disk_gone = disk_gone || disk_lost(s, u.disk);
                return true;
            });
            if (disk_gone) break;
            // The job's rows in runs by which needed members cannot give them: none, solved here;
            // some, solved again with those unreadable too.
            auto unreadable_at = [&](uint64_t row) {
                std::vector<int> at;
                for (int m : needed)
                    if (in_runs(bad[size_t(m)], row)) at.push_back(m);
                return at;
            };
            for (uint64_t row = job.first; row < job.first + job.count;) {
                const std::vector<int> at = unreadable_at(row);
                uint64_t end = row + 1;
                while (end < job.first + job.count && unreadable_at(end) == at) ++end;
                if (at.empty()) {
                    std::vector<protocol::buffer_ref> inputs;
                    for (int m : needed) inputs.push_back(slot(m, row));
                    combine(inputs, coefficients, slot(members, row), end - row, 0);
                    solved_any = true;
                } else {
                    std::vector<int> more = job.unreadable;
                    more.insert(more.end(), at.begin(), at.end());
                    std::sort(more.begin(), more.end());
                    todo.push_back({row, end - row, more});
                }
                row = end;
            }
        }
        if (disk_gone) continue;
        done = true;
    }
    // The new drive lost meanwhile: nothing lost but the rebuild's progress.
    const bool target_there = m_platform.member_state_of(disk) == member_state::rebuilding;
    bool written = false;
    if (done && target_there && solved_any) {
        const unit_place u = member_place(s, target);
        written = m_kit.disk_io(true, disk, uint64_t(u.drive_lbn), uint32_t(unit), work, uint64_t(members) * unit);
    }
    // Rows beyond the checks (or the whole unit, when the step could not write it) with the new
    // drive still there: their unreadable data members' sectors are reported lost, so reads of
    // them fail until rewritten: once the cursor passes, the unit counts as present, and a check
    // row left as the new drive held it would otherwise rebuild wrong data (before, a lost check's
    // failed rebuild recorded nothing and reads of a lost data unit were rebuilt from it: the
    // triple family of scripts/soak_faults, 24 integrity errors).
    if (target_there) {
        if (done && !written && solved_any) lost_rows = {{0, unit, unreadable_members(s, {})}};
        if (!done) lost_rows = {{0, unit, unreadable_members(s, {})}};
        for (const rows_to_solve &r : lost_rows)
            for (int m : r.unreadable)
                if (m < n)
                    note_lost_range(l.stripe_first_lbn(s) + m * l.unit_sectors() + int64_t(r.first), int32_t(r.count));
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(s);
    return written && lost_rows.empty();
}

}  // namespace raidtlm::controller
