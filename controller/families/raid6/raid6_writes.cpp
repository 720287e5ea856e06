// RAID 6 writes (raid6_firmware.h): the RAID 5 write plans with Q (and R) beside P, the checks
// computed by the XOR engine (P in its XOR mode, Q and R in its GF multiply-accumulate mode),
// stripe locks.
#include <algorithm>
#include <map>

#include "controller/layouts/pq_parity.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/families/raid/read_rotate_undo.h"
#include "controller/kit/stripe_rows.h"

namespace raidtlm::controller {

bool raid6_firmware::stripes_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<stripe_write_plan> plans;
    parity_write_policy policy = m_platform.config().firmware.parity_writes;
    if (m_always_read_rotate_write) policy.read_rotate_write = true;  // floating's commands
    if (array_degraded()) policy.read_rotate_write = false;  // degraded writes read the survivors
    plan_parity_write(*m_stripes, int64_t(lbn), int32_t(sectors), policy, plans);
    return m_kit.parallel(plans.size(), [&](size_t i) {
        std::vector<int> media_errors;
        // Each turn takes the disks lost by now and the MEDIUM ERRORs seen so far.
        for (int attempt = 0; attempt < 8; ++attempt) {
            // A member lost while this turn's commands were out failed them, and the turn left the
            // stripe as it was (nothing written, or its read-rotate-writes undone).
            const uint64_t losses = m_platform.member_losses();
            int failed = -1;
            if (stripe_write(plans[i], lbn, buffer, affinity, media_errors, &failed)) return true;
            if (failed == stripe_changed) continue;
            if (failed < 0) return false;
            if (m_platform.member_losses() != losses || disk_lost(plans[i].stripe, failed)) continue;  // lost meanwhile
            // A read answered MEDIUM ERROR: that disk's rows rebuilt from the others and written
            // too (the drive reallocates them).
            ++m_stats.media_repairs;
            media_errors.push_back(failed);
        }
        return false;
    });
}

bool raid6_firmware::stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity, const std::vector<int> &media_errors, int *failed_read) {
    const std::vector<int> lost = unreadable_members(plan.stripe, media_errors);
    if (lost.empty()) {
        if (plan.path == write_path::read_modify_write && plan.parity_write().kind == disk_op_kind::read_rotate_write)
            return rrw_pq_stripe_write(plan, host_lbn, buffer, affinity, media_errors, failed_read);
        return healthy_stripe_write(plan, host_lbn, buffer, affinity, media_errors, failed_read);
    }
    if (lost.size() > size_t(checks())) {  // beyond the checks: the stripe's lost data units are gone
        // Where MEDIUM ERRORs took it beyond them, only their rows (per sector).
        if (media_errors.empty()) record_lost_members(plan.stripe, lost);
        else note_unreadable_rows(plan.stripe, media_errors, uint64_t(m_stripes->offset_in_unit(plan.parity_write().drive_lbn)),
                                  uint64_t(plan.parity_write().sectors));
        return false;
    }
    return degraded_stripe_write(plan, host_lbn, buffer, affinity, lost, media_errors, failed_read);
}

// Every path's checks are sums over slots of `rows` sectors, each zero outside what was put in
// it: slot k receives check k (0 P, 1 Q, 2 R); a read lands in its member's slot, new data in
// their unit's slot (reconstruct-write: beside what was read of the unit; read-modify-write: a
// slot of their own, beside the old data). Check k sums data slots with g^(k j) and its own old
// value with 1 (update_coefficient; P: every slot but the other checks' with 1). A full-stripe
// write sums the host buffer directly.
// Takes the stripe's lock for a write and a work buffer of `sectors` (tokens when `data`); null,
// with *failed_read = stripe_changed and the lock released, when a member was lost (or a
// rebuild's cursor moved) while the write waited for the lock.
protocol::buffer_block *raid6_firmware::lock_for_write(const stripe_write_plan &plan, uint64_t sectors, bool data,
                                                       const std::vector<int> &media_errors, int *failed_read) {
    m_kit.locks.lock(plan.stripe);
    // Checked once the buffer is held too (the allocation may wait for DRAM): a member lost
    // meanwhile, perhaps replaced by a fresh drive, must not be read as if it held its data.
    protocol::buffer_block *work = m_platform.allocate_buffer(sectors * protocol::sector_bytes, data ? sectors : 0);
    if (!unreadable_members(plan.stripe, media_errors).empty()) {
        m_platform.free_buffer(work);
        m_kit.locks.unlock(plan.stripe);
        *failed_read = stripe_changed;
        return nullptr;
    }
    ++m_stats.stripe_writes[size_t(plan.path)];
    return work;
}

