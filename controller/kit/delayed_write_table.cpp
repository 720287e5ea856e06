#include "controller/kit/delayed_write_table.h"

#include <algorithm>

namespace raidtlm::controller {

delayed_write_table::delayed_write_table(int disks, const config &cfg)
    : m_cfg(cfg), m_queues(size_t(disks)), m_waiting(size_t(disks), 0), m_flushing(size_t(disks), false) {}

void delayed_write_table::first_write_scheduled(int64_t lbn, int32_t sectors, copy_location first,
                                                const std::vector<copy_location> &others,
                                                std::vector<propagation> &to_foreground, uint64_t owner) {
    supersede(lbn, lbn + sectors);
    if (others.empty()) return;
    entry e;
    e.owner = owner;
    e.lbn = lbn;
    e.sectors = sectors;
    e.source = first;
    for (const copy_location &o : others) e.copies.push_back({o});
    const uint64_t id = insert(std::move(e));
    for (size_t c = 0; c < others.size(); ++c) {
        if (m_cfg.foreground_propagation) to_foreground.push_back(hand_out(id, c));
        else enqueue(id, c);
    }
    if (entries() >= m_cfg.force_threshold_entries) start_flush();
}

void delayed_write_table::pop_stale(int disk) {
    auto &q = m_queues[size_t(disk)];
    while (!q.empty()) {
        auto it = m_entries.find(q.front().entry);
        if (it != m_entries.end() && it->second.copies[q.front().copy].state == copy_state::waiting) return;
        q.pop_front();
    }
}

std::optional<propagation> delayed_write_table::next_delayed(int disk) {
    pop_stale(disk);
    auto &q = m_queues[size_t(disk)];
    if (q.empty()) return std::nullopt;
    const queued item = q.front();
    q.pop_front();
    if (flushing(disk)) ++m_forced;
    --m_waiting[size_t(disk)];
    return hand_out(item.entry, item.copy);
}

bool delayed_write_table::next_is_buffered(int disk) {
    pop_stale(disk);
    const auto &q = m_queues[size_t(disk)];
    return !q.empty() && m_entries.at(q.front().entry).buffered;
}

bool delayed_write_table::flushing_any() const {
    for (size_t d = 0; d < m_waiting.size(); ++d)
        if (flushing(int(d))) return true;
    return false;
}

void delayed_write_table::propagation_done(uint64_t op) {
    m_in_flight.erase(op);
    auto targets = m_op_targets.find(op);
    if (targets == m_op_targets.end()) return;
    const std::vector<queued> written = std::move(targets->second);
    m_op_targets.erase(targets);
    for (const queued &t : written) {
        auto it = m_entries.find(t.entry);
        if (it == m_entries.end()) continue;
        pending_copy &pc = it->second.copies[t.copy];
        if (pc.state != copy_state::handed_out || pc.op != op) continue;
        pc.state = copy_state::done;
        const auto &copies = it->second.copies;
        if (std::all_of(copies.begin(), copies.end(), [](const pending_copy &c) { return c.state == copy_state::done; }))
            discard(t.entry);
    }
}

bool delayed_write_table::in_flight_overlaps(int disk, int64_t lbn, int32_t sectors) const {
    for (const auto &[op, p] : m_in_flight)
        if (p.to.disk == disk && p.lbn < lbn + sectors && lbn < p.lbn + p.sectors) return true;
    return false;
}

bool delayed_write_table::is_current(copy_location c, int64_t lbn, int32_t sectors) const {
    auto it = m_by_lbn.upper_bound(lbn);
    if (it != m_by_lbn.begin()) --it;
    for (; it != m_by_lbn.end() && it->first < lbn + sectors; ++it) {
        const entry &e = m_entries.at(it->second);
        if (e.lbn + e.sectors <= lbn || e.source == c) continue;
        for (const pending_copy &pc : e.copies)
            if (pc.where == c && pc.state != copy_state::done) return false;
    }
    return true;
}

std::vector<std::pair<int64_t, int32_t>> delayed_write_table::live_parts(uint64_t op) const {
    std::vector<std::pair<int64_t, int32_t>> parts;
    auto targets = m_op_targets.find(op);
    if (targets == m_op_targets.end()) return parts;
    for (const queued &t : targets->second) {
        auto it = m_entries.find(t.entry);
        if (it == m_entries.end()) continue;
        const pending_copy &pc = it->second.copies[t.copy];
        if (pc.state == copy_state::handed_out && pc.op == op) parts.emplace_back(it->second.lbn, it->second.sectors);
    }
    std::sort(parts.begin(), parts.end());
    return parts;
}

std::vector<uint64_t> delayed_write_table::take_released_owners() {
    std::vector<uint64_t> out;
    out.swap(m_released_owners);
    return out;
}

std::vector<recovery_item> delayed_write_table::recover_after_power_loss(std::vector<std::pair<int64_t, int32_t>> &lost) {
    m_in_flight.clear();
    m_op_targets.clear();
    for (auto &q : m_queues) q.clear();
    std::fill(m_waiting.begin(), m_waiting.end(), 0);
    m_buffered_sectors = 0;
    m_owner_entries.clear();  // the buffers are gone
    m_released_owners.clear();
    std::vector<recovery_item> items;
    std::vector<uint64_t> sourceless;
    for (const auto &[lbn, id] : m_by_lbn) {
        entry &e = m_entries.at(id);
        e.buffered = false;
        e.owner = 0;
        if (e.source_lost) {
            // The newest data were in the buffer and on the lost disk only: copying "the first
            // write's location" would copy whatever the drive now in that slot holds.
            lost.emplace_back(e.lbn, e.sectors);
            for (pending_copy &pc : e.copies) pc.state = copy_state::done;
            sourceless.push_back(id);
            continue;
        }
        recovery_item item{e.lbn, e.sectors, e.source, {}};
        for (size_t c = 0; c < e.copies.size(); ++c) {
            if (e.copies[c].state == copy_state::done) continue;
            e.copies[c].state = copy_state::waiting;
            item.stale.push_back(e.copies[c].where);
            enqueue(id, c);
        }
        items.push_back(std::move(item));
    }
    for (uint64_t id : sourceless) discard(id);
    return items;
}

std::vector<std::pair<int64_t, int32_t>> delayed_write_table::disk_lost(int disk) {
    std::vector<std::pair<int64_t, int32_t>> lost;
    std::vector<uint64_t> finished;
    for (const auto &[lbn, id] : m_by_lbn) {
        entry &e = m_entries.at(id);
        if (e.source.disk == disk && e.buffered) e.source_lost = true;
        if (e.source.disk == disk && !e.buffered) {
            // The newest data were on the lost disk only and no buffer holds them (a repair's are
            // on the copies it does not name as well: nothing lost, the repair is dropped).
            if (!e.repair) lost.emplace_back(e.lbn, e.sectors);
            for (pending_copy &pc : e.copies) {
                if (pc.state == copy_state::waiting) --m_waiting[size_t(pc.where.disk)];
                pc.state = copy_state::done;
            }
        }
        for (pending_copy &pc : e.copies)
            if (pc.where.disk == disk && pc.state == copy_state::waiting) {
                --m_waiting[size_t(disk)];
                pc.state = copy_state::done;
            }
        if (std::all_of(e.copies.begin(), e.copies.end(), [](const pending_copy &c) { return c.state == copy_state::done; }))
            finished.push_back(id);
    }
    for (uint64_t id : finished) discard(id);
    m_queues[size_t(disk)].clear();
    return lost;
}

void delayed_write_table::force_overlapping(int64_t lbn, int32_t sectors, int except_disk,
                                            std::vector<propagation> &out) {
    auto it = m_by_lbn.upper_bound(lbn);
    if (it != m_by_lbn.begin()) --it;
    std::vector<std::pair<uint64_t, size_t>> picked;
    for (; it != m_by_lbn.end() && it->first < lbn + sectors; ++it) {
        const entry &e = m_entries.at(it->second);
        if (e.lbn + e.sectors <= lbn) continue;
        for (size_t c = 0; c < e.copies.size(); ++c)
            if (e.copies[c].state == copy_state::waiting && e.copies[c].where.disk != except_disk)
                picked.emplace_back(it->second, c);
    }
    for (const auto &[id, c] : picked) {
        --m_waiting[size_t(m_entries.at(id).copies[c].where.disk)];  // its queue item is skipped when popped
        out.push_back(hand_out(id, c));
        ++m_forced_by_demand;
    }
}

bool delayed_write_table::add_repair(int64_t lbn, int32_t sectors, copy_location source, copy_location target) {
    auto it = m_by_lbn.upper_bound(lbn);
    if (it != m_by_lbn.begin()) --it;
    for (; it != m_by_lbn.end() && it->first < lbn + sectors; ++it) {
        const entry &e = m_entries.at(it->second);
        if (e.lbn + e.sectors > lbn) return false;
    }
    entry e;
    e.lbn = lbn;
    e.sectors = sectors;
    e.source = source;
    e.buffered = false;
    e.repair = true;
    e.copies.push_back({target});
    enqueue(insert(std::move(e)), 0);
    return true;
}

void delayed_write_table::supersede(int64_t lbn, int64_t end) {
    std::vector<uint64_t> overlapping;
    auto it = m_by_lbn.lower_bound(lbn);
    if (it != m_by_lbn.begin()) {
        auto prev = std::prev(it);
        const entry &e = m_entries.at(prev->second);
        if (e.lbn + e.sectors > lbn) overlapping.push_back(prev->second);
    }
    for (; it != m_by_lbn.end() && it->first < end; ++it) overlapping.push_back(it->second);
    m_superseded += overlapping.size();
    for (uint64_t id : overlapping) {
        const entry &e = m_entries.at(id);
        const int64_t x = e.lbn, y = e.lbn + e.sectors;
        const bool left = x < lbn, right = y > end;
        if (!left && !right) {
            discard(id);
        } else if (!right) {
            set_range(id, x, lbn);
        } else if (!left) {
            set_range(id, end, y);
        } else {
            entry tail = e;
            tail.lbn = end;
            tail.sectors = int32_t(y - end);
            set_range(id, x, lbn);
            const uint64_t tail_id = insert(std::move(tail));
            const entry &t = m_entries.at(tail_id);
            for (size_t c = 0; c < t.copies.size(); ++c) {
                if (t.copies[c].state == copy_state::waiting) enqueue(tail_id, c);
                else if (t.copies[c].state == copy_state::handed_out) m_op_targets[t.copies[c].op].push_back({tail_id, c});
            }
        }
    }
}

void delayed_write_table::discard(uint64_t id) {
    const entry &e = m_entries.at(id);
    for (const auto &c : e.copies)
        if (c.state == copy_state::waiting) --m_waiting[size_t(c.where.disk)];
    if (e.buffered) m_buffered_sectors -= e.sectors;
    if (e.owner != 0) {
        auto o = m_owner_entries.find(e.owner);
        if (o != m_owner_entries.end() && --o->second == 0) {
            m_released_owners.push_back(e.owner);
            m_owner_entries.erase(o);
        }
    }
    m_by_lbn.erase(e.lbn);
    m_entries.erase(id);
}

void delayed_write_table::set_range(uint64_t id, int64_t lbn, int64_t end) {
    entry &e = m_entries.at(id);
    m_by_lbn.erase(e.lbn);
    m_by_lbn[lbn] = id;
    if (e.buffered) m_buffered_sectors += (end - lbn) - e.sectors;
    e.lbn = lbn;
    e.sectors = int32_t(end - lbn);
}

uint64_t delayed_write_table::insert(entry e) {
    const uint64_t id = m_next_entry++;
    m_by_lbn[e.lbn] = id;
    if (e.buffered) m_buffered_sectors += e.sectors;
    if (e.owner != 0) ++m_owner_entries[e.owner];
    m_entries.emplace(id, std::move(e));
    return id;
}

void delayed_write_table::enqueue(uint64_t id, size_t copy) {
    const int disk = m_entries.at(id).copies[copy].where.disk;
    if (m_waiting[size_t(disk)] == 0) m_flushing[size_t(disk)] = false;  // the last flush emptied it
    m_queues[size_t(disk)].push_back({id, copy});
    ++m_waiting[size_t(disk)];
}

propagation delayed_write_table::hand_out(uint64_t id, size_t copy) {
    entry &e = m_entries.at(id);
    pending_copy &pc = e.copies[copy];
    pc.state = copy_state::handed_out;
    pc.op = m_next_op++;
    m_op_targets[pc.op].push_back({id, copy});
    const propagation p{pc.op, e.lbn, e.sectors, pc.where, e.source, e.buffered, e.owner, e.repair};
    m_in_flight.emplace(p.op, p);
    return p;
}

void delayed_write_table::start_flush() {
    for (size_t d = 0; d < m_waiting.size(); ++d)
        if (m_waiting[d] > 0) m_flushing[d] = true;
}

}  // namespace raidtlm::controller
