// RAID 4/5 and AdaptRaid5 writes and degraded reads (any parity_stripe_layout): stripe plans, XOR
// engine, stripe locks.
#include "controller/families/raid/raid_firmware.h"
#include "controller/families/raid/read_rotate_undo.h"
#include "controller/kit/stripe_rows.h"
#include "controller/kit/unreadable_sectors.h"

#include <algorithm>
#include <map>

namespace raidtlm::controller {

// ---- RAID 4/5 -----------------------------------------------------------------------------------

bool raid_firmware::parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<stripe_write_plan> plans;
    parity_write_policy policy = m_platform.config().firmware.parity_writes;
    if (m_always_read_rotate_write) policy.read_rotate_write = true;  // floating's commands
    if (!all_optimal()) policy.read_rotate_write = false;  // degraded writes read the survivors
    plan_parity_write(*m_stripes, int64_t(lbn), int32_t(sectors), policy, plans);
    return m_kit.parallel(plans.size(), [&](size_t i) {
        // Each turn takes the members absent by now: a member lost while a turn's commands were
        // out failed them, and the turn left the stripe as it was (nothing written, or its
        // read-rotate-writes undone), so the next turn writes it the degraded way.
        for (int attempt = 0; attempt < 4; ++attempt) {
            const uint64_t losses = m_platform.member_losses();
            std::vector<int> absent;
            absent_in_stripe(plans[i].stripe, absent);
            if (absent.size() > 1) {
                lose_stripe(plans[i].stripe, absent);
                return false;
            }
            // A rebuilding member not yet rebuilt here is written too: its rows then hold the data.
            if (absent.size() == 1) {
                if (degraded_stripe_write(plans[i], lbn, buffer, affinity, absent[0],
                                          m_platform.member_state_of(absent[0]) == member_state::rebuilding))
                    return true;
                if (m_platform.member_losses() != losses) continue;
                return false;
            }
            int unreadable = -1;
            if (stripe_write(plans[i], lbn, buffer, affinity, &unreadable)) return true;
            if (m_platform.member_losses() != losses) continue;
            if (unreadable < 0) return false;
            // A read of the plan answered MEDIUM ERROR: that disk's rows rebuilt from the others,
            // the write done as if it were lost, and its rows written too (the drive reallocates
            // them).
            ++m_stats.media_repairs;
            return degraded_stripe_write(plans[i], lbn, buffer, affinity, unreadable, true);
        }
        return false;
    });
}

