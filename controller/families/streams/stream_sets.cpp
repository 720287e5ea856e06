#include "controller/families/streams/stream_sets.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::controller {

stream_sets::stream_sets(const stream_sets_config &c) : m_config(c) {
    if (c.read_ahead_sectors == 0 || c.requests_per_turn == 0 || c.dispatch_streams == 0 ||
        c.in_flight_per_stream == 0 || c.capacity_sectors == 0)
        throw std::invalid_argument("stream_sets: R, N, D, reads in flight and capacity must be positive");
    if (c.disks == 0) throw std::invalid_argument("stream_sets: no disks");
    m_dispatched_on_disk.assign(c.disks, 0);
    if (c.memory_bytes < c.read_ahead_sectors * c.sector_bytes)
        throw std::invalid_argument("stream_sets: memory smaller than one read-ahead");
}

std::optional<stream_sets::stream_id> stream_sets::stream_of(uint64_t lbn) const {
    for (const auto &[id, st] : m_streams)
        if (lbn >= st.next_host_lbn && lbn <= st.next_fetch_lbn) return id;
    return std::nullopt;
}

stream_sets::stream_id stream_sets::open(uint64_t lbn, double now_ms, uint32_t disk) {
    const stream_id id = m_next_stream++;
    stream &st = m_streams[id];
    st.disk = disk < m_config.disks ? disk : 0;
    st.next_host_lbn = st.next_fetch_lbn = lbn;
    st.last_request_ms = now_ms;
    ++m_stats.streams_opened;
    return id;
}

void stream_sets::enqueue(stream_id s, stream &st) {
    if (st.dispatched || st.queued) return;
    st.queued = true;
    m_queue.push_back(s);
}

void stream_sets::leave_dispatch(stream_id s, stream &st) {
    if (st.dispatched) --m_dispatched_on_disk[st.disk];
    st.dispatched = false;
    st.issued_this_turn = 0;
    auto it = std::find(m_dispatch.begin(), m_dispatch.end(), s);
    if (it == m_dispatch.end()) return;
    const size_t at = size_t(it - m_dispatch.begin());
    m_dispatch.erase(it);
    if (m_next_in_dispatch > at) --m_next_in_dispatch;
}

stream_sets::coverage stream_sets::cover(stream_id s, uint64_t lbn, uint32_t sectors, double now_ms) {
    coverage c;
    auto sit = m_streams.find(s);
    if (sit == m_streams.end()) return c;
    stream &st = sit->second;
    st.last_request_ms = now_ms;
    const uint64_t end = lbn + sectors;
    uint64_t pos = lbn;
    bool all_ready = true;
    for (buffer_id id : st.buffers) {
        const buffer &b = m_buffers.at(id);
        if (b.end() <= pos) continue;
        if (b.lbn > pos || pos >= end) break;
        const uint64_t to = std::min(end, b.end());
        c.pieces.push_back({id, pos - b.lbn, uint32_t(to - pos)});
        all_ready = all_ready && b.ready;
        pos = to;
    }
    if (pos < end) {
        // Part of the range is not on its way: the stream needs its next turn in the dispatch set.
        if (pos < st.next_fetch_lbn) {
            // A hole inside the fetched range (the host went back): start again from here.
            std::vector<buffer_id> ignored;
            reset(st, ignored);
            st.next_host_lbn = st.next_fetch_lbn = lbn;
        }
        enqueue(s, st);
        c.pieces.clear();
        return c;
    }
    c.ready = all_ready;
    if (c.ready)
        for (const piece &p : c.pieces) ++m_buffers.at(p.buffer).pins;
    else
        c.pieces.clear();
    return c;
}

std::vector<stream_sets::buffer_id> stream_sets::finish_read(stream_id s, const coverage &c, uint64_t lbn,
                                                             uint32_t sectors, double now_ms) {
    std::vector<buffer_id> out;
    for (const piece &p : c.pieces) {
        buffer &b = m_buffers.at(p.buffer);
        --b.pins;
        if (b.stale && b.pins == 0 && b.ready) release(p.buffer, out);
    }
    auto sit = m_streams.find(s);
    if (sit == m_streams.end()) return out;
    stream &st = sit->second;
    st.last_request_ms = now_ms;
    st.next_host_lbn = std::max(st.next_host_lbn, lbn + sectors);
    // Buffers the host has read past are done with.
    while (!st.buffers.empty()) {
        buffer &b = m_buffers.at(st.buffers.front());
        if (b.end() > st.next_host_lbn || !b.ready) break;
        const buffer_id id = st.buffers.front();
        st.buffers.pop_front();
        if (b.pins == 0) release(id, out);
        else b.stale = true;
    }
    return out;
}

