// RAID 4/5 writes and degraded reads: stripe plans, XOR engine, stripe locks.
#include "controller/controller_top.h"
#include "controller/controller_top_state.h"
#include "controller/mirror_read_router.h"

#include <algorithm>
#include <limits>

namespace raidtlm::controller {

using rtl_models::now_s;

// ---- RAID 4/5 -----------------------------------------------------------------------------------

bool controller_top::parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<stripe_write_plan> plans;
    parity_write_policy policy = m_config.firmware.parity_writes;
    if (m_floating) policy.read_rotate_write = true;       // floating_stripe_write's commands
    if (m_failed >= 0) policy.read_rotate_write = false;  // degraded writes read the survivors
    plan_parity_write(*m_parity, int64_t(lbn), int32_t(sectors), policy, plans);
    return parallel(plans.size(), [&](size_t i) {
        return m_failed >= 0 ? degraded_stripe_write(plans[i], lbn, buffer, affinity)
                             : stripe_write(plans[i], lbn, buffer, affinity);
    });
}

// A stripe write with a disk lost. Lost parity: the data are written, nothing else. Lost data:
// the parity rows the write touches are read from every surviving disk (data and parity), the
// lost unit's old rows rebuilt by one XOR, the new data laid over the old in each unit's slot,
// and a second XOR over the D-1 data slots gives the new parity; the lost disk is not written.
bool controller_top::degraded_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                           protocol::buffer_block *buffer, int affinity) {
    const parity_layout &l = *m_parity;
    const bool data = !buffer->tokens.empty();
    const int64_t row0 = plan.stripe * l.unit_sectors();
    const disk_op &pw = plan.parity_write();
    const int64_t lo = pw.drive_lbn;
    const uint64_t rows = uint64_t(pw.sectors);
    const int parity_disk = l.parity_disk(plan.stripe);
    auto host_offset = [&](const disk_op &op) {
        const int j = l.data_unit_on_disk(plan.stripe, op.disk);
        return uint64_t(l.logical_lbn(plan.stripe, j, op.drive_lbn - row0) - int64_t(host_lbn));
    };
    std::vector<const disk_op *> writes;
    for (const disk_op &op : plan.ops)
        if (op.kind == disk_op_kind::write && !op.parity && op.disk != m_failed) writes.push_back(&op);
    auto write_all = [&](protocol::buffer_block *work) {
        const bool with_parity = work != nullptr;
        return parallel(writes.size() + (with_parity ? 1 : 0), [&](size_t i) {
            if (i == writes.size())
                return disk_io(tlm::TLM_WRITE_COMMAND, parity_disk, uint64_t(lo), uint32_t(rows), work, 0, nullptr);
            const disk_op &op = *writes[i];
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           host_offset(op), nullptr);
        });
    };
    ++m_stats.degraded_stripe_writes;
    lock_stripe(plan.stripe);
    bool ok;
    if (parity_disk == m_failed) {
        ok = write_all(nullptr);
    } else {
        // Slots of `rows`: 0 the new parity, 1 + disk each disk's rows (the lost disk's rebuilt).
        const int d_count = l.disks();
        const uint64_t slots = uint64_t(d_count) + 1;
        protocol::buffer_block *work = m_dram->allocate(slots * rows * protocol::sector_bytes, data ? slots * rows : 0);
        check_power();
        auto slot = [&](int disk) { return protocol::buffer_ref{work, (uint64_t(disk) + 1) * rows}; };
        std::vector<int> survivors;
        for (int d = 0; d < d_count; ++d)
            if (d != m_failed) survivors.push_back(d);
        ok = parallel(survivors.size(), [&](size_t i) {
            return disk_io(tlm::TLM_READ_COMMAND, survivors[i], uint64_t(lo), uint32_t(rows), work,
                           slot(survivors[i]).first_sector, nullptr);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (int d : survivors) inputs.push_back(slot(d));
            xor_blocks(inputs, slot(m_failed), rows, affinity);  // the lost unit's old rows
            if (data)
                for (const disk_op &op : plan.ops) {
                    if (op.kind != disk_op_kind::write || op.parity) continue;
                    const uint64_t *from = buffer->tokens.data() + host_offset(op);
                    std::copy(from, from + op.sectors,
                              work->tokens.begin() + int64_t(slot(op.disk).first_sector + uint64_t(op.drive_lbn - lo)));
                }
            inputs.clear();
            for (int d = 0; d < d_count; ++d)
                if (d != parity_disk) inputs.push_back(slot(d));
            xor_blocks(inputs, {work, 0}, rows, affinity);
            ok = write_all(work);
        }
        m_dram->free(work);
    }
    unlock_stripe(plan.stripe);
    return ok;
}

