// RAID 6 firmware: members, reads (direct, rebuilt, repaired), power-loss resync, statistics.
// The write paths: raid6_writes.cpp.
#include "controller/raid6_firmware.h"

#include <algorithm>

#include "controller/pq_parity.h"

namespace raidtlm::controller {

raid6_firmware::raid6_firmware(firmware_platform &platform) : raid_firmware(platform) {
    if (!m_stripes || !m_stripes->has_q())
        throw std::invalid_argument("the raid6 firmware needs a layout with P and Q (controller.layout: raid6)");
}

std::vector<int> raid6_firmware::lost_disks(int64_t stripe) const {
    std::vector<int> lost;
    for (int d = 0; d < m_platform.disk_count(); ++d) {
        const member_state s = m_platform.member_state_of(d);
        if (s == member_state::failed || (s == member_state::rebuilding && !m_rebuild.present(d, uint64_t(stripe))))
            lost.push_back(d);
    }
    return lost;
}

bool raid6_firmware::disk_lost(int64_t stripe, int disk) const {
    const std::vector<int> lost = lost_disks(stripe);
    return std::find(lost.begin(), lost.end(), disk) != lost.end();
}

std::vector<int> raid6_firmware::unreadable_members(int64_t stripe, const std::vector<int> &media_errors) const {
    std::vector<int> disks = lost_disks(stripe);
    disks.insert(disks.end(), media_errors.begin(), media_errors.end());
    return members_on(stripe, disks);
}

bool raid6_firmware::array_degraded() const {
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) != member_state::optimal) return true;
    return false;
}

int raid6_firmware::member_on_disk(int64_t stripe, int disk) const {
    const int n = m_stripes->stripe_data_units(stripe);
    const int j = m_stripes->unit_on_disk(stripe, disk);
    if (j >= 0) return j;
    if (j == -1) return pq::p_member(n);
    if (j == parity_stripe_layout::q_on_disk) return pq::q_member(n);
    return -1;
}

unit_place raid6_firmware::member_place(int64_t stripe, int member) const {
    const int n = m_stripes->stripe_data_units(stripe);
    if (member == pq::p_member(n)) return m_stripes->parity_unit(stripe);
    if (member == pq::q_member(n)) return m_stripes->q_unit(stripe);
    return m_stripes->data_unit(stripe, member);
}

std::vector<int> raid6_firmware::members_on(int64_t stripe, const std::vector<int> &disks) const {
    std::vector<int> members;
    for (int d : disks) {
        const int m = member_on_disk(stripe, d);
        if (m >= 0 && std::find(members.begin(), members.end(), m) == members.end()) members.push_back(m);
    }
    std::sort(members.begin(), members.end());
    return members;
}

void raid6_firmware::combine(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                             const protocol::buffer_ref &output, uint64_t sectors, int affinity) {
    if (!pq::xor_only(coefficients)) ++m_raid6_stats.q_commands;
    m_kit.gf_blocks(inputs, coefficients, output, sectors, affinity);
}

void raid6_firmware::record_lost_members(int64_t stripe, const std::vector<int> &lost_members) {
    const int n = m_stripes->stripe_data_units(stripe);
    for (int m : lost_members)
        if (m < n)
            note_lost_range(m_stripes->stripe_first_lbn(stripe) + m * m_stripes->unit_sectors(),
                            int32_t(m_stripes->unit_sectors()));
}

// ---- reads --------------------------------------------------------------------------------------

bool raid6_firmware::stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_stripes->map(int64_t(lbn), int32_t(sectors), chunks);
    return m_kit.parallel(chunks.size(), [&](size_t i) { return read_chunk(chunks[i], lbn, buffer, affinity); });
}

