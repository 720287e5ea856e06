// RAID 4/5 and AdaptRaid5 members: which units of a stripe hold their member's data, a rebuild
// onto a replacement drive stripe by stripe, and the stripes lost to a second loss.
//
// A member is rebuilt in stripe order (rebuild_runner, one unit: the member's stripe unit of one
// stripe). Below the cursor the new drive holds the member's data and is read and written as
// any member; at or above it the member counts as lost for reads (rebuilt from the others) and
// a write there is a degraded stripe write that also writes the new drive's rows. The rebuild of
// a stripe holds the stripe's lock, so no write of it comes between its reads and its write.
//
// A stripe missing two members (a failed one and one failed or not yet rebuilt there) has lost
// its data: every such stripe is recorded when the loss is noticed (m_lost_stripes, runs of
// stripes that lost the same members; lost_ranges reports their data units on those members),
// and host requests that touch it fail. Its members stay absent from it for good, though their
// rebuilds run past it and end optimal: their new drives never received its data.
#include <algorithm>
#include <functional>
#include <limits>

#include "controller/families/raid/raid_firmware.h"
#include "controller/kit/unreadable_sectors.h"

namespace raidtlm::controller {

bool raid_firmware::all_optimal() const {
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) != member_state::optimal) return false;
    return true;
}

int64_t raid_firmware::stripe_count() const { return m_stripes->stripe_of(m_stripes->capacity_sectors() - 1) + 1; }

void raid_firmware::absent_in_stripe(int64_t stripe, std::vector<int> &out) const {
    out.clear();
    // A lost stripe's members stay absent from it whatever their state: the drives now in their
    // slots were rebuilt past it (the rebuild could not give them its data, and moved on) and hold
    // nothing of it, so a read planned before the loss and served after it must not read them
    // once they count optimal (before: their empty units served as data; EXPERIMENTS 19.17).
    const std::vector<int> *lost = m_lost_stripes.absent_of(stripe);
    if (!lost && all_optimal()) return;
    for (const unit_place &u : m_stripes->units_by_disk(stripe))
        if (!m_rebuild.present(u.disk, uint64_t(stripe)) ||
            (lost && std::find(lost->begin(), lost->end(), u.disk) != lost->end()))
            out.push_back(u.disk);
}

bool raid_firmware::absent_as_planned(int64_t stripe, int lost) const {
    std::vector<int> absent;
    absent_in_stripe(stripe, absent);
    return std::all_of(absent.begin(), absent.end(), [&](int d) { return d == lost; });
}

void raid_firmware::notice_losses() {
    std::vector<int> failed = m_platform.failed_disks();
    if (failed == m_known_failed) return;
    const bool more = std::any_of(failed.begin(), failed.end(), [&](int d) {
        return std::find(m_known_failed.begin(), m_known_failed.end(), d) == m_known_failed.end();
    });
    m_known_failed = std::move(failed);
    if (!more || !m_stripes) return;
    // A new loss: every stripe that now misses two members has lost its data.
    std::vector<int> absent;
    for (int64_t s = 0, n = stripe_count(); s < n; ++s) {
        if (m_stripes_in_rebuild.count(s)) continue;
        absent_in_stripe(s, absent);
        if (absent.size() > 1) lose_stripe(s, absent);
    }
}

void raid_firmware::lose_stripe(int64_t stripe, const std::vector<int> &absent) {
    m_lost_stripes.add(stripe, absent);
}

void raid_firmware::for_each_lost_range(const std::function<void(int64_t, int64_t)> &f) const {
    // Two streams in address order, merged by their first sector: the noted ranges, and the lost
    // stripes' data units on their absent members (a stripe's data are logically contiguous and
    // stripes follow each other, so stripe by stripe and unit by unit is address order).
    auto noted = m_lost_noted.begin();
    const auto emit_noted_before = [&](int64_t lbn) {
        for (; noted != m_lost_noted.end() && noted->first < lbn; ++noted) f(noted->first, noted->second);
    };
    if (m_stripes) {
        const int64_t unit = m_stripes->unit_sectors();
        std::vector<int> units;
        for (const auto &[first_stripe, run] : m_lost_stripes)
            for (int64_t s = run.first; s < run.end; ++s) {
                units.clear();
                for (int d : run.disks)
                    if (const int j = m_stripes->unit_on_disk(s, d); j >= 0) units.push_back(j);
                std::sort(units.begin(), units.end());
                for (int j : units) {
                    const int64_t lbn = m_stripes->stripe_first_lbn(s) + j * unit;
                    emit_noted_before(lbn);
                    f(lbn, lbn + unit);
                }
            }
    }
    emit_noted_before(std::numeric_limits<int64_t>::max());
}

std::vector<std::pair<int64_t, int64_t>> raid_firmware::lost_ranges() const {
    std::vector<std::pair<int64_t, int64_t>> merged;  // [first, sectors]
    for_each_lost_range([&](int64_t first, int64_t end) {
        if (!merged.empty() && merged.back().first + merged.back().second >= first)
            merged.back().second = std::max(merged.back().second, end - merged.back().first);
        else
            merged.emplace_back(first, end - first);
    });
    return merged;
}