namespace {

// What both stripe-write paths read off a plan: the parity rows the write touches and where a
// data op's sectors sit in the host's buffer.
struct stripe_rows {
    stripe_rows(const parity_layout &layout, const stripe_write_plan &p, uint64_t host)
        : l(layout),
          plan(p),
          host_lbn(host),
          row0(p.stripe * layout.unit_sectors()),
          lo(p.parity_write().drive_lbn),
          rows(uint64_t(p.parity_write().sectors)) {}
    uint64_t host_offset(const disk_op &op) const {
        const int j = l.data_unit_on_disk(plan.stripe, op.disk);
        return uint64_t(l.logical_lbn(plan.stripe, j, op.drive_lbn - row0) - int64_t(host_lbn));
    }
    const parity_layout &l;
    const stripe_write_plan &plan;
    uint64_t host_lbn;
    int64_t row0;   // first drive LBN of the stripe's rows
    int64_t lo;     // first parity row the write touches
    uint64_t rows;  // parity rows the write touches
};

}  // namespace

// One stripe's part of a write, under the stripe's lock: the plan's reads into a work buffer,
// the new parity computed by the XOR engine, then the data and parity writes in parallel.
//
// The work buffer holds slots of `rows` sectors (the parity rows the write touches), each zero
// outside what was put in it, so one XOR over all slots gives the parity rows: slot 0 receives
// the new parity; a read lands in its disk's slot; new data go into their disk's slot
// (reconstruct-write: the slot of the unit's other contents; read-modify-write: a slot of their
// own, beside the old data and the old parity). A full-stripe write XORs the host buffer directly.
bool controller_top::stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity) {
    const stripe_rows r(*m_parity, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const bool full = plan.path == write_path::full_stripe;
    if (m_floating && plan.path == write_path::read_modify_write && pw.kind == disk_op_kind::read_rotate_write)
        return floating_stripe_write(plan, host_lbn, buffer, affinity);
    if (plan.path == write_path::read_modify_write && pw.kind == disk_op_kind::read_rotate_write)
        return rrw_stripe_write(plan, host_lbn, buffer, affinity);
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

    ++m_stats.stripe_writes[size_t(plan.path)];
    lock_stripe(plan.stripe);
    protocol::buffer_block *work = m_dram->allocate(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    check_power();
    for (const auto &[key, k] : slot) inputs.push_back({work, k * r.rows});
    bool ok = parallel(reads.size(), [&](size_t i) {
        const disk_op &op = *reads[i];
        return disk_io(tlm::TLM_READ_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work,
                       slot_of(op.disk, 0) * r.rows + uint64_t(op.drive_lbn - r.lo), nullptr);
    });
    if (ok) {
        if (data && !full)
            for (const disk_op *op : writes) {
                if (op->parity) continue;
                const uint64_t *from = buffer->tokens.data() + r.host_offset(*op);
                std::copy(from, from + op->sectors,
                          work->tokens.begin() + int64_t(slot_of(op->disk, new_role) * r.rows + uint64_t(op->drive_lbn - r.lo)));
            }
        xor_blocks(inputs, {work, 0}, r.rows, affinity);
        ok = parallel(writes.size(), [&](size_t i) {
            const disk_op &op = *writes[i];
            if (op.parity)
                return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0,
                               nullptr);
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                           r.host_offset(op), nullptr);
        });
    }
    m_dram->free(work);
    unlock_stripe(plan.stripe);
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
bool controller_top::rrw_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                      int affinity) {
    const stripe_rows r(*m_parity, plan, host_lbn);
    const bool data = !buffer->tokens.empty();
    const disk_op &pw = plan.parity_write();
    const size_t n = plan.ops.size();  // the data ops, then the parity op last
    // Slots of `r.rows`: 0 the new parity, 1 + k op k's old tokens, 1 + n + k op k's new data.
    const uint64_t slots = 1 + 2 * uint64_t(n);
    ++m_stats.stripe_writes[size_t(plan.path)];
    lock_stripe(plan.stripe);
    protocol::buffer_block *work = m_dram->allocate(slots * r.rows * protocol::sector_bytes, data ? slots * r.rows : 0);
    check_power();
    std::vector<std::vector<uint64_t>> old(n);
    const bool parity_last = m_config.firmware.rrw_parity_after_data && n > 1 && plan.ops.back().parity;
    auto rrw = [&](size_t k) {
        const disk_op &op = plan.ops[k];
        // The parity command carries slot 0 (a stand-in: the new parity is installed below).
        if (op.parity)
            return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), work, 0,
                           nullptr, &old[k]);
        return disk_io(tlm::TLM_WRITE_COMMAND, op.disk, uint64_t(op.drive_lbn), uint32_t(op.sectors), buffer,
                       r.host_offset(op), nullptr,
                       &old[k]);
    };
    // controller.rrw_order parity_after_data: the data disks' commands, then the parity disk's.
    bool ok = parity_last ? parallel(n - 1, rrw) && rrw(n - 1) : parallel(n, rrw);
    if (ok) {
        std::vector<protocol::buffer_ref> inputs;
        for (size_t k = 0; k < n; ++k) {
            const disk_op &op = plan.ops[k];
            const uint64_t at = uint64_t(op.drive_lbn - r.lo);
            inputs.push_back({work, (1 + k) * r.rows});
            if (data) std::copy(old[k].begin(), old[k].end(), work->tokens.begin() + int64_t((1 + k) * r.rows + at));
            if (op.parity) continue;
            inputs.push_back({work, (1 + n + k) * r.rows});
            if (data) {
                const uint64_t *from = buffer->tokens.data() + r.host_offset(op);
                std::copy(from, from + op.sectors, work->tokens.begin() + int64_t((1 + n + k) * r.rows + at));
            }
        }
        xor_blocks(inputs, {work, 0}, r.rows, affinity);
        if (data) {
            tlm::tlm_generic_payload gp;
            gp.set_command(tlm::TLM_WRITE_COMMAND);
            gp.set_address(uint64_t(r.lo) * protocol::sector_bytes);
            gp.set_data_ptr(reinterpret_cast<unsigned char *>(work->tokens.data()));
            gp.set_data_length(unsigned(r.rows * protocol::token_bytes));
            gp.set_streaming_width(unsigned(r.rows * protocol::token_bytes));
            ok = disk[size_t(pw.disk)]->transport_dbg(gp) == r.rows * protocol::token_bytes;
        }
    }
    m_dram->free(work);
    unlock_stripe(plan.stripe);
    return ok;
}

