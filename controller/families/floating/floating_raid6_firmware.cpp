// Floating data and check over RAID 6 (the parity logging paper's Section 9: "f floated
// read-rotate-write accesses per blind write" beyond the data's, so three at f = 2, four at f = 3
// with R: controller.floating_checks 3; its Figure 30).
//
// A read-modify-write stripe is, on each data disk and on each check's disk (P, Q, R), one
// relocating read-rotate-write of the whole unit (floating_units::read_rotate_write): the old unit
// read and the command's write sent to the free slot of the same cylinder the head reaches first.
// As over RAID 5 (floating_firmware.cpp) the commands carry stand-ins: once all are back the XOR
// engine computes P' = P + sum(old + new) in its XOR mode and Q' = Q + sum g^j (old + new) (R' =
// R + sum g^(2j) (old + new)) in its GF mode (timed, raid6_firmware::combine) over whole units,
// and the new data units (old unit with the new sectors laid over) and checks are installed at
// their new slots untimed. Then the tables
// are updated per moved unit and the write waits for earlier reads of the data units it replaced (the
// read/move ordering rules of floating_firmware.cpp hold unchanged: floating_units holds a slot
// while a command is in flight on it).
//
// controller.old_data cached, as over RAID 5: the data unit is rewritten in place by a plain
// write carrying the new unit (its old tokens taken from the controller's cache, untimed), only P
// and the checks float. controller.rrw_order parity_after_data: the checks' accesses after the data's.
//
// Everything else is raid6_firmware's: full-stripe and reconstruct writes, reads, degraded paths
// with up to as many members lost as checks, media-error repair, rebuild and power-loss resync all address
// units where they are now (firmware_kit::disk_io translates every logical drive LBN).
#include "controller/families/floating/floating_raid6_firmware.h"

#include <algorithm>

#include "controller/families/raid/read_rotate_undo.h"