// A stripe write with a disk lost. A stripe without a unit on the lost disk (a narrower AdaptRaid5
// stripe) is written as usual. Lost parity: the data are written, nothing else. Lost data: the
// parity rows the write touches are read from every surviving unit of the stripe (data and
// parity), the lost unit's old rows rebuilt by one XOR, the new data laid over the old in each
// unit's slot, and a second XOR over the data slots gives the new parity; the lost disk is not
// written unless `write_lost` (a MEDIUM ERROR, not a lost disk: its rows are rewritten too).
bool raid_firmware::degraded_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                           protocol::buffer_block *buffer, int affinity, int lost, bool write_lost) {
    const parity_stripe_layout &l = *m_stripes;
    if (l.unit_on_disk(plan.stripe, lost) == -2) return stripe_write(plan, host_lbn, buffer, affinity);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const int64_t lo = l.offset_in_unit(pw.drive_lbn);  // the first row, within the unit
    const uint64_t rows = uint64_t(pw.sectors);
    const int parity_disk = pw.disk;
    // The stripe's units in disk order; unit k's rows go to slot k + 1.
    const std::vector<unit_place> units = l.units_by_disk(plan.stripe);
    auto unit_index = [&](int disk) {
        size_t k = 0;
        while (units[k].disk != disk) ++k;
        return k;
    };
    auto host_offset = [&](const disk_op &op) {
        return uint64_t(l.logical_lbn_on_disk(plan.stripe, op.disk, op.drive_lbn) - int64_t(host_lbn));
    };
    std::vector<const disk_op *> writes;
    bool lost_written = false;
    // (A read-rotate-write plan's ops are writes too: a stripe written again after a loss.)
    for (const disk_op &op : plan.ops)
        if (op.kind != disk_op_kind::read && !op.parity && (op.disk != lost || write_lost)) {
            writes.push_back(&op);
            lost_written = lost_written || op.disk == lost;
        }
    // The unreadable disk's rows rewritten from their rebuilt contents when it takes no write of
    // its own.
    const bool rewrite_lost_rows = write_lost && !lost_written && lost != parity_disk;
    auto write_all = [&](protocol::buffer_block *work) {
        const bool with_parity = work != nullptr;
        const size_t extra = rewrite_lost_rows && work ? 1 : 0;
        return m_kit.parallel(writes.size() + (with_parity ? 1 : 0) + extra, [&](size_t i) {
            if (i == writes.size() + 1) {
                const size_t k = unit_index(lost);
                return m_kit.disk_io(true, lost, uint64_t(units[k].drive_lbn + lo), uint32_t(rows), work,
                                     (uint64_t(k) + 1) * rows);
            }
            if (i == writes.size())
                return m_kit.disk_io(true, parity_disk, uint64_t(pw.drive_lbn), uint32_t(rows), work, 0);
            const disk_op &op = *writes[i];
            return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           host_offset(op));
        });
    };
    m_kit.locks.lock(plan.stripe);
    bool ok;
    if (parity_disk == lost && !write_lost) {
        ++m_stats.degraded_stripe_writes;
        ok = write_all(nullptr);
    } else {
        // Slots of `rows`: 0 the new parity, 1 + k unit k's rows (the lost unit's rebuilt).
        const uint64_t slots = uint64_t(units.size()) + 1;
        protocol::buffer_block *work = m_platform.allocate_buffer(slots * rows * protocol::sector_bytes, data ? slots * rows : 0);
        if (!absent_as_planned(plan.stripe, lost)) {
            m_platform.free_buffer(work);
            m_kit.locks.unlock(plan.stripe);
            return false;
        }
        ++m_stats.degraded_stripe_writes;
        auto slot = [&](size_t k) { return protocol::buffer_ref{work, (uint64_t(k) + 1) * rows}; };
        std::vector<size_t> survivors;
        for (size_t k = 0; k < units.size(); ++k)
            if (units[k].disk != lost) survivors.push_back(k);
        const uint64_t losses = m_platform.member_losses();
        std::vector<char> read_failed(survivors.size(), 0);
        ok = m_kit.parallel(survivors.size(), [&](size_t i) {
            const unit_place &u = units[survivors[i]];
            read_failed[i] = !m_kit.disk_io(false, u.disk, uint64_t(u.drive_lbn + lo), uint32_t(rows), work,
                                            slot(survivors[i]).first_sector);
            return !read_failed[i];
        });
        if (!ok && m_platform.member_losses() == losses) {
            // A survivor's MEDIUM ERROR: the rows it cannot give are lost with the lost unit's.
            std::vector<survivor_read> unreadable;
            for (size_t i = 0; i < survivors.size(); ++i)
                if (read_failed[i]) {
                    const unit_place &u = units[survivors[i]];
                    unreadable.push_back({u.disk, uint64_t(u.drive_lbn + lo), work, slot(survivors[i]).first_sector});
                }
            note_rows_beyond_checks(plan.stripe, {lost}, unreadable, uint64_t(lo), rows);
        }
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k : survivors) inputs.push_back(slot(k));
            m_kit.xor_blocks(inputs, slot(unit_index(lost)), rows, affinity);  // the lost unit's old rows
            if (data)
                for (const disk_op &op : plan.ops) {
                    if (op.kind == disk_op_kind::read || op.parity) continue;
                    const uint64_t *from = buffer->tokens.data() + host_offset(op);
                    const int64_t at = int64_t(slot(unit_index(op.disk)).first_sector) + l.offset_in_unit(op.drive_lbn) - lo;
                    std::copy(from, from + op.sectors, work->tokens.begin() + at);
                }
            inputs.clear();
            for (size_t k = 0; k < units.size(); ++k)
                if (units[k].disk != parity_disk) inputs.push_back(slot(k));
            m_kit.xor_blocks(inputs, {work, 0}, rows, affinity);
            ok = write_all(work);
        }
        m_platform.free_buffer(work);
    }
    m_kit.locks.unlock(plan.stripe);
    return ok;
}

