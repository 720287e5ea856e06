// RAID 6 firmware: members, reads (direct, rebuilt, repaired), power-loss resync, statistics.
// The write paths: raid6_writes.cpp.
#include "controller/families/raid6/raid6_firmware.h"

#include <algorithm>

#include "controller/layouts/pq_parity.h"

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
    for (int k = 0; k < checks(); ++k)
        if (j == parity_stripe_layout::check_on_disk(k)) return pq::check_member(n, k);
    return -1;
}

unit_place raid6_firmware::member_place(int64_t stripe, int member) const {
    const int n = m_stripes->stripe_data_units(stripe);
    if (member >= n) return m_stripes->check_unit(stripe, member - n);
    return m_stripes->data_unit(stripe, member);
}

uint8_t raid6_firmware::update_coefficient(int k, int member, int n) {
    if (member < n) return pq::check_coefficient(k, member);
    return member == pq::check_member(n, k) ? 1 : 0;
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

void raid6_firmware::note_unreadable_rows(int64_t stripe, const std::vector<int> &media_errors, uint64_t row,
                                          uint64_t rows) {
    std::vector<int> absent;
    for (int d : lost_disks(stripe))
        if (member_on_disk(stripe, d) >= 0) absent.push_back(d);
    m_kit.locks.lock(stripe);
    const uint64_t slots = media_errors.size();
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * rows * protocol::sector_bytes, slots * rows);
    std::vector<survivor_read> unreadable;
    for (size_t k = 0; k < media_errors.size(); ++k) {
        const int m = member_on_disk(stripe, media_errors[k]);
        if (m < 0) continue;
        unreadable.push_back({media_errors[k], uint64_t(member_place(stripe, m).drive_lbn) + row, work, k * rows});
    }
    const bool narrowed = note_rows_beyond_checks(stripe, absent, unreadable, row, rows);
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    if (!narrowed) {  // a member lost meanwhile: the rows' every unreadable data unit, as before
        const int64_t unit = m_stripes->unit_sectors();
        for (int m : unreadable_members(stripe, media_errors))
            if (m < m_stripes->stripe_data_units(stripe))
                note_lost_range(m_stripes->stripe_first_lbn(stripe) + m * unit + int64_t(row), int32_t(rows));
    }
}

// ---- reads --------------------------------------------------------------------------------------

bool raid6_firmware::stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_stripes->map(int64_t(lbn), int32_t(sectors), chunks);
    return m_kit.parallel(chunks.size(), [&](size_t i) { return read_chunk(chunks[i], lbn, buffer, affinity); });
}

// A chunk read from its disk; when the disk is lost, rebuilt from its stripe; when the drive
// answers MEDIUM ERROR, rebuilt and written back. A survivor that answers MEDIUM ERROR during a
// rebuild joins the unreadable members and the rebuild starts again (RAID 6 survives as many as it
// has checks).
bool raid6_firmware::read_chunk(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity) {
    const int disk = c.replicas.front().disk;
    const disk_extent &e = c.replicas.front().extents.front();
    const int64_t stripe = m_stripes->stripe_of(c.lbn);
    const uint64_t at = uint64_t(c.lbn - int64_t(host_lbn));
    std::vector<int> media_errors;  // disks that answered MEDIUM ERROR during this read
    bool repair = false;
    auto is_lost = [&](int d) { return disk_lost(stripe, d); };
    // A turn ends early when a member was lost or replaced while the chunk waited for its
    // stripe's lock (stripe_changed): at most once per disk, beside the 4 turns of faults.
    int changes = 0;
    for (int attempt = 0; attempt < 4; ++attempt) {
        // A member lost while this turn's reads were out failed them (firmware_kit::disk_io): the
        // next turn takes the members absent by then.
        const uint64_t losses = m_platform.member_losses();
        auto lost_meanwhile = [&](int d) { return m_platform.member_losses() != losses || is_lost(d); };
        const bool lost = is_lost(disk);
        if (!lost && !repair) {
            if (m_kit.disk_io(false, disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), buffer, at)) return true;
            if (lost_meanwhile(disk)) continue;  // rebuilt on the next turn
            ++m_stats.media_repairs;
            media_errors.push_back(disk);
            repair = true;
            continue;
        }
        const std::vector<int> lost_members = unreadable_members(stripe, media_errors);
        if (lost_members.size() > size_t(checks())) {
            if (media_errors.empty()) note_lost_range(c.lbn, c.sectors);
            else note_unreadable_rows(stripe, media_errors, uint64_t(m_stripes->offset_in_unit(e.drive_lbn)), uint64_t(c.sectors));
            return false;
        }
        int failed = -1;
        if (rebuild_chunk(c, host_lbn, buffer, affinity, lost_members, repair && !lost, &failed)) return true;
        if (failed == stripe_changed && changes++ < m_platform.disk_count()) {
            --attempt;
            continue;
        }
        if (failed < 0) return false;
        if (!lost_meanwhile(failed)) media_errors.push_back(failed);
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
    const std::vector<uint8_t> all = pq::erasure_coefficients(n, checks(), lost_members, target);
    std::vector<int> needed;
    std::vector<uint8_t> coefficients;
    for (int m = 0; m < n + checks(); ++m)
        if (all[size_t(m)] != 0) {
            needed.push_back(m);
            coefficients.push_back(all[size_t(m)]);
        }
    ++m_stats.rebuilt_reads;
    if (lost_members.size() == 2) ++m_raid6_stats.two_lost_rebuilt_reads;
    if (lost_members.size() == 3) ++m_raid6_stats.three_lost_rebuilt_reads;
    const bool data = !buffer->tokens.empty();
    m_kit.locks.lock(stripe);  // not while a write of the stripe is half done
    // The members chosen before the lock must still be the ones to read: a member lost and its
    // fresh drive put in while the read waited (a deep queue) holds none of the data (before: 56
    // wrong reads, 6 Cheetah 9LP, two losses both replaced, 256 outstanding; EXPERIMENTS 19.2).
    const std::vector<int> lost_now = members_on(stripe, lost_disks(stripe));
    if (!std::includes(lost_members.begin(), lost_members.end(), lost_now.begin(), lost_now.end())) {
        m_kit.locks.unlock(stripe);
        *failed_read = stripe_changed;
        return false;
    }
    protocol::buffer_block *work =
        m_platform.allocate_buffer(needed.size() * sectors * protocol::sector_bytes, data ? needed.size() * sectors : 0);
    // A member this rebuild reads lost (perhaps replaced by a fresh, empty drive) while it waited
    // for the lock: the caller plans again.
    for (int m : needed)
        if (disk_lost(stripe, member_place(stripe, m).disk)) {
            *failed_read = member_place(stripe, m).disk;
            m_platform.free_buffer(work);
            m_kit.locks.unlock(stripe);
            return false;
        }
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
    // Only with three checks, so a P+Q run's stats.json keeps its keys.
    if (checks() == 3) {
        out["raid6"]["checks"] = 3;
        out["raid6"]["three_lost_rebuilt_reads"] = m_raid6_stats.three_lost_rebuilt_reads;
        out["raid6"]["three_lost_stripe_writes"] = m_raid6_stats.three_lost_stripe_writes;
    }
}

}  // namespace raidtlm::controller