// A chunk read from its disk; when the disk is lost, rebuilt from its stripe; when the drive
// answers MEDIUM ERROR, rebuilt and written back. A survivor that answers MEDIUM ERROR during a
// rebuild joins the unreadable members and the rebuild starts again (RAID 6 survives two).
bool raid6_firmware::read_chunk(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity) {
    const int disk = c.replicas.front().disk;
    const disk_extent &e = c.replicas.front().extents.front();
    const int64_t stripe = m_stripes->stripe_of(c.lbn);
    const uint64_t at = uint64_t(c.lbn - int64_t(host_lbn));
    std::vector<int> media_errors;  // disks that answered MEDIUM ERROR during this read
    bool repair = false;
    auto is_lost = [&](int d) { return disk_lost(stripe, d); };
    for (int attempt = 0; attempt < 4; ++attempt) {
        const bool lost = is_lost(disk);
        if (!lost && !repair) {
            if (m_kit.disk_io(false, disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), buffer, at)) return true;
            if (is_lost(disk)) continue;  // lost meanwhile: rebuilt on the next turn
            ++m_stats.media_repairs;
            media_errors.push_back(disk);
            repair = true;
            continue;
        }
        const std::vector<int> lost_members = unreadable_members(stripe, media_errors);
        if (lost_members.size() > 2) {
            note_lost_range(c.lbn, c.sectors);
            return false;
        }
        int failed = -1;
        if (rebuild_chunk(c, host_lbn, buffer, affinity, lost_members, repair && !lost, &failed)) return true;
        if (failed < 0) return false;
        if (!is_lost(failed)) media_errors.push_back(failed);
    }
    note_lost_range(c.lbn, c.sectors);
    return false;
}

bool raid6_firmware::rebuild_chunk(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity,
                                   const std::vector<int> &lost_members, bool repair, int *failed_read) {
    const int disk = c.replicas.front().disk;
    const disk_extent &e = c.replicas.front().extents.front();
    const int64_t stripe = m_stripes->stripe_of(c.lbn);
    const int n = m_stripes->stripe_data_units(stripe);
    const int target = member_on_disk(stripe, disk);
    const int64_t offset = m_stripes->offset_in_unit(e.drive_lbn);
    const uint64_t sectors = uint64_t(c.sectors);
    const uint64_t at = uint64_t(c.lbn - int64_t(host_lbn));
    const std::vector<uint8_t> all =
        pq::recovery_coefficients(n, lost_members.at(0), lost_members.size() > 1 ? lost_members[1] : -1, target);
    std::vector<int> needed;
    std::vector<uint8_t> coefficients;
    for (int m = 0; m < n + 2; ++m)
        if (all[size_t(m)] != 0) {
            needed.push_back(m);
            coefficients.push_back(all[size_t(m)]);
        }
    ++m_stats.rebuilt_reads;
    if (lost_members.size() == 2) ++m_raid6_stats.two_lost_rebuilt_reads;
    const bool data = !buffer->tokens.empty();
    m_kit.locks.lock(stripe);  // not while a write of the stripe is half done
    protocol::buffer_block *work =
        m_platform.allocate_buffer(needed.size() * sectors * protocol::sector_bytes, data ? needed.size() * sectors : 0);
    bool ok = m_kit.parallel(needed.size(), [&](size_t k) {
        const unit_place u = member_place(stripe, needed[k]);
        if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn + offset), uint32_t(sectors), work, k * sectors)) return true;
        *failed_read = u.disk;
        return false;
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t k = 0; k < needed.size(); ++k) inputs.push_back({work, k * sectors});
        combine(inputs, coefficients, {buffer, at}, sectors, affinity);
        // Written back under the lock: no newer write of the stripe can come between.
        if (repair) ok = m_kit.disk_io(true, disk, uint64_t(e.drive_lbn), uint32_t(sectors), buffer, at);
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

// ---- power loss -----------------------------------------------------------------------------------