// One stripe's part of a write, under the stripe's lock: the plan's reads into a work buffer,
// the new parity computed by the XOR engine, then the data and parity writes in parallel.
//
// The work buffer holds slots of `rows` sectors (the parity rows the write touches), each zero
// outside what was put in it, so one XOR over all slots gives the parity rows: slot 0 receives
// the new parity; a read lands in its disk's slot; new data go into their disk's slot
// (reconstruct-write: the slot of the unit's other contents; read-modify-write: a slot of their
// own, beside the old data and the old parity). A full-stripe write XORs the host buffer directly.
bool raid_firmware::stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity, int *unreadable) {
    const stripe_rows r(*m_stripes, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const bool full = plan.path == write_path::full_stripe;
    if (plan.path == write_path::read_modify_write && pw.kind == disk_op_kind::read_rotate_write)
        return read_rotate_stripe_write(plan, host_lbn, buffer, affinity, unreadable);
    const int new_role = plan.path == write_path::read_modify_write ? 1 : 0;
    std::map<std::pair<int, int>, uint64_t> slot;  // (disk, role) -> slot; role 0: read, 1: new data
    auto slot_of = [&](int disk, int role) {
        return slot.try_emplace({disk, role}, uint64_t(slot.size()) + 1).first->second;
    };
    std::vector<const disk_op *> reads, writes;
    std::vector<protocol::buffer_ref> inputs;
    for (const disk_op &op : plan.ops) {
        if (op.kind == disk_op_kind::read) {
            reads.push_back(&op);
            slot_of(op.disk, 0);
        } else {
            writes.push_back(&op);
            if (op.parity) continue;
            if (full) inputs.push_back({buffer, r.host_offset(op)});
            else slot_of(op.disk, new_role);
        }
    }
    const uint64_t slots = slot.size() + 1;

    m_kit.locks.lock(plan.stripe);
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    if (!absent_as_planned(plan.stripe, -1)) {
        m_platform.free_buffer(work);
        m_kit.locks.unlock(plan.stripe);
        return false;
    }
    ++m_stats.stripe_writes[size_t(plan.path)];
    for (const auto &[key, k] : slot) inputs.push_back({work, k * r.rows});
    bool ok = m_kit.parallel(reads.size(), [&](size_t i) {
        const disk_op &op = *reads[i];
        const bool read = m_kit.disk_io(false, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work,
                                        slot_of(op.disk, 0) * r.rows + r.row_of(op));
        if (!read && unreadable) *unreadable = op.disk;
        return read;
    });
    if (ok) {
        if (data && !full)
            for (const disk_op *op : writes) {
                if (op->parity) continue;
                const uint64_t *from = buffer->tokens.data() + r.host_offset(*op);
                std::copy(from, from + op->sectors,
                          work->tokens.begin() + int64_t(slot_of(op->disk, new_role) * r.rows + r.row_of(*op)));
            }
        m_kit.xor_blocks(inputs, {work, 0}, r.rows, affinity);
        ok = m_kit.parallel(writes.size(), [&](size_t i) {
            const disk_op &op = *writes[i];
            if (op.parity)
                return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0);
            return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           r.host_offset(op));
        });
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    return ok;
}