namespace raidtlm::controller {

floating_raid6_firmware::floating_raid6_firmware(firmware_platform &platform)
    : raid6_firmware(platform), m_units(platform, m_kit) {
    m_always_read_rotate_write = true;  // a small write is a relocating read-rotate-write per disk
}

floating_raid6_firmware::~floating_raid6_firmware() = default;

size_t floating_raid6_firmware::restart_after_power_loss() {
    m_units.restart_after_power_loss();
    return raid6_firmware::restart_after_power_loss();
}

bool floating_raid6_firmware::rrw_pq_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                                  protocol::buffer_block *buffer, int affinity,
                                                  const std::vector<int> &media_errors, int *failed_read) {
    const parity_stripe_layout &l = *m_stripes;
    const uint64_t unit = uint64_t(m_units.unit_sectors());
    const bool data = !buffer->tokens.empty();
    const size_t n = plan.ops.size();
    const int data_units = l.stripe_data_units(plan.stripe);
    const size_t m = size_t(checks());
    // Slots of `unit` sectors: k new check k (0 P, 1 Q, 2 R), m + k op k's old unit, m + n + k data
    // op k's new unit, m + 2n the stand-in the moving commands carry (zeros).
    const uint64_t standin = m + 2 * n;
    protocol::buffer_block *work = lock_for_write(plan, (standin + 1) * unit, data, media_errors, failed_read);
    if (!work) return false;
    const bool cached = m_platform.config().firmware.old_data_cached;
    auto in_place = [&](const disk_op &op) { return cached && op.data(); };
    std::vector<std::optional<floating_units::move>> moves(n);
    for (size_t k = 0; k < n; ++k)
        if (!in_place(plan.ops[k])) moves[k] = m_units.begin_move(plan.ops[k].disk, uint64_t(plan.ops[k].drive_lbn));
    std::vector<std::vector<uint64_t>> old(n);
    std::vector<char> completed(n, 0);
    std::vector<char> carried(n, 0);  // its command carried its new unit (nothing to install)
    auto unit_first = [&](const disk_op &op) { return uint64_t(op.drive_lbn) / unit * unit; };
    // Data op k's new unit in slot m + n + k: its old contents with the write's sectors laid over.
    auto compose_new_unit = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((m + n + k) * unit));
        const uint64_t from = uint64_t(l.logical_lbn_on_disk(plan.stripe, op.disk, op.drive_lbn) - int64_t(host_lbn));
        std::copy(buffer->tokens.begin() + int64_t(from), buffer->tokens.begin() + int64_t(from) + op.sectors,
                  work->tokens.begin() + int64_t((m + n + k) * unit + uint64_t(op.drive_lbn) % unit));
    };
    auto rrw = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        const uint64_t first = unit_first(op);
        bool done;
        if (in_place(op)) {
            // Its old tokens as the cache holds them (the drive's, the stripe locked), untimed; the
            // write carries the new unit itself, since it overwrites the only copy a read may be
            // reading.
            if (data) {
                old[k].resize(size_t(unit));
                m_platform.peek_untimed(op.disk, m_units.drive_lbn(op.disk, first, uint32_t(unit)), uint32_t(unit),
                                        old[k].data());
                compose_new_unit(k);
            }
            done = m_kit.disk_io(true, op.disk, first, uint32_t(unit), work, (m + n + k) * unit);
        } else if (op.data() && !moves[k]) {
            // No free slot in its cylinder: the data unit is rewritten where it is, by a read and
            // then a write carrying its new contents, as over RAID 5 (floating_firmware.cpp): a
            // read-rotate-write would leave the stand-in there until the new unit is installed,
            // and a host read of the unit's other sectors returned it (explorer case 91:509, no
            // fault: 5 reads of zeros).
            done = m_kit.disk_io(false, op.disk, first, uint32_t(unit), work, (m + k) * unit);
            if (done) {
                if (data) {
                    old[k].assign(work->tokens.begin() + int64_t((m + k) * unit),
                                  work->tokens.begin() + int64_t((m + k + 1) * unit));
                    compose_new_unit(k);
                }
                carried[k] = 1;
                done = m_kit.disk_io(true, op.disk, first, uint32_t(unit), work, (m + n + k) * unit);
            }
        } else {
            done = m_units.read_rotate_write(op.disk, first, moves[k], work, standin * unit, (m + n + k) * unit, &old[k]);
        }
        if (!done) *failed_read = op.disk;
        completed[k] = done;
        return done;
    };
    // controller.rrw_order parity_after_data: the data disks' accesses, then the checks' (the
    // plan lists the data ops first).
    const size_t data_ops = size_t(std::count_if(plan.ops.begin(), plan.ops.end(), [](const disk_op &o) { return o.data(); }));
    const bool checks_last = m_platform.config().firmware.rrw_parity_after_data && data_ops > 0;
    bool ok = checks_last ? m_kit.parallel(data_ops, rrw) &&
                                m_kit.parallel(n - data_ops, [&](size_t k) { return rrw(data_ops + k); })
                          : m_kit.parallel(n, rrw);
    if (!ok) {
        // A command failed (its member lost while it was out): moved units still live in their old
        // slots (the moves are cancelled below); a unit written where it is (no free slot in its
        // cylinder: the stand-in; cached old data: the new unit) gets its old contents back, so
        // the stripe is as before the write and the caller writes it the degraded way.
        std::vector<overwritten_unit> torn;
        for (size_t k = 0; k < n; ++k)
            if (completed[k] && !moves[k])
                torn.push_back({plan.ops[k].disk, unit_first(plan.ops[k]), uint32_t(unit), &old[k]});
        write_back_old_units(m_kit, torn);
    }
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        std::vector<std::vector<uint8_t>> check_coefficients(m);  // [c]: check c's, one per input
        auto add = [&](uint64_t s, int member) {
            inputs.push_back({work, s * unit});
            for (size_t c = 0; c < m; ++c)
                check_coefficients[c].push_back(update_coefficient(int(c), member, data_units));
        };
        for (size_t k = 0; k < n; ++k) {
            const disk_op &op = plan.ops[k];
            const int member = member_on_disk(plan.stripe, op.disk);
            add(m + k, member);
            if (data) std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((m + k) * unit));
            if (!op.data()) continue;
            add(m + n + k, member);
            if (data && !in_place(op)) compose_new_unit(k);
        }
        // Over whole units: outside the write's rows the new unit equals the old, so the sums
        // leave those rows of the checks as they were.
        for (size_t c = 0; c < m; ++c) combine(inputs, check_coefficients[c], {work, c * unit}, unit, affinity);
        for (size_t k = 0; k < n && ok && data; ++k) {
            const disk_op &op = plan.ops[k];
            if (in_place(op) || carried[k]) continue;  // its command carried the new unit
            const uint64_t from = op.data() ? (m + n + k) * unit : uint64_t(op.check()) * unit;
            ok = m_platform.install_untimed(op.disk, m_units.destination(op.disk, unit_first(op), moves[k]),
                                            work->tokens.data() + from, uint32_t(unit));
        }
    }
    // The tables: every unit that moved now lives in its new slot (the old one is free); a failed
    // stripe's reserved slots are free again.
    // Every data unit the write replaced, moved or rewritten in place, is fenced (as over RAID 5:
    // a read that began before may have read the old unit and not returned yet).
    std::vector<int64_t> replaced_units;  // logical first sectors
    for (size_t k = 0; k < n; ++k) {
        const disk_op &op = plan.ops[k];
        if (ok && op.data())
            replaced_units.push_back(l.logical_lbn_on_disk(plan.stripe, op.disk, int64_t(unit_first(op))));
        if (in_place(op)) continue;  // rewritten in place by design
        m_units.settle(op.disk, moves[k], ok, affinity);
    }
    m_platform.free_buffer(work);
    m_kit.locks.unlock(plan.stripe);
    for (int64_t first : replaced_units) wait_for_earlier_reads(first, int64_t(unit));
    return ok;
}

void floating_raid6_firmware::reset_statistics() {
    raid6_firmware::reset_statistics();
    m_units.reset_statistics();
}

void floating_raid6_firmware::report(nlohmann::json &out) const {
    raid6_firmware::report(out);
    m_units.report(out);
}

}  // namespace raidtlm::controller