bool raid6_firmware::healthy_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                          protocol::buffer_block *buffer, int affinity,
                                          const std::vector<int> &media_errors, int *failed_read) {
    const stripe_rows r(*m_stripes, plan, host_lbn);
    const int n = m_stripes->stripe_data_units(plan.stripe);
    const bool data = !buffer->tokens.empty();
    const bool full = plan.path == write_path::full_stripe;
    const int new_role = plan.path == write_path::read_modify_write ? 1 : 0;
    const int m_count = checks();
    std::map<std::pair<int, int>, uint64_t> slot;  // (member, role) -> slot; role 0: read, 1: new data
    auto slot_of = [&](int member, int role) {
        return slot.try_emplace({member, role}, uint64_t(slot.size() + size_t(m_count))).first->second;
    };
    std::vector<const disk_op *> reads, writes;
    std::vector<protocol::buffer_ref> inputs;
    auto check_coefficients = std::vector<std::vector<uint8_t>>(size_t(m_count));  // [k]: check k's, one per input
    for (const disk_op &op : plan.ops) {
        const int m = member_on_disk(plan.stripe, op.disk);
        if (op.kind == disk_op_kind::read) {
            reads.push_back(&op);
            slot_of(m, 0);
            continue;
        }
        writes.push_back(&op);
        if (!op.data()) continue;
        if (!full) {
            slot_of(m, new_role);
            continue;
        }
        inputs.push_back({buffer, r.host_offset(op)});
        for (int k = 0; k < m_count; ++k) check_coefficients[size_t(k)].push_back(pq::check_coefficient(k, m));
    }
    const uint64_t slots = slot.size() + size_t(m_count);
    protocol::buffer_block *work = lock_for_write(plan, slots * r.rows, data, media_errors, failed_read);
    if (!work) return false;
    for (const auto &[key, at] : slot) {
        inputs.push_back({work, at * r.rows});
        for (int k = 0; k < m_count; ++k)
            check_coefficients[size_t(k)].push_back(update_coefficient(k, key.first, n));
    }
    bool ok = m_kit.parallel(reads.size(), [&](size_t i) {
        const disk_op &op = *reads[i];
        const uint64_t at = slot_of(member_on_disk(plan.stripe, op.disk), 0) * r.rows + r.row_of(op);
        if (m_kit.disk_io(false, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, at)) return true;
        *failed_read = op.disk;
        return false;
    });
    if (ok) {
        if (data && !full)
            for (const disk_op *op : writes) {
                if (!op->data()) continue;
                const uint64_t *from = buffer->tokens.data() + r.host_offset(*op);
                const uint64_t at = slot_of(member_on_disk(plan.stripe, op->disk), new_role) * r.rows + r.row_of(*op);
                std::copy(from, from + op->sectors, work->tokens.begin() + int64_t(at));
            }
        for (int k = 0; k < m_count; ++k)
            combine(inputs, check_coefficients[size_t(k)], {work, uint64_t(k) * r.rows}, r.rows, affinity);
        ok = m_kit.parallel(writes.size(), [&](size_t i) {
            const disk_op &op = *writes[i];
            if (!op.data())
                return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work,
                                     uint64_t(op.check()) * r.rows);
            return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer, r.host_offset(op));
        });
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    return ok;
}