// Read-modify-write as read-rotate-write (the parity-logging paper's "two read-rotate-write
// accesses"): every data disk the write touches and the parity disk each get one drive command
// that reads the sectors, lets them come round and writes them, all issued together. The data
// disks write the new data and return the old. The parity disk's write phase needs old parity ^
// old data ^ new data, but a firmware cannot know the old data (nor the old parity) when it sends
// the command; the simplification, as in the paper's model: the XOR happens on the parity drive
// when its sectors come round, at no cost there. Functionally the parity command carries the
// new data; when every command is back the XOR engine computes old parity ^ old data ^ new data
// from the returned old tokens (its time charged on the response path, as the engine would have
// to produce the parity delta) and the result is installed on the parity drive untimed (TLM debug
// transport). Timing-only runs skip the tokens but charge the same XOR.
//
// A command that fails (its member lost while it was out, or a MEDIUM ERROR) leaves the others'
// writes torn: they are written back from the old tokens they returned (read_rotate_undo.h) and
// *failed_disk says whose command failed, for the caller to write the stripe the degraded way.
bool raid_firmware::rrw_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                      int affinity, int *failed_disk) {
    const stripe_rows r(*m_stripes, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const size_t n = plan.ops.size();  // the data ops, then the parity op last
    // Slots of `r.rows`: 0 the new parity, 1 + k op k's old tokens, 1 + n + k op k's new data.
    const uint64_t slots = 1 + 2 * uint64_t(n);
    m_kit.locks.lock(plan.stripe);
    protocol::buffer_block *work = m_platform.allocate_buffer(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    if (!absent_as_planned(plan.stripe, -1)) {
        m_platform.free_buffer(work);
        m_kit.locks.unlock(plan.stripe);
        return false;
    }
    ++m_stats.stripe_writes[size_t(plan.path)];
    std::vector<std::vector<uint64_t>> old(n);
    std::vector<char> done(n, 0);
    const bool parity_last = m_platform.config().firmware.rrw_parity_after_data && n > 1 && plan.ops.back().parity;
    const bool cached = m_platform.config().firmware.old_data_cached;
    auto command = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        // The parity command carries slot 0 (a stand-in: the new parity is installed below).
        if (op.parity)
            return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0, &old[k]);
        if (cached) {
            // A data cache hit: the old data the controller holds is what the drive holds now (the
            // stripe is locked), taken untimed; the data disk only writes.
            if (data) {
                old[k].resize(size_t(op.sectors));
                m_platform.peek_untimed(op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), old[k].data());
            }
            return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                                 r.host_offset(op));
        }
        return m_kit.disk_io(true, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                       r.host_offset(op), &old[k]);
    };
    auto rrw = [&](size_t k) {
        done[k] = command(k);
        if (!done[k] && failed_disk) *failed_disk = plan.ops[k].disk;
        return bool(done[k]);
    };
    // controller.rrw_order parity_after_data: the data disks' commands, then the parity disk's.
    bool ok = parity_last ? m_kit.parallel(n - 1, rrw) && rrw(n - 1) : m_kit.parallel(n, rrw);
    if (!ok) {
        std::vector<overwritten_unit> torn;
        for (size_t k = 0; k < n; ++k)
            if (done[k])
                torn.push_back({plan.ops[k].disk, uint64_t(plan.ops[k].drive_lbn), uint32_t(plan.ops[k].sectors), &old[k]});
        write_back_old_units(m_kit, torn);
    }
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t k = 0; k < n; ++k) {
            const disk_op &op = plan.ops[k];
            const uint64_t at = r.row_of(op);
            inputs.push_back({work, (1 + k) * r.rows});
            if (data) std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((1 + k) * r.rows + at));
            if (op.parity) continue;
            inputs.push_back({work, (1 + n + k) * r.rows});
            if (data) {
                const uint64_t *from = buffer->tokens.data() + r.host_offset(op);
                std::copy(from, from + op.sectors, work->tokens.begin() + int64_t((1 + n + k) * r.rows + at));
            }
        }
        m_kit.xor_blocks(inputs, {work, 0}, r.rows, affinity);
        if (data) {
            ok = m_platform.install_untimed(pw.disk, uint64_t(pw.drive_lbn), work->tokens.data(), uint32_t(r.rows));
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    return ok;
}

