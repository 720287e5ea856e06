// Floating data and parity (Menon and Kasson; the parity logging paper's Section 4 and Figure 14):
// a RAID 5 whose units float within their cylinder. A small write is, on the data disk and on the
// parity disk, one access that reads the old unit and writes the new one into the free slot of the
// same cylinder the head reaches first after the read (floating_map::begin_move), then frees the
// old slot and updates the mapping tables in controller memory (a CPU table update and a request
// table write to the DRAM per moved unit). The drive does it as one read-rotate-write command whose
// write goes elsewhere (scsi_command::relocate_lbn), so no other command can come between the
// read and the write, as in the paper's model.
//
// As in rrw_stripe_write, the new contents cannot be in the commands when they are sent (the new
// parity needs the old parity and old data; a partial-unit write needs the old unit): the commands
// carry stand-ins, the XOR engine computes the new parity from the returned old units (timed), and
// the new data unit (old unit with the new sectors laid over) and the new parity are installed at
// their new slots untimed through the drive's debug transport. Full-stripe and reconstruct writes
// and reads go to the units where they are (firmware_kit::disk_io translates every logical
// drive LBN through the maps). Units move whole: a 1-sector write moves its 4-sector unit.
//
// Simplifications, named: data and parity share cylinders (Menon and Kasson's most aggressive
// variant keeps data-only and parity-only cylinders; it does not change a small write's disk
// time); the tables are kept in plain memory, not in the modelled NVRAM. The maps, the
// translation and one unit's move are floating_units' (shared with floating over RAID 6).
//
// Reads against moves: a read is translated to its unit's slot when its tag is granted and may
// still be at the drive when the move of that unit finishes. Two rules keep it right: a slot with
// a command in flight is never the target of a move (floating_map::hold), so the old slot still
// holds the old data; and a write that replaced a data unit is acknowledged only after every read
// of the unit that began before its table update has returned (m_order), so no read returns data
// older than an acknowledged write (raid_firmware::m_order; without it: 884 integrity errors in
// 40,320 reads, IBM 0661, 8 outstanding, a hot region of 48 units). The same holds for a unit
// rewritten in place (controller.old_data cached: its plain write is quick, so a read of it
// that began earlier often returned after the acknowledgement: 73 integrity errors in 16,432
// reads, 6 IBM 0661, 8 clients, 64 hot units, before the fence covered it).
#include "controller/families/floating/floating_firmware.h"

#include <algorithm>

#include "controller/layouts/parity_layout.h"
#include "controller/families/raid/read_rotate_undo.h"