// Read-modify-write as read-rotate-write commands (raid_parity_paths.cpp's rrw_stripe_write says
// how the parity drive's write phase is modelled): one command per data disk, P and Q; once all
// are back the engine computes the new checks (P', Q', R') from the returned old tokens and the
// new data, and they are installed on their drives untimed.
bool raid6_firmware::rrw_pq_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                         protocol::buffer_block *buffer, int affinity,
                                         const std::vector<int> &media_errors, int *failed_read) {
    const stripe_rows r(*m_stripes, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const size_t ops = plan.ops.size();
    const int n = m_stripes->stripe_data_units(plan.stripe);
    const uint64_t m_count = uint64_t(checks());
    // Slots of r.rows: k new check k (0 P, 1 Q, 2 R), m + k op k's old tokens, m + ops + k op k's
    // new data.
    const uint64_t slots = m_count + 2 * uint64_t(ops);
    protocol::buffer_block *work = lock_for_write(plan, slots * r.rows, data, media_errors, failed_read);
    if (!work) return false;
    std::vector<std::vector<uint64_t>> old(ops);
    std::vector<char> done(ops, 0);
    const bool cached = m_platform.config().firmware.old_data_cached;
    auto rrw = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        bool completed;
        if (!op.data())  // a stand-in: the new check is installed below
            completed = m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work,
                                 uint64_t(op.check()) * r.rows, &old[k]);
        else if (cached) {
            // controller.old_data cached: the old data as the cache holds it (the drive's tokens,
            // the stripe locked), untimed; the data disk only writes.
            if (data) {
                old[k].resize(size_t(op.sectors));
                m_platform.peek_untimed(op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), old[k].data());
            }
            completed = m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                                 r.host_offset(op));
        } else
            completed = m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                                 r.host_offset(op), &old[k]);
        if (!completed) *failed_read = op.disk;
        done[k] = completed;
        return completed;
    };
    // controller.rrw_order parity_after_data: the data disks' commands, then the checks'.
    const size_t data_ops = size_t(std::count_if(plan.ops.begin(), plan.ops.end(), [](const disk_op &o) { return o.data(); }));
    const bool checks_last = m_platform.config().firmware.rrw_parity_after_data && data_ops > 0;
    bool ok = checks_last ? m_kit.parallel(data_ops, rrw) &&
                                m_kit.parallel(ops - data_ops, [&](size_t k) { return rrw(data_ops + k); })
                          : m_kit.parallel(ops, rrw);
    if (!ok) {
        // A command failed (its member lost while it was out): the others' stand-ins and new data
        // written back from the old tokens they returned, so the stripe is as before the write
        // and the caller writes it the degraded way (read_rotate_undo.h).
        std::vector<overwritten_unit> torn;
        for (size_t k = 0; k < ops; ++k)
            if (done[k])
                torn.push_back({plan.ops[k].disk, uint64_t(plan.ops[k].drive_lbn), uint32_t(plan.ops[k].sectors), &old[k]});
        write_back_old_units(m_kit, torn);
    }
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<std::vector<uint8_t>> check_coefficients(m_count);  // [c]: check c's, one per input
        auto add = [&](uint64_t s, int member) {
            inputs.push_back({work, s * r.rows});
            for (int c = 0; c < int(m_count); ++c)
                check_coefficients[size_t(c)].push_back(update_coefficient(c, member, n));
        };
        for (size_t k = 0; k < ops; ++k) {
            const disk_op &op = plan.ops[k];
            const uint64_t at = r.row_of(op);
            const int m = member_on_disk(plan.stripe, op.disk);
            add(m_count + k, m);
            if (data)
                std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((m_count + k) * r.rows + at));
            if (!op.data()) continue;
            add(m_count + ops + k, m);
            if (data) {
                const uint64_t *from = buffer->tokens.data() + r.host_offset(op);
                std::copy(from, from + op.sectors, work->tokens.begin() + int64_t((m_count + ops + k) * r.rows + at));
            }
        }
        for (uint64_t c = 0; c < m_count; ++c)
            combine(inputs, check_coefficients[c], {work, c * r.rows}, r.rows, affinity);
        if (data)
            for (const disk_op &op : plan.ops)
                if (!op.data())
                    ok = m_platform.install_untimed(op.disk, uint64_t(op.drive_lbn),
                                                    work->tokens.data() + uint64_t(op.check()) * r.rows,
                                                    uint32_t(r.rows)) &&
                         ok;
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    return ok;
}