bool raid_firmware::touches_lost_stripe(uint64_t lbn, uint32_t sectors) const {
    if (m_lost_stripes.empty()) return false;
    return m_lost_stripes.touches(m_stripes->stripe_of(int64_t(lbn)), m_stripes->stripe_of(int64_t(lbn + sectors - 1)));
}

bool raid_firmware::start_rebuild(int disk) {
    if (!m_stripes) return false;  // RAID 0: nothing to rebuild from
    notice_losses();
    m_rebuild.start(disk, uint64_t(stripe_count()));
    return true;
}

uint64_t raid_firmware::rebuild_unit_bytes(int disk, int64_t stripe) const {
    return m_stripes->unit_on_disk(stripe, disk) == -2 ? 0 : uint64_t(m_stripes->unit_sectors()) * protocol::sector_bytes;
}

bool raid_firmware::rebuild_stripe_unit(int disk, int64_t stripe) {
    notice_losses();
    if (m_lost_stripes.contains(stripe)) return false;
    const parity_stripe_layout &l = *m_stripes;
    const uint64_t unit = uint64_t(l.unit_sectors());
    m_kit.locks.lock(stripe);
    m_stripes_in_rebuild.insert(stripe);
    const std::vector<unit_place> units = l.units_by_disk(stripe);
    std::vector<const unit_place *> others;
    const unit_place *target = nullptr;
    for (const unit_place &u : units) {
        if (u.disk == disk) target = &u;
        else others.push_back(&u);
    }
    std::vector<int> absent;
    absent_in_stripe(stripe, absent);
    bool ok = target && absent.size() == 1 && absent[0] == disk;
    if (!ok && absent.size() > 1) lose_stripe(stripe, absent);
    bool whole = ok;  // every row of the unit rebuilt
    if (ok) {
        // With tokens always: the rebuild cannot know whether the host ever sent any.
        // Slot k the other unit k, the last slot the rebuilt unit.
        const uint64_t slots = others.size() + 1;
        protocol::buffer_block *work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
        // A source that answers MEDIUM ERROR is read again in pieces (unreadable_sectors.h): its
        // readable rows are rebuilt as usual, and only the rows it cannot give are lost.
        std::vector<std::vector<sector_run>> unreadable(others.size());
        // A source lost while it was read is a second loss, whatever its slot holds by the time the
        // answer comes: a fresh drive put in it at once is `rebuilding`, not `failed`, and reading
        // it again in pieces served its blank rows as the source's (explorer case 71:163: the
        // member rebuilt from them, and the next rebuild from that one, returned zeros).
        std::vector<uint64_t> losses_at_start(others.size());
        for (size_t k = 0; k < others.size(); ++k) losses_at_start[k] = m_platform.member_losses(others[k]->disk);
        ok = m_kit.parallel(others.size(), [&](size_t k) {
            const int d = others[k]->disk;
            const uint64_t lbn = uint64_t(others[k]->drive_lbn);
            const auto still_the_source = [&] { return m_platform.member_losses(d) == losses_at_start[k]; };
            if (m_kit.disk_io(false, d, lbn, uint32_t(unit), work, k * unit)) return true;
            if (!still_the_source()) return false;  // a second loss
            unreadable[k] = narrow_unreadable(unit, [&](uint64_t at, uint64_t n) {
                return m_kit.disk_io(false, d, lbn + at, uint32_t(n), work, k * unit + at);
            });
            return still_the_source();
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k = 0; k < others.size(); ++k) inputs.push_back({work, k * unit});
            m_kit.xor_blocks(inputs, {work, others.size() * unit}, unit, 0);
            ok = m_kit.disk_io(true, disk, uint64_t(target->drive_lbn), uint32_t(unit), work, others.size() * unit);
        }
        if (ok) {
            // A row a source could not give: the new drive's row (its data unknown) and the
            // source's (its only other copy was the new drive's) are lost, sector by sector, and
            // reads of them fail until the host writes them (the new drive's row holds what the
            // XOR made of the rest; a later write of the stripe recomputes the parity).
            for (size_t k = 0; k < others.size(); ++k)
                for (const sector_run &r : unreadable[k]) {
                    whole = false;
                    note_lost_rows(stripe, disk, r.first, r.count);
                    note_lost_rows(stripe, others[k]->disk, r.first, r.count);
                }
        }
        m_platform.free_buffer(work);
    }
    m_stripes_in_rebuild.erase(stripe);
    if (!ok) {
        // A second loss while the stripe was read: the stripe is lost (its unit of the new
        // drive not rebuilt, another member gone).
        notice_losses();
        absent_in_stripe(stripe, absent);
        if (absent.size() > 1) lose_stripe(stripe, absent);
    }
    m_kit.locks.unlock(stripe);
    return ok && whole;
}

}  // namespace raidtlm::controller