// A read with a disk lost: data on the survivors read directly; each lost piece rebuilt by the XOR
// engine from the same rows of every other unit of its stripe (data and parity).
bool raid_firmware::degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_stripes->map(int64_t(lbn), int32_t(sectors), chunks);
    return m_kit.parallel(chunks.size(), [&](size_t i) {
        const chunk &c = chunks[i];
        const int64_t stripe = m_stripes->stripe_of(c.lbn);
        const int disk = c.replicas.front().disk;
        // Each turn takes the members absent by now: one lost while the turn's reads were out
        // (the chunk's own disk, or a replacement lost during its rebuild) failed them.
        for (int attempt = 0; attempt < 4; ++attempt) {
            const uint64_t losses = m_platform.member_losses();
            std::vector<int> absent;
            absent_in_stripe(stripe, absent);
            const bool here = std::find(absent.begin(), absent.end(), disk) == absent.end();
            if (!here && absent.size() > 1) {
                lose_stripe(stripe, absent);
                return false;
            }
            if (rebuild_chunk(c, lbn, buffer, here ? -1 : disk, false, affinity)) return true;
            if (m_platform.member_losses() != losses) continue;
            // The chunk's own drive could not read it (MEDIUM ERROR) in a stripe that misses no
            // member (the rebuild has passed it, or another stripe's member is the one missing):
            // rebuilt from the rest of the stripe and rewritten, as when all members are optimal.
            if (!here || !absent.empty()) return false;
            ++m_stats.media_repairs;
            return rebuild_chunk(c, lbn, buffer, disk, true, affinity);
        }
        return false;
    });
}

// A read some of whose sectors the drive could not read (MEDIUM ERROR): each chunk read again on
// its own, and a chunk that fails is rebuilt from the rest of its stripe and written back to its
// disk (the drive reallocates the sectors on the write), so the next read finds them readable.
bool raid_firmware::read_repairing(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_stripes->map(int64_t(lbn), int32_t(sectors), chunks);
    return m_kit.parallel(chunks.size(), [&](size_t i) {
        const chunk &c = chunks[i];
        const replica &r = c.replicas.front();
        const disk_extent &e = r.extents.front();
        if (m_kit.disk_io(false, r.disk, uint64_t(e.drive_lbn), uint32_t(e.sectors), buffer, uint64_t(c.lbn) - lbn))
            return true;
        ++m_stats.media_repairs;
        return rebuild_chunk(c, lbn, buffer, r.disk, true, affinity);
    });
}

void raid_firmware::note_lost_range(int64_t lbn, int32_t sectors) {
    m_lost_noted.insert(lbn, lbn + sectors);
    m_lost_sectors.note(lbn, lbn + sectors);
}

bool raid_firmware::overlaps_lost_sectors(uint64_t lbn, uint32_t sectors) const {
    return m_lost_sectors.overlaps(int64_t(lbn), int64_t(lbn + sectors));
}

void raid_firmware::note_lost_rows(int64_t stripe, int disk, uint64_t row, uint64_t rows) {
    const int j = m_stripes->unit_on_disk(stripe, disk);
    if (j < 0) return;  // the parity, or no unit there: no data lost
    note_lost_range(m_stripes->stripe_first_lbn(stripe) + j * m_stripes->unit_sectors() + int64_t(row), int32_t(rows));
}