// A stripe write with one to `checks` members unreadable. Slot m (of `rows`, the P rows the write
// touches) holds member m: every readable member's rows are read into their slots, each
// unreadable data unit is rebuilt into its own (one GF command with its recovery coefficients),
// the new data are laid over the data slots, and the checks are summed from the data slots.
// Every member whose disk is there is written: data from the host's buffer, the checks from their
// slots, and every disk that answered MEDIUM ERROR rewritten over all the rows from its slot. A
// lost disk is not written. With every check lost only the data are written.
bool raid6_firmware::degraded_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                           protocol::buffer_block *buffer, int affinity,
                                           const std::vector<int> &lost_members, const std::vector<int> &media_errors,
                                           int *failed_read) {
    const stripe_rows r(*m_stripes, plan, host_lbn);
    const int64_t stripe = plan.stripe;
    const int n = m_stripes->stripe_data_units(stripe);
    const int m_count = checks();
    const bool data = !buffer->tokens.empty();
    auto is_lost = [&](int m) { return std::find(lost_members.begin(), lost_members.end(), m) != lost_members.end(); };
    // Every member unreadable only by MEDIUM ERROR is there: its rows are written from its slot
    // (rebuilt, with the write's new data), which repairs them. Only the first such member was,
    // and another's new data went into the checks alone: its drive kept the old data, which the
    // next read returned (the explorer's 141:1085, RAID 6 with three checks: 54 wrong reads).
    std::vector<int> repaired;
    for (int m : lost_members) {
        const int d = member_place(stripe, m).disk;
        if (std::find(media_errors.begin(), media_errors.end(), d) != media_errors.end() && !disk_lost(stripe, d))
            repaired.push_back(m);
    }
    auto is_repaired = [&](int m) { return std::find(repaired.begin(), repaired.end(), m) != repaired.end(); };
    auto writable = [&](int m) { return !is_lost(m) || is_repaired(m); };
    std::vector<const disk_op *> data_writes;  // to disks that are there, but the repaired ones
    for (const disk_op &op : plan.ops)
        if (op.kind != disk_op_kind::read && op.data()) {
            const int m = member_on_disk(stripe, op.disk);
            if (writable(m) && !is_repaired(m)) data_writes.push_back(&op);
        }
    auto write_data = [&](size_t i) {
        const disk_op &op = *data_writes[i];
        return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer, r.host_offset(op));
    };
    m_kit.locks.lock(stripe);
    if (unreadable_members(stripe, media_errors) != lost_members) {
        m_kit.locks.unlock(stripe);
        *failed_read = stripe_changed;
        return false;
    }
    ++m_stats.degraded_stripe_writes;
    if (lost_members.size() == 2) ++m_raid6_stats.two_lost_stripe_writes;
    if (lost_members.size() == 3) ++m_raid6_stats.three_lost_stripe_writes;
    std::vector<int> from_slots;  // the writable checks, then the repaired members (each once)
    for (int k = 0; k < m_count; ++k)
        if (writable(pq::check_member(n, k))) from_slots.push_back(pq::check_member(n, k));
    const bool any_check = !from_slots.empty();
    for (int m : repaired)
        if (std::find(from_slots.begin(), from_slots.end(), m) == from_slots.end()) from_slots.push_back(m);
    bool ok;
    if (!any_check) {
        ok = m_kit.parallel(data_writes.size(), write_data);
    } else {
        const uint64_t slots = uint64_t(n + m_count);
        protocol::buffer_block *work =
            m_platform.allocate_buffer(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
        auto slot = [&](int m) { return protocol::buffer_ref{work, uint64_t(m) * r.rows}; };
        std::vector<int> readable;
        for (int m = 0; m < n + m_count; ++m)
            if (!is_lost(m)) readable.push_back(m);
        ok = m_kit.parallel(readable.size(), [&](size_t i) {
            const unit_place u = member_place(stripe, readable[i]);
            if (m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn + r.lo), uint32_t(r.rows), work,
                              slot(readable[i]).first_sector))
                return true;
            *failed_read = u.disk;
            return false;
        });
        if (ok) {
            std::vector<protocol::buffer_ref> members, data_slots;
            for (int m = 0; m < n + m_count; ++m) members.push_back(slot(m));
            for (int m : lost_members)
                if (m < n)
                    combine(members, pq::erasure_coefficients(n, m_count, lost_members, m), slot(m), r.rows, affinity);
            if (data)
                for (const disk_op &op : plan.ops) {
                    if (op.kind == disk_op_kind::read || !op.data()) continue;
                    const uint64_t *from = buffer->tokens.data() + r.host_offset(op);
                    const uint64_t at = slot(member_on_disk(stripe, op.disk)).first_sector + r.row_of(op);
                    std::copy(from, from + op.sectors, work->tokens.begin() + int64_t(at));
                }
            for (int j = 0; j < n; ++j) data_slots.push_back(slot(j));
            for (int k = 0; k < m_count; ++k) {
                if (!writable(pq::check_member(n, k))) continue;
                std::vector<uint8_t> c;
                for (int j = 0; j < n; ++j) c.push_back(pq::check_coefficient(k, j));
                combine(data_slots, c, slot(pq::check_member(n, k)), r.rows, affinity);
            }
            // Data writes, then the checks and the repaired member from their slots.
            ok = m_kit.parallel(data_writes.size() + from_slots.size(), [&](size_t i) {
                if (i < data_writes.size()) return write_data(i);
                const int m = from_slots[i - data_writes.size()];
                const unit_place u = member_place(stripe, m);
                return m_kit.disk_io(true, u.disk, uint64_t(u.drive_lbn + r.lo), uint32_t(r.rows), work,
                                     slot(m).first_sector);
            });
        } else if (*failed_read < 0) {
            record_lost_members(stripe, lost_members);
        }
        m_platform.free_buffer(work);
    }
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
