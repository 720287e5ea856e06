// RAID 6 (and triple-check) recovery after a power loss: the checks of every stripe a write-intent
// record names made consistent with its data again, and the rows that cannot be made so recorded
// lost (reads of them fail until rewritten).
//
// Row by row, the members that cannot give their data are the stripe's absent members (a lost
// disk, a new drive its rebuild has not reached) and the sectors that answer MEDIUM ERROR (found
// by reading the failing unit again in halves, unreadable_sectors.h). In a row:
//   - no data unit missing: the checks are recomputed from the data (the whole resync of a
//     healthy stripe, as before);
//   - one data unit missing and at least two checks readable there: the unit is rebuilt once from
//     each readable check; where they agree the row is consistent and nothing is lost; where they
//     differ a torn write left a check stale: the row is lost (unless only the missing unit itself
//     was written there: the first check's version is its old or new data, either the host's);
//   - otherwise: the missing data units are rebuilt from the readable checks where the torn
//     writes left the row unambiguous (torn_stripe_rows.h), and lost where they did not, or where
//     more data units are missing than checks are readable.
// Every unreadable row is written back (the drive reallocates the sectors on the write) and every
// readable check made to agree with the data so taken: the stripe is consistent again, so a later
// repair or rebuild of any member gives either the host's data or a row recorded lost.
//
// Before, a data unit that answered MEDIUM ERROR made the resync give up on the stripe and record
// nothing: its checks stayed torn, and a later read repaired the unreadable sectors (the whole
// chunk read, so the torn rows beside them too) from the stale checks and served them as data
// (tests/explorer_cases/wrong_data_triple_93_25.yaml: 12 wrong reads; EXPERIMENTS 19.27). RAID 4/5
// had closed the same hole for itself (raid_parity_resync.cpp, EXPERIMENTS 19.14).
#include <algorithm>
#include <map>

#include "controller/layouts/pq_parity.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/kit/torn_stripe_rows.h"