namespace raidtlm::controller {

floating_firmware::floating_firmware(firmware_platform &platform) : raid_firmware(platform), m_units(platform, m_kit) {
    m_always_read_rotate_write = true;  // a small write is a relocating read-rotate-write per disk
}

floating_firmware::~floating_firmware() = default;

size_t floating_firmware::restart_after_power_loss() {
    m_units.restart_after_power_loss();
    return raid_firmware::restart_after_power_loss();
}

bool floating_firmware::read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                           protocol::buffer_block *buffer, int affinity, int *failed_disk) {
    const parity_layout &l = *m_parity;
    const uint64_t unit = uint64_t(l.unit_sectors());
    const int64_t row0 = plan.stripe * l.unit_sectors();
    const bool data = !buffer->tokens.empty();
    const size_t n = plan.ops.size();  // the data ops, then the parity op (parity_write_plan)
    // Slots of `unit` sectors: k the old unit of op k, n + k its new contents, 2n the stand-in the
    // commands carry (zeros).
    m_kit.locks.lock(plan.stripe);
    protocol::buffer_block *work =
        m_platform.allocate_buffer((2 * n + 1) * unit * protocol::sector_bytes, data ? (2 * n + 1) * unit : 0);
    if (!absent_as_planned(plan.stripe, -1)) {  // a member lost while the write waited
        m_platform.free_buffer(work);
        m_kit.locks.unlock(plan.stripe);
        return false;
    }
    ++m_stats.stripe_writes[size_t(plan.path)];
    // controller.old_data cached: the old data is in the controller's cache, so a data unit is
    // simply rewritten where it is; only the parity (whose old value must be read) floats.
    const bool cached = m_platform.config().firmware.old_data_cached;
    std::vector<std::optional<floating_units::move>> moves(n);
    for (size_t k = 0; k < n; ++k) {
        const disk_op &op = plan.ops[k];
        if (cached && !op.parity) continue;
        moves[k] = m_units.begin_move(op.disk, uint64_t(op.drive_lbn));
    }
    std::vector<std::vector<uint64_t>> old(n);
    std::vector<char> done(n, 0);
    std::vector<char> carried(n, 0);  // the command wrote the unit's new contents itself
    // Data op k's new unit in slot n + k: its old contents with the write's sectors laid over.
    auto compose_new_unit = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((n + k) * unit));
        const int j = l.data_unit_on_disk(plan.stripe, op.disk);
        const uint64_t from = uint64_t(l.logical_lbn(plan.stripe, j, op.drive_lbn - row0) - int64_t(host_lbn));
        std::copy(buffer->tokens.begin() + int64_t(from), buffer->tokens.begin() + int64_t(from) + op.sectors,
                  work->tokens.begin() + int64_t((n + k) * unit + uint64_t(op.drive_lbn) % unit));
    };
    auto command = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        const uint64_t first = uint64_t(op.drive_lbn) / unit * unit;  // the whole unit moves
        if (cached && !op.parity) {
            // Its old tokens as the drive holds them now (the stripe is locked), untimed; the write
            // carries the new unit itself, since it overwrites the only copy a read may be reading.
            if (data) {
                old[k].resize(size_t(unit));
                m_platform.peek_untimed(op.disk, m_units.drive_lbn(op.disk, first, uint32_t(unit)), uint32_t(unit),
                                        old[k].data());
                compose_new_unit(k);
            }
            return m_kit.disk_io(true, op.disk, first, uint32_t(unit), work, (n + k) * unit);
        }
        if (!op.parity && !moves[k]) {
            // No free slot in its cylinder: the data unit is rewritten where it is, by a read and
            // then a write carrying its new contents. A read-rotate-write would carry a stand-in
            // there until the new unit is installed, and a host read of the unit's other sectors
            // (no overlap with this write, so not held back) could return it: 31 to 67 reads of
            // zeros at 200+ outstanding (EXPERIMENTS 19.14). Moved units need no such care: the
            // new slot is read only after the tables say so.
            if (!m_kit.disk_io(false, op.disk, first, uint32_t(unit), work, k * unit)) return false;
            if (data) {
                old[k].assign(work->tokens.begin() + int64_t(k * unit), work->tokens.begin() + int64_t((k + 1) * unit));
                compose_new_unit(k);
            }
            carried[k] = 1;
            return m_kit.disk_io(true, op.disk, first, uint32_t(unit), work, (n + k) * unit);
        }
        return m_units.read_rotate_write(op.disk, first, moves[k], work, 2 * n * unit, (n + k) * unit, &old[k]);
    };
    auto rrw = [&](size_t k) {
        done[k] = command(k);
        if (!done[k] && failed_disk) *failed_disk = plan.ops[k].disk;
        return bool(done[k]);
    };
    // controller.rrw_order parity_after_data: the data disks' accesses, then the parity disk's.
    const bool parity_last = m_platform.config().firmware.rrw_parity_after_data && n > 1 && plan.ops.back().parity;
    bool ok = parity_last ? m_kit.parallel(n - 1, rrw) && rrw(n - 1) : m_kit.parallel(n, rrw);
    if (!ok) {
        // A command failed (its member lost while it was out): a moved unit's old slot still holds
        // it (the move is cancelled below), but a unit written where it is (no free slot in its
        // cylinder: the stand-in; cached old data: the new unit) gets its old contents back, so the
        // stripe is as before the write and the caller writes it the degraded way.
        std::vector<overwritten_unit> torn;
        for (size_t k = 0; k < n; ++k)
            if (done[k] && !moves[k])
                torn.push_back({plan.ops[k].disk, uint64_t(plan.ops[k].drive_lbn) / unit * unit, uint32_t(unit), &old[k]});
        write_back_old_units(m_kit, torn);
    }
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        size_t parity_k = n;
        for (size_t k = 0; k < n; ++k) {
            const disk_op &op = plan.ops[k];
            inputs.push_back({work, k * unit});
            if (data) std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t(k * unit));
            if (op.parity) {
                parity_k = k;
                continue;
            }
            inputs.push_back({work, (n + k) * unit});
            if (data) compose_new_unit(k);
        }
        // New parity = old parity ^ old data ^ new data, over the whole unit, into the parity op's
        // new-contents slot (inputs read before the output is written, as the engine streams).
        m_kit.xor_blocks(inputs, {work, (n + parity_k) * unit}, unit, affinity);
        for (size_t k = 0; k < n && ok; ++k) {
            const disk_op &op = plan.ops[k];
            const uint64_t at = m_units.destination(op.disk, uint64_t(op.drive_lbn), moves[k]);
            if (data && !carried[k])
                ok = m_platform.install_untimed(op.disk, at, work->tokens.data() + (n + k) * unit, uint32_t(unit));
        }
    }
    // The tables: every unit that moved now lives in its new slot (the old one is free); a
    // failed stripe's reserved slots are free again.
    // Every data unit the write replaced, moved or rewritten in place (cached old data, a full
    // cylinder), is fenced: a read that began before may have read the old unit and not returned.
    std::vector<int64_t> replaced_units;  // logical first sectors
    for (size_t k = 0; k < n; ++k) {
        const disk_op &op = plan.ops[k];
        if (ok && !op.parity)
            replaced_units.push_back(l.logical_lbn(plan.stripe, l.data_unit_on_disk(plan.stripe, op.disk), 0));
        if (cached && !op.parity) continue;  // rewritten in place by design
        m_units.settle(op.disk, moves[k], ok, affinity);
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    for (int64_t first : replaced_units) wait_for_earlier_reads(first, int64_t(unit));
    return ok;
}

void floating_firmware::reset_statistics() {
    raid_firmware::reset_statistics();
    m_units.reset_statistics();
}

void floating_firmware::report(nlohmann::json &out) const {
    raid_firmware::report(out);
    m_units.report(out);
}

}  // namespace raidtlm::controller