// P and Q of a stripe an intent record names, recomputed from its data units. With one data unit
// already lost and both checks present, the lost unit is rebuilt once from P and once from Q: if
// the two agree, P and Q are consistent with the surviving data (the write was not torn between
// them and its data units) and nothing is lost; if they differ, a torn write left one check stale
// and nothing says which: the unit's sectors are reported lost, as always in RAID 5
// (raid_parity_resync.cpp) and here with two members lost.
bool raid6_firmware::resync_parity(int64_t stripe) {
    const parity_stripe_layout &l = *m_stripes;
    const int n = l.stripe_data_units(stripe);
    const std::vector<int> lost = members_on(stripe, lost_disks(stripe));
    if (lost.size() == 1 && lost.front() < n) return checks_agree_with_one_unit_lost(stripe, lost.front());
    if (!lost.empty() && lost.front() < n) {
        record_lost_members(stripe, lost);
        return false;
    }
    const bool p_lost = std::find(lost.begin(), lost.end(), pq::p_member(n)) != lost.end();
    const bool q_lost = std::find(lost.begin(), lost.end(), pq::q_member(n)) != lost.end();
    if (p_lost && q_lost) return false;
    const uint64_t unit = uint64_t(l.unit_sectors());
    m_kit.locks.lock(stripe);
    // With tokens always: the firmware cannot know after a restart whether the host sent any.
    const uint64_t slots = uint64_t(n) + 2;  // slot m: member m
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
    bool ok = m_kit.parallel(size_t(n), [&](size_t j) {
        const unit_place u = l.data_unit(stripe, int(j));
        return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, j * unit);
    });
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<uint8_t> ones, q;
        for (int j = 0; j < n; ++j) {
            inputs.push_back({work, uint64_t(j) * unit});
            ones.push_back(1);
            q.push_back(pq::q_coefficient(j));
        }
        if (!p_lost) combine(inputs, ones, {work, uint64_t(n) * unit}, unit, 0);
        if (!q_lost) combine(inputs, q, {work, uint64_t(n + 1) * unit}, unit, 0);
        std::vector<int> checks;
        if (!p_lost) checks.push_back(pq::p_member(n));
        if (!q_lost) checks.push_back(pq::q_member(n));
        ok = m_kit.parallel(checks.size(), [&](size_t k) {
            const unit_place u = member_place(stripe, checks[k]);
            return m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, uint64_t(checks[k]) * unit);
        });
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

bool raid6_firmware::checks_agree_with_one_unit_lost(int64_t stripe, int lost_member) {
    const parity_stripe_layout &l = *m_stripes;
    const int n = l.stripe_data_units(stripe);
    const uint64_t unit = uint64_t(l.unit_sectors());
    m_kit.locks.lock(stripe);
    // Slot m: member m (the lost one empty); slots n + 2 and n + 3: the unit from P and from Q.
    const uint64_t slots = uint64_t(n) + 4;
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * unit * protocol::sector_bytes, slots * unit);
    bool ok = m_kit.parallel(size_t(n) + 2, [&](size_t m) {
        if (int(m) == lost_member) return true;
        const unit_place u = member_place(stripe, int(m));
        return m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, m * unit);
    });
    bool agree = false;
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (int m = 0; m < n + 2; ++m) inputs.push_back({work, uint64_t(m) * unit});
        combine(inputs, pq::recovery_coefficients(n, lost_member, -1, lost_member), {work, uint64_t(n + 2) * unit}, unit, 0);
        combine(inputs, pq::recovery_coefficients(n, lost_member, pq::p_member(n), lost_member),
                {work, uint64_t(n + 3) * unit}, unit, 0);
        const auto from_p = work->tokens.begin() + int64_t(uint64_t(n + 2) * unit);
        agree = std::equal(from_p, from_p + int64_t(unit), from_p + int64_t(unit));
        if (!agree) {
            // The unit is lost either way; Q made to agree with P's version of it, so the stripe
            // still rebuilds its other units right when a second member goes.
            std::vector<protocol::buffer_ref> data;
            std::vector<uint8_t> q;
            for (int j = 0; j < n; ++j) {
                data.push_back({work, uint64_t(j == lost_member ? n + 2 : j) * unit});
                q.push_back(pq::q_coefficient(j));
            }
            combine(data, q, {work, uint64_t(n + 1) * unit}, unit, 0);
            const unit_place u = member_place(stripe, pq::q_member(n));
            ok = m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn), uint32_t(unit), work, uint64_t(n + 1) * unit);
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    if (!ok) return false;
    if (!agree) {
        record_lost_members(stripe, {lost_member});
        return false;
    }
    ++m_raid6_stats.resyncs_checks_agreed;
    return true;
}

// ---- statistics -----------------------------------------------------------------------------------

void raid6_firmware::reset_statistics() {
    raid_firmware::reset_statistics();
    m_raid6_stats = raid6_statistics{};
}

void raid6_firmware::report(nlohmann::json &out) const {
    raid_firmware::report(out);
    out["raid6"] = {{"two_lost_rebuilt_reads", m_raid6_stats.two_lost_rebuilt_reads},
                    {"two_lost_stripe_writes", m_raid6_stats.two_lost_stripe_writes},
                    {"gf_commands", m_raid6_stats.q_commands},
                    {"resyncs_checks_agreed", m_raid6_stats.resyncs_checks_agreed}};
}

}  // namespace raidtlm::controller