namespace raidtlm::controller {

bool raid6_firmware::resync_parity(int64_t stripe, const torn_stripe_rows &torn) {
    const parity_stripe_layout &l = *m_stripes;
    const int n = l.stripe_data_units(stripe);
    for (int attempt = 0; attempt < 4; ++attempt) {
        const std::vector<int> lost = members_on(stripe, lost_disks(stripe));
        std::vector<int> lost_data;
        for (int x : lost)
            if (x < n) lost_data.push_back(x);
        const int readable_checks = checks() - int(lost.size() - lost_data.size());
        if (!lost_data.empty() && !(lost_data.size() == 1 && readable_checks >= 2)) {
            // Too few checks left to compare: the rows the torn writes made ambiguous are lost;
            // the checks are left as they are (the rest of the missing units still rebuilds right).
            note_torn_rows_lost(stripe, torn, lost_data);
            return false;
        }
        const resync_outcome outcome = resync_rows(stripe, torn, lost);
        if (outcome != resync_outcome::member_lost) return outcome == resync_outcome::consistent;
        // A member lost meanwhile: the stripe judged again with it absent.
    }
    std::vector<int> every_data_unit;
    for (int j = 0; j < n; ++j) every_data_unit.push_back(j);
    note_torn_rows_lost(stripe, torn, every_data_unit);
    return false;
}

void raid6_firmware::note_torn_rows_lost(int64_t stripe, const torn_stripe_rows &torn,
                                         const std::vector<int> &data_units) {
    const parity_stripe_layout &l = *m_stripes;
    for (const sector_run &r : torn.rows_lost(stripe, data_units))
        for (int x : data_units)
            note_lost_range(l.stripe_first_lbn(stripe) + x * l.unit_sectors() + int64_t(r.first), int32_t(r.count));
}

raid6_firmware::resync_outcome raid6_firmware::resync_rows(int64_t stripe, const torn_stripe_rows &torn,
                                                           const std::vector<int> &absent) {
    const parity_stripe_layout &l = *m_stripes;
    const int n = l.stripe_data_units(stripe);
    const int m = checks();
    const uint64_t unit = uint64_t(l.unit_sectors());
    auto is_absent = [&](int x) { return std::find(absent.begin(), absent.end(), x) != absent.end(); };
    m_kit.locks.lock(stripe);
    const uint64_t losses = m_platform.member_losses();
    // With tokens always: the firmware cannot know after a restart whether the host sent any.
    // Slot x: member x (as read; the missing rows of data units rebuilt into it); slot n + m + i:
    // the missing data unit as check i gives it (one data unit missing in a row).
    const uint64_t slots = uint64_t(n + 2 * m);
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
    auto slot = [&](uint64_t s) { return s * unit; };
    std::vector<std::vector<sector_run>> unreadable(size_t(n + m));  // per member, rows
    auto read_member = [&](int x) {
        if (is_absent(x)) return;
        const unit_place u = member_place(stripe, x);
        if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, slot(uint64_t(x)))) return;
        unreadable[size_t(x)] = narrow_unreadable(unit, [&](uint64_t at, uint64_t count) {
            return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn) + at, uint32_t(count), work, slot(uint64_t(x)) + at);
        });
    };
    m_kit.parallel(size_t(n), [&](size_t j) {
        read_member(int(j));
        return true;
    });
    bool data_missing = false;
    for (int j = 0; j < n; ++j) data_missing = data_missing || is_absent(j) || !unreadable[size_t(j)].empty();
    // The old checks are needed only to rebuild data; a healthy stripe's are just rewritten.
    if (data_missing)
        m_kit.parallel(size_t(m), [&](size_t k) {
            read_member(n + int(k));
            return true;
        });
    auto finish = [&](resync_outcome o) {
        m_platform.free_buffer(work);
        m_kit.locks.unlock(stripe);
        return o;
    };
    if (m_platform.member_losses() != losses) return finish(resync_outcome::member_lost);

    // The members missing in each row, and runs of rows missing the same ones.
    auto missing_in_row = [&](uint64_t row) {
        std::vector<int> missing;
        for (int x = 0; x < n + m; ++x)
            if (is_absent(x) || in_runs(unreadable[size_t(x)], row)) missing.push_back(x);
        return missing;
    };
    auto lost_rows = std::vector<std::vector<sector_run>>(size_t(n));  // per data unit
    bool checks_compared_and_agreed = true;
    bool compared = false;
    // Member `target` of rows [first, first + count) rebuilt without the members `missing` into `output`.
    auto rebuild_rows = [&](const std::vector<int> &missing, int target, uint64_t first, uint64_t count,
                            uint64_t output) {
        const std::vector<uint8_t> all = pq::erasure_coefficients(n, m, missing, target);
        std::vector<protocol::buffer_ref> inputs;
        std::vector<uint8_t> coefficients;
        for (int x = 0; x < n + m; ++x)
            if (all[size_t(x)] != 0) {
                inputs.push_back({work, slot(uint64_t(x)) + first});
                coefficients.push_back(all[size_t(x)]);
            }
        combine(inputs, coefficients, {work, output + first}, count, 0);
    };
    for (uint64_t first = 0; first < unit;) {
        const std::vector<int> missing = missing_in_row(first);
        uint64_t count = 1;
        while (first + count < unit && missing_in_row(first + count) == missing) ++count;
        std::vector<int> data, readable_checks;
        for (int x : missing)
            if (x < n) data.push_back(x);
        for (int k = 0; k < m; ++k)
            if (std::find(missing.begin(), missing.end(), n + k) == missing.end()) readable_checks.push_back(k);
        if (data.empty()) {
            // Nothing to rebuild: the checks are recomputed below.
        } else if (data.size() > readable_checks.size()) {
            for (int d : data) add_run(lost_rows[size_t(d)], first, count);
        } else if (data.size() == 1 && readable_checks.size() >= 2) {
            // The unit once from each readable check alone (every other check counted missing).
            const int d = data.front();
            compared = true;
            for (size_t i = 0; i < readable_checks.size(); ++i) {
                std::vector<int> without = missing;
                for (int k = 0; k < m; ++k)
                    if (k != readable_checks[i] && std::find(without.begin(), without.end(), n + k) == without.end())
                        without.push_back(n + k);
                std::sort(without.begin(), without.end());
                rebuild_rows(without, d, first, count, slot(uint64_t(n + m) + i));
            }
            const std::vector<sector_run> own_rows_ambiguous = torn.rows_lost(stripe, {d});
            const std::vector<sector_run> own_rows_written = torn.written(stripe, d);
            for (uint64_t row = first; row < first + count; ++row) {
                const uint64_t version0 = work->tokens[size_t(slot(uint64_t(n + m)) + row)];
                bool same = true;
                for (size_t i = 1; i < readable_checks.size(); ++i)
                    same = same && work->tokens[size_t(slot(uint64_t(n + m) + i) + row)] == version0;
                // The first check's version taken either way: the other checks are made to agree.
                work->tokens[size_t(slot(uint64_t(d)) + row)] = version0;
                if (same) continue;
                checks_compared_and_agreed = false;
                // Only the unit itself written in the row: the first check's version is its old or new data.
                const bool own_write_only = in_runs(own_rows_written, row) && !in_runs(own_rows_ambiguous, row);
                if (!own_write_only) add_run(lost_rows[size_t(d)], row, 1);
            }
        } else {
            const std::vector<sector_run> ambiguous = torn.rows_lost(stripe, data);
            for (int d : data) {
                rebuild_rows(missing, d, first, count, slot(uint64_t(d)));
                for (uint64_t row = first; row < first + count; ++row)
                    if (in_runs(ambiguous, row)) add_run(lost_rows[size_t(d)], row, 1);
            }
        }
        first += count;
    }

    // The checks as the data (so taken) give them. Where a data unit was missing, a check already
    // agreeing is not rewritten (before this change a resync that compared equal wrote nothing).
    auto old_checks = std::vector<std::vector<uint64_t>>(size_t(m));
    for (int k = 0; k < m; ++k)
        old_checks[size_t(k)].assign(work->tokens.begin() + int64_t(slot(uint64_t(n + k))),
                                     work->tokens.begin() + int64_t(slot(uint64_t(n + k + 1))));
    std::vector<protocol::buffer_ref> data_refs;
    for (int j = 0; j < n; ++j) data_refs.push_back({work, slot(uint64_t(j))});
    std::vector<int> writes;  // members written
    for (int j = 0; j < n; ++j)
        if (!unreadable[size_t(j)].empty()) writes.push_back(j);
    for (int k = 0; k < m; ++k) {
        const int member = n + k;
        if (is_absent(member)) continue;
        std::vector<uint8_t> c;
        for (int j = 0; j < n; ++j) c.push_back(pq::check_coefficient(k, j));
        combine(data_refs, c, {work, slot(uint64_t(member))}, unit, 0);
        const bool differs = !std::equal(old_checks[size_t(k)].begin(), old_checks[size_t(k)].end(),
                                         work->tokens.begin() + int64_t(slot(uint64_t(member))));
        if (!data_missing || differs || !unreadable[size_t(member)].empty()) writes.push_back(member);
    }
    const bool ok = m_kit.parallel(writes.size(), [&](size_t i) {
        const int x = writes[i];
        const unit_place u = member_place(stripe, x);
        if (x >= n || unreadable[size_t(x)].empty())
            return m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, slot(uint64_t(x)));
        // A data unit: only its unreadable rows (the rest is on the drive already).
        for (const sector_run &r : unreadable[size_t(x)])
            if (!m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn) + r.first, uint32_t(r.count), work,
                               slot(uint64_t(x)) + r.first))
                return false;
        return true;
    });
    const bool member_lost = m_platform.member_losses() != losses;
    finish(resync_outcome::consistent);
    bool any_lost = false;
    if (!ok && !member_lost) {  // a write refused with no member lost: unknown where torn or unreadable
        std::vector<int> every_data_unit;
        for (int j = 0; j < n; ++j) every_data_unit.push_back(j);
        note_torn_rows_lost(stripe, torn, every_data_unit);
        for (int j = 0; j < n; ++j)
            for (const sector_run &r : unreadable[size_t(j)]) add_run(lost_rows[size_t(j)], r.first, r.count);
        any_lost = true;
    }
    // Recorded even when a member was lost during the writes: a lost row may have been written
    // back with a guess, and the next attempt would read it as data.
    for (int j = 0; j < n; ++j)
        for (const sector_run &r : lost_rows[size_t(j)]) {
            any_lost = true;
            note_lost_range(l.stripe_first_lbn(stripe) + j * int64_t(unit) + int64_t(r.first), int32_t(r.count));
        }
    if (member_lost) return resync_outcome::member_lost;
    for (int j = 0; j < n; ++j)
        if (!unreadable[size_t(j)].empty()) ++m_stats.media_repairs;
    if (compared && checks_compared_and_agreed && !any_lost) ++m_raid6_stats.resyncs_checks_agreed;
    return any_lost ? resync_outcome::rows_lost : resync_outcome::consistent;
}

}  // namespace raidtlm::controller