bool raid_firmware::note_rows_beyond_checks(int64_t stripe, const std::vector<int> &absent,
                                            const std::vector<survivor_read> &unreadable, uint64_t row, uint64_t rows) {
    const uint64_t losses = m_platform.member_losses();
    std::vector<std::vector<sector_run>> bad(unreadable.size());
    for (size_t k = 0; k < unreadable.size(); ++k) {
        const survivor_read &r = unreadable[k];
        bad[k] = narrow_unreadable(rows, [&](uint64_t at, uint64_t count) {
            return m_kit.disk_io(false, r.disk, r.drive_lbn + at, uint32_t(count), r.buffer, r.first_sector + at);
        });
    }
    if (m_platform.member_losses() != losses) return false;
    const int checks = m_stripes->check_units();
    // Per disk (absent ones first, then the unreadable survivors), the rows it loses.
    std::vector<std::vector<sector_run>> lost(absent.size() + unreadable.size());
    for (uint64_t r = 0; r < rows; ++r) {
        int missing = int(absent.size());
        for (const auto &b : bad) missing += in_runs(b, r) ? 1 : 0;
        if (missing <= checks) continue;
        for (size_t a = 0; a < absent.size(); ++a) add_run(lost[a], r, 1);
        for (size_t k = 0; k < bad.size(); ++k)
            if (in_runs(bad[k], r)) add_run(lost[absent.size() + k], r, 1);
    }
    for (size_t i = 0; i < lost.size(); ++i) {
        const int disk = i < absent.size() ? absent[i] : unreadable[i - absent.size()].disk;
        for (const sector_run &r : lost[i]) note_lost_rows(stripe, disk, row + r.first, r.count);
    }
    return true;
}

void raid_firmware::record_lost_stripe_rows(int64_t stripe, int lost) {
    const int j = m_stripes->unit_on_disk(stripe, lost);
    if (j < 0) return;  // the parity, or no unit there: no data lost
    note_lost_range(m_stripes->stripe_first_lbn(stripe) + j * m_stripes->unit_sectors(),
                    int32_t(m_stripes->unit_sectors()));
}

bool raid_firmware::rebuild_chunk(const chunk &c, uint64_t lbn, protocol::buffer_block *buffer, int lost,
                                  bool rewrite, int affinity) {
    const bool data = !buffer->tokens.empty();
    const uint64_t offset = uint64_t(c.lbn - int64_t(lbn));
    std::vector<disk_op> ops;
    plan_degraded_read(*m_stripes, c.lbn, c.sectors, lost, ops);
    if (ops.size() == 1)
        return m_kit.disk_io(false, ops[0].disk, uint64_t(ops[0].drive_lbn), uint32_t(ops[0].sectors), buffer, offset);
    const uint64_t n = uint64_t(c.sectors);
    const int64_t stripe = m_stripes->stripe_of(c.lbn);
    ++m_stats.rebuilt_reads;
    m_kit.locks.lock(stripe);  // not while a write of the stripe is half done
    protocol::buffer_block *work =
        m_platform.allocate_buffer(ops.size() * n * protocol::sector_bytes, data ? ops.size() * n : 0);
    if (!absent_as_planned(stripe, lost)) {
        m_platform.free_buffer(work);
        m_kit.locks.unlock(stripe);
        return false;
    }
    const uint64_t losses = m_platform.member_losses();
    std::vector<char> read_failed(ops.size(), 0);
    bool ok = m_kit.parallel(ops.size(), [&](size_t k) {
        read_failed[k] = !m_kit.disk_io(false, ops[k].disk, uint64_t(ops[k].drive_lbn), uint32_t(n), work, k * n);
        return !read_failed[k];
    });
    if (!ok && m_platform.member_losses() == losses) {
        // A second fault in the stripe (a survivor's MEDIUM ERROR): the rows it cannot give are
        // lost, sector by sector. A member lost meanwhile: the caller reads again around it.
        std::vector<survivor_read> unreadable;
        for (size_t k = 0; k < ops.size(); ++k)
            if (read_failed[k]) unreadable.push_back({ops[k].disk, uint64_t(ops[k].drive_lbn), work, k * n});
        note_rows_beyond_checks(stripe, {lost}, unreadable, uint64_t(m_stripes->offset_in_unit(ops[0].drive_lbn)), n);
    }
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t k = 0; k < ops.size(); ++k) inputs.push_back({work, k * n});
        m_kit.xor_blocks(inputs, {buffer, offset}, n, affinity);
        // Written back under the lock: no newer write of the stripe can come between.
        if (rewrite) {
            const disk_extent &e = c.replicas.front().extents.front();
            ok = m_kit.disk_io(true, lost, uint64_t(e.drive_lbn), uint32_t(n), buffer, offset);
        }
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(stripe);
    return ok;
}

}  // namespace raidtlm::controller