// A read with a disk lost: data on the survivors read directly; each lost piece rebuilt by the XOR
// engine from the same rows of every other disk of its stripe (data and parity).
bool controller_top::degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) {
    std::vector<chunk> chunks;
    m_parity->map(int64_t(lbn), int32_t(sectors), chunks);
    const bool data = !buffer->tokens.empty();
    return parallel(chunks.size(), [&](size_t i) {
        const chunk &c = chunks[i];
        const uint64_t offset = uint64_t(c.lbn - int64_t(lbn));
        std::vector<disk_op> ops;
        plan_degraded_read(*m_parity, c.lbn, c.sectors, m_failed, ops);
        if (ops.size() == 1)
            return disk_io(tlm::TLM_READ_COMMAND, ops[0].disk, uint64_t(ops[0].drive_lbn), uint32_t(ops[0].sectors),
                           buffer, offset, nullptr);
        const uint64_t n = uint64_t(c.sectors);
        const int64_t stripe = ops[0].drive_lbn / m_parity->unit_sectors();
        ++m_stats.rebuilt_reads;
        lock_stripe(stripe);  // not while a degraded write of the stripe is half done
        protocol::buffer_block *work =
            m_dram->allocate(ops.size() * n * protocol::sector_bytes, data ? ops.size() * n : 0);
        check_power();
        bool ok = parallel(ops.size(), [&](size_t k) {
            return disk_io(tlm::TLM_READ_COMMAND, ops[k].disk, uint64_t(ops[k].drive_lbn), uint32_t(n), work, k * n,
                           nullptr);
        });
        if (ok) {
            std::vector<protocol::buffer_ref> inputs;
            for (size_t k = 0; k < ops.size(); ++k) inputs.push_back({work, k * n});
            xor_blocks(inputs, {buffer, offset}, n, affinity);
        }
        m_dram->free(work);
        unlock_stripe(stripe);
        return ok;
    });
}