std::optional<stream_sets::disk_read> stream_sets::next_disk_read(double) {
    const uint32_t per_disk = (m_config.dispatch_streams + m_config.disks - 1) / m_config.disks;
    for (auto q = m_queue.begin(); m_dispatch.size() < m_config.dispatch_streams && q != m_queue.end();) {
        auto it = m_streams.find(*q);
        if (it == m_streams.end()) {
            q = m_queue.erase(q);
            continue;
        }
        stream &st = it->second;
        if (m_dispatched_on_disk[st.disk] >= per_disk) {
            ++q;  // its disk is served: the first waiting stream of another disk goes first
            continue;
        }
        st.queued = false;
        st.dispatched = true;
        st.issued_this_turn = 0;
        ++m_dispatched_on_disk[st.disk];
        m_dispatch.push_back(*q);
        q = m_queue.erase(q);
    }
    for (size_t i = 0; i < m_dispatch.size(); ++i) {
        const size_t at = (m_next_in_dispatch + i) % m_dispatch.size();
        const stream_id s = m_dispatch[at];
        stream &st = m_streams.at(s);
        if (st.next_fetch_lbn >= m_config.capacity_sectors) {
            // Nothing left to read ahead on this stream: its turn is over.
            leave_dispatch(s, st);
            return next_disk_read(0);
        }
        if (st.in_flight >= m_config.in_flight_per_stream || st.issued_this_turn >= m_config.requests_per_turn)
            continue;
        const uint32_t sectors =
            uint32_t(std::min<uint64_t>(m_config.read_ahead_sectors, m_config.capacity_sectors - st.next_fetch_lbn));
        const uint64_t bytes = uint64_t(sectors) * m_config.sector_bytes;
        if (m_memory_in_use + bytes > m_config.memory_bytes) {
            // First come, first served: nobody overtakes the stream that waits for memory.
            if (!m_waiting_for_memory) ++m_stats.memory_waits;
            m_waiting_for_memory = true;
            return std::nullopt;
        }
        m_waiting_for_memory = false;
        const buffer_id id = m_next_buffer++;
        buffer &b = m_buffers[id];
        b.stream = s;
        b.lbn = st.next_fetch_lbn;
        b.sectors = sectors;
        st.buffers.push_back(id);
        st.next_fetch_lbn += sectors;
        ++st.in_flight;
        m_memory_in_use += bytes;
        m_stats.peak_memory_bytes = std::max(m_stats.peak_memory_bytes, m_memory_in_use);
        ++m_stats.disk_reads;
        m_stats.sectors_read_ahead += sectors;
        ++st.issued_this_turn;
        m_next_in_dispatch = (at + 1) % m_dispatch.size();
        return disk_read{s, id, b.lbn, sectors};
    }
    m_waiting_for_memory = false;
    return std::nullopt;
}

std::vector<stream_sets::buffer_id> stream_sets::read_done(buffer_id id, bool ok, double) {
    std::vector<buffer_id> out;
    buffer &b = m_buffers.at(id);
    b.ready = true;
    auto sit = m_streams.find(b.stream);
    if (sit != m_streams.end()) {
        stream &st = sit->second;
        if (st.in_flight > 0) --st.in_flight;
        // A stream's turn ends when its N read-aheads are done: D bounds the reads outstanding.
        if (st.dispatched && st.in_flight == 0 && st.issued_this_turn >= m_config.requests_per_turn)
            leave_dispatch(b.stream, st);
    }
    if (!ok && !b.stale && sit != m_streams.end()) {
        ++m_stats.resets;
        reset(sit->second, out);
        return out;
    }
    if (b.stale && b.pins == 0) release(id, out);
    return out;
}

void stream_sets::reset(stream &st, std::vector<buffer_id> &out) {
    for (buffer_id id : st.buffers) {
        buffer &b = m_buffers.at(id);
        const uint64_t unread_from = std::max(b.lbn, std::min(b.end(), st.next_host_lbn));
        m_stats.sectors_dropped += b.end() - unread_from;
        b.stale = true;
        if (b.ready && b.pins == 0) release(id, out);
    }
    st.buffers.clear();
    st.next_fetch_lbn = st.next_host_lbn;
}

void stream_sets::release(buffer_id id, std::vector<buffer_id> &out) {
    auto it = m_buffers.find(id);
    if (it == m_buffers.end()) return;
    m_memory_in_use -= bytes_of(it->second);
    m_buffers.erase(it);
    out.push_back(id);
}

std::vector<stream_sets::buffer_id> stream_sets::invalidate(uint64_t lbn, uint32_t sectors) {
    std::vector<buffer_id> out;
    const uint64_t end = lbn + sectors;
    for (auto &[id, st] : m_streams) {
        uint64_t from = st.next_host_lbn;
        if (!st.buffers.empty()) from = std::min(from, m_buffers.at(st.buffers.front()).lbn);
        if (st.buffers.empty() || end <= from || lbn >= st.next_fetch_lbn) continue;
        ++m_stats.resets;
        reset(st, out);
    }
    return out;
}

std::vector<stream_sets::buffer_id> stream_sets::collect_garbage(double now_ms) {
    std::vector<buffer_id> out;
    for (auto it = m_streams.begin(); it != m_streams.end();) {
        stream &st = it->second;
        const double idle_ms = now_ms - st.last_request_ms;
        if (!st.buffers.empty() && idle_ms > m_config.buffer_timeout_ms && st.in_flight == 0) {
            m_stats.buffers_expired += st.buffers.size();
            reset(st, out);
        }
        if (st.buffers.empty() && st.in_flight == 0 && !st.dispatched && !st.queued &&
            idle_ms > m_config.idle_stream_timeout_ms) {
            it = m_streams.erase(it);
            ++m_stats.streams_forgotten;
        } else {
            ++it;
        }
    }
    return out;
}

size_t stream_sets::buffered_set_size() const {
    size_t n = 0;
    for (const auto &[id, st] : m_streams) n += (!st.dispatched && !st.buffers.empty()) ? 1 : 0;
    return n;
}

}  // namespace raidtlm::controller