void controller_top::lock_stripe(int64_t stripe) {
    stripe_lock &l = m_stripe_locks[stripe];
    if (!l.held) {
        l.held = true;
        return;
    }
    sc_core::sc_event go;
    l.waiting.push_back(&go);
    sc_core::wait(go);  // the lock is handed over
}

void controller_top::unlock_stripe(int64_t stripe) {
    auto it = m_stripe_locks.find(stripe);
    if (it->second.waiting.empty()) {
        m_stripe_locks.erase(it);
        return;
    }
    sc_core::sc_event *next = it->second.waiting.front();
    it->second.waiting.pop_front();
    next->notify(sc_core::SC_ZERO_TIME);
}

bool controller_top::raw_disk_io(bool read, int d, uint64_t lbn, uint32_t sectors, uint64_t *tokens) {
    join_epoch(m_epoch);
    protocol::buffer_block b;
    b.bytes = uint64_t(sectors) * protocol::sector_bytes;
    b.tokens.assign(tokens, tokens + sectors);
    const bool ok = disk_io(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, d, lbn, sectors, &b, 0, nullptr,
                            nullptr, nullptr, nullptr, raw_drive_lbn);
    if (read) std::copy(b.tokens.begin(), b.tokens.end(), tokens);
    return ok;
}

uint64_t controller_top::acquire_tag(int d, uint64_t lbn, uint32_t sectors, bool write,
                                     const std::vector<placement> *choices, size_t *chosen) {
    disk_state &ds = m_disk[size_t(d)];
    const bool several = choices && choices->size() > 1;
    if (ds.in_use < ds.tags && ds.queue.empty() && !(ds.scheduler && several)) {
        ++ds.in_use;
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        return 1;
    }
    const double t0 = now_s();
    disk_state::waiter w;
    if (ds.scheduler) {
        w.request.id = ds.next_id++;
        w.request.arrival_ms = t0 * 1e3;
        w.request.write = write;
        if (choices) {
            w.request.placements = *choices;
        } else {
            placement p;
            p.extents = {{int64_t(lbn), int32_t(sectors), false}};
            p.sectors = int32_t(sectors);
            p.first = ds.geometry->to_physical(int64_t(lbn));
            p.last = ds.geometry->to_physical(int64_t(lbn + sectors) - 1);
            w.request.placements.push_back(std::move(p));
        }
    }
    if (ds.in_use < ds.tags && ds.queue.empty()) {
        ++ds.in_use;
        m_stats.tag_wait.add(0);
        if (chosen) *chosen = 0;
        if (several) {
            // Several replicas and nothing queued: the scheduler picks among them alone.
            ds.snapshot.assign(1, w.request);
            const scheduling_decision pick = choose(ds);
            if (chosen) *chosen = pick.placement;
            return std::max<uint64_t>(1, pick.entries_examined);
        }
        return 1;
    }
    ds.queue.push_back(&w);
    while (!w.granted) sc_core::wait(w.go);
    m_stats.tag_wait.add(now_s() - t0);
    if (chosen) *chosen = w.placement;
    return w.n;
}

scheduling_decision controller_top::choose(disk_state &ds) {
    return ds.predictor ? *ds.scheduler->choose(ds.snapshot,
                                                ds.predictor->at_command(now_s() * 1e3 + std::max(0.0, ds.start_offset_ms)))
                        : *ds.scheduler->choose(ds.snapshot, ds.head);
}

void controller_top::release_tag(int d) {
    disk_state &ds = m_disk[size_t(d)];
    if (ds.queue.empty()) {
        --ds.in_use;
        serve_delayed(d);  // the foreground queue is empty: a delayed write may have the tag
        return;
    }
    disk_state::waiter *w;
    if (!ds.scheduler) {
        // The tag goes to the next command in the firmware's queue (first come, first served); the
        // decision looked at every entry queued.
        w = ds.queue.front();
        w->n = ds.queue.size();
        ds.queue.pop_front();
    } else {
        ds.snapshot.clear();
        for (const disk_state::waiter *q : ds.queue) ds.snapshot.push_back(q->request);
        const scheduling_decision pick = choose(ds);
        const auto it = ds.queue.begin() + int64_t(pick.request);
        w = *it;
        w->placement = pick.placement;
        w->n = std::max<uint64_t>(1, pick.entries_examined);
        ds.queue.erase(it);
    }
    if (w->primary) {
        // A duplicated request: this disk won; its copies in the other holders' queues go.
        const duplicate_request_tracker::claim c = m_dups.scheduled(w->dup, d);
        for (int other : c.cancel_on) {
            auto &q = m_disk[size_t(other)].queue;
            for (auto it = q.begin(); it != q.end(); ++it)
                if ((*it)->dup == w->dup) {
                    q.erase(it);
                    ++m_stats.cancelled_duplicates;
                    break;
                }
            m_dups.cancelled(w->dup, other);
        }
        disk_state::waiter *p = w->primary;
        p->placement = w->placement;
        p->n = w->n;
        p->granted_holder = w->holder;
        w = p;
    }
    w->granted = true;
    w->go.notify(sc_core::SC_ZERO_TIME);
}

void controller_top::host_dma(tlm::tlm_generic_payload &host_trans, protocol::buffer_block *buffer, uint64_t bytes,
                              int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::dma_setup, affinity);
    check_power();
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = *gp.get_extension<protocol::dma_command>();
    d = protocol::dma_command{};
    d.bytes = bytes;
    d.buffer = buffer;
    gp.set_command(host_trans.get_command());
    gp.set_data_ptr(host_trans.get_data_ptr());
    gp.set_data_length(host_trans.get_data_length());
    gp.set_streaming_width(host_trans.get_data_length());
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_link->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
}

void controller_top::table_update(int affinity) {
    m_cpu->run_priced(rtl_models::cpu_task::table_update, affinity);
    check_power();
    if (m_config.firmware.table_entry_bytes == 0) return;
    tlm::tlm_generic_payload &gp = m_dma_payloads.get();
    protocol::dma_command &d = *gp.get_extension<protocol::dma_command>();
    d = protocol::dma_command{};
    d.bytes = m_config.firmware.table_entry_bytes;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(0);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_to_dram->b_transport(gp, delay);
    m_dma_payloads.put(gp);
    check_power();
}

}  // namespace raidtlm::controller
