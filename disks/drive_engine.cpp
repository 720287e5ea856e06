#include "disks/drive_engine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace raidtlm::disks {

using protocol::cache_outcome;

drive_engine::drive_engine(const disk_spec &spec, double spindle_phase)
    : m_spec(spec), m_layout(m_spec), m_mech(m_spec, m_layout, spindle_phase) {
    if (m_spec.block_count > m_layout.lbn_count())
        throw std::invalid_argument(m_spec.where("Block count") + ": Block count " + std::to_string(m_spec.block_count) +
                                    " exceeds the " + std::to_string(m_layout.lbn_count()) +
                                    " blocks the zones map; expected at most that (see fit_block_count)");
    m_segs.resize(std::max(1, m_spec.cache.segments));
}

double drive_engine::command_overhead(bool write, bool hit) const {
    const auto &o = m_spec.overheads;
    double ms;
    if (write) ms = hit ? (m_last_was_write ? o.write_hit_after_write_ms : o.write_hit_after_read_ms)
                        : (m_last_was_write ? o.write_miss_after_write_ms : o.write_miss_after_read_ms);
    else ms = hit ? (m_last_was_write ? o.read_hit_after_write_ms : o.read_hit_after_read_ms)
                  : (m_last_was_write ? o.read_miss_after_write_ms : o.read_miss_after_read_ms);
    return overhead(o.per_request_ms + ms);
}

double drive_engine::reselect(bus_port &bus, double want_ms) const {
    // Every bus ownership on a .parv's host path starts with its arbitration time (DiskSim's
    // bus_ownership_get); the time waited for the bus itself is the link's.
    return bus.acquire(want_ms + m_spec.interface.host_arbitration_ms);
}

double drive_engine::sector_bus_ms(bus_port &bus, bool write) const {
    const interface_spec &i = m_spec.interface;
    const double host_ms = write ? i.host_write_sector_ms : i.host_read_sector_ms;
    return std::max({i.bulk_sector_transfer_ms, host_ms, bus.sector_transfer_ms()});
}

drive_result drive_engine::serve(const drive_request &req, double start_ms, bus_port &bus) {
    // The host arbitrates for its path before the command reaches the drive (a .parv's buses).
    if (req.connected) start_ms += m_spec.interface.host_arbitration_ms;
    drive_result r = req.write ? serve_write(req, start_ms, bus) : serve_read(req, start_ms, bus);
    m_last_was_write = req.write;
    trace_cmd(r.complete_ms, command_state::idle);
    return r;
}

// ---- cache segments -------------------------------------------------------------------------

int drive_engine::find_segment(int64_t lbn, double t) const {
    if (!m_spec.cache.enabled) return -1;
    for (int i = 0; i < int(m_segs.size()); ++i) {
        const segment &s = m_segs[i];
        if (!s.valid || lbn < s.start || lbn >= s.end) continue;
        // Written data count for reads only where the drive allows it.
        if (s.write_data && !m_spec.cache.read_hits_on_write_data && s.dirty_until_ms <= t) continue;
        return i;
    }
    return -1;
}

int drive_engine::choose_segment(bool for_write, double t) {
    const auto &c = m_spec.cache;
    const int n = int(m_segs.size());
    // A dedicated write segment (segment 0) keeps writes out of the read-ahead segments.
    if (c.separate_write_segment && n > 1) {
        if (for_write) return 0;
    }
    int writes_held = 0;
    for (const segment &s : m_segs) writes_held += (s.valid && s.write_data) ? 1 : 0;
    int best = -1;
    for (int i = 0; i < n; ++i) {
        if (c.separate_write_segment && n > 1 && i == 0) continue;
        const segment &s = m_segs[i];
        if (m_prefetch.active && m_prefetch.seg == i) continue;
        if (s.valid && s.dirty_until_ms > t) continue;  // still holds data on its way to media
        if (for_write && writes_held >= c.max_write_segments && !(s.valid && s.write_data)) continue;
        if (best < 0 || !s.valid || (m_segs[best].valid && s.last_use < m_segs[best].last_use)) {
            best = i;
            if (!s.valid) break;
        }
    }
    if (best < 0) {
        // Every eligible segment still holds data on its way to the media: take the one whose data
        // get there first (the caller waits for it).
        for (int i = 0; i < n; ++i) {
            if (c.separate_write_segment && n > 1 && (i == 0) != for_write) continue;
            const segment &s = m_segs[i];
            if (for_write && writes_held >= c.max_write_segments && !(s.valid && s.write_data)) continue;
            if (best < 0 || s.dirty_until_ms < m_segs[best].dirty_until_ms) best = i;
        }
        if (best < 0) best = 0;
    }
    return best;
}

void drive_engine::invalidate_overlaps(int64_t lbn, int64_t end, int keep) {
    for (int i = 0; i < int(m_segs.size()); ++i) {
        segment &s = m_segs[i];
        if (i == keep || !s.valid || s.end <= lbn || s.start >= end) continue;
        // Keep the part before the overwritten range if it is contiguous; drop the rest.
        if (s.start < lbn) s.end = lbn;
        else s.valid = false;
        if (m_prefetch.active && m_prefetch.seg == i) m_prefetch.active = false;
    }
}

void drive_engine::prune_dirty(segment &seg, double t) const {
    auto &d = seg.dirty;
    d.erase(std::remove_if(d.begin(), d.end(), [t](const media_segment &ms) { return ms.end_ms() <= t; }), d.end());
}

int64_t drive_engine::dirty_blocks(const segment &seg, double t) const {
    int64_t n = 0;
    for (const media_segment &ms : seg.dirty) {
        if (ms.end_ms() <= t) continue;
        // Sectors done by t have left the buffer; the rest still hold their slots.
        const int done = ms.first_done_ms > t ? 0 : int(std::floor((t - ms.first_done_ms) / ms.sector_ms)) + 1;
        n += ms.count - std::min(done, ms.count);
    }
    return n;
}

double drive_engine::kth_written_ms(const std::vector<media_segment> &a, const std::vector<media_segment> &b,
                                    int64_t k) {
    m_done_scratch.clear();
    for (const auto *plan : {&a, &b})
        for (const media_segment &ms : *plan)
            for (int i = 0; i < ms.count; ++i) m_done_scratch.push_back(ms.done_ms(i));
    if (k <= 0 || m_done_scratch.empty()) return 0.0;
    k = std::min<int64_t>(k, int64_t(m_done_scratch.size()));
    std::nth_element(m_done_scratch.begin(), m_done_scratch.begin() + (k - 1), m_done_scratch.end());
    return m_done_scratch[size_t(k - 1)];
}

// ---- read-ahead -----------------------------------------------------------------------------

void drive_engine::start_prefetch(int seg, int64_t from_lbn, int64_t limit_lbn, double t, head_position head) {
    m_prefetch = prefetch{};
    if (limit_lbn <= from_lbn) return;
    m_prefetch.active = true;
    m_prefetch.seg = seg;
    m_prefetch.next_lbn = from_lbn;
    m_prefetch.limit_lbn = limit_lbn;
    m_prefetch.start_ms = t;
    m_prefetch.start_head = head;
    m_runs.clear();
    m_layout.runs(from_lbn, limit_lbn - from_lbn, m_runs);
    m_mech.access(t, head, m_runs, false, false, nullptr, m_prefetch.plan);
}

void drive_engine::extend_prefetch(int64_t limit_lbn) {
    // The plan is a pure function of its start, so planning again from the same start with a
    // further limit keeps what is already under way and appends the rest.
    const prefetch p = m_prefetch;
    start_prefetch(p.seg, p.next_lbn, std::min<int64_t>(limit_lbn, std::min<int64_t>(m_layout.lbn_count(), m_spec.block_count)),
                   p.start_ms, p.start_head);
}

void drive_engine::settle_prefetch(double t) {
    if (!m_prefetch.active) return;
    segment &s = m_segs[m_prefetch.seg];
    int64_t done = 0;
    bool all = true;
    for (const media_segment &ms : m_prefetch.plan) {
        if (ms.end_ms() <= t + 1e-6 * ms.sector_ms) {
            done += ms.count;
            continue;
        }
        // A sector that ends at t is done (with a millionth of a sector for rounding).
        if (ms.first_done_ms <= t + 1e-6 * ms.sector_ms)
            done += int64_t(std::floor((t - ms.first_done_ms) / ms.sector_ms + 1e-6)) + 1;
        all = false;
        break;
    }
    s.end = std::max(s.end, m_prefetch.next_lbn + done);
    // The segment is a ring: read-ahead past its size pushes out its oldest blocks.
    s.start = std::max(s.start, s.end - std::max(m_spec.cache.segment_blocks, 1));
    if (all) {
        const media_segment &last = m_prefetch.plan.back();
        m_head = last.track;
        m_mech_free_ms = std::max(m_mech_free_ms, last.end_ms());
        trace_mech(last.end_ms(), mech_state::idle, m_head);
        m_prefetch.active = false;
    }
}

double drive_engine::abort_prefetch(double t) {
    settle_prefetch(t);
    if (!m_prefetch.active) return m_mech_free_ms;
    // The read-ahead is somewhere in its plan: find the sector under the head.
    double free_at = t;
    head_position where = m_prefetch.start_head;
    for (const media_segment &ms : m_prefetch.plan) {
        if (ms.first_done_ms - ms.sector_ms > t) break;  // not started yet: heads still on the previous track
        where = ms.track;
        if (ms.end_ms() > t) {
            if (!m_spec.cache.stop_prefetch_in_sector && t > ms.first_done_ms - ms.sector_ms) {
                const double k = std::ceil((t - (ms.first_done_ms - ms.sector_ms)) / ms.sector_ms);
                free_at = ms.first_done_ms - ms.sector_ms + k * ms.sector_ms;
            }
            break;
        }
    }
    // Honour the minimum read-ahead before the mechanism may leave.
    if (m_spec.cache.min_read_ahead_blocks > 0) {
        int64_t need = m_spec.cache.min_read_ahead_blocks;
        for (const media_segment &ms : m_prefetch.plan) {
            if (need <= ms.count) {
                free_at = std::max(free_at, ms.done_ms(int(need) - 1));
                break;
            }
            need -= ms.count;
        }
    }
    // The sector under the head when the read-ahead stops is read to its end (unless the drive
    // may stop mid-sector): it belongs to the segment, or the next access would miss it by a turn.
    settle_prefetch(free_at);
    if (!m_prefetch.active) return m_mech_free_ms;  // it ran to its end
    m_prefetch.active = false;
    m_head = where;
    m_mech_free_ms = std::max(m_mech_free_ms, free_at);
    trace_mech(free_at, mech_state::idle, m_head);
    return m_mech_free_ms;
}

int64_t drive_engine::prefetch_limit(const drive_request &req, int seg) const {
    // How far read-ahead goes, as DiskSim 4.0 computes it (disk_buffer_get_max_readahead; the
    // manual's wording is looser). The segment is a ring: read-ahead beyond its size pushes out
    // its oldest blocks (settle_prefetch), it does not stop the read-ahead.
    const auto &c = m_spec.cache;
    if (!c.enabled || c.continuous_read == prefetch_scheme::none) return 0;
    const int64_t end = req.lbn + req.blocks;
    const int64_t capacity = std::min<int64_t>(m_layout.lbn_count(), m_spec.block_count);
    if (end >= capacity) return 0;
    int64_t limit = end;
    if (c.continuous_read == prefetch_scheme::next_track_if_sequential) {
        // To the end of the track holding the block after the request; one track further when the
        // segment already holds data from before that track (the stream reached this track from
        // the previous one). The maximum read-ahead plays no part in this scheme.
        const int64_t track_end = m_layout.track_end_lbn(end);
        limit = track_end;
        if (m_segs[seg].start < m_layout.track_start_lbn(end)) limit = track_end + m_layout.blocks_per_track_at(req.lbn);
    } else if (c.max_read_ahead_blocks > 0) {
        limit = end + c.max_read_ahead_blocks;
    } else if (!c.read_ahead_over_requested) {
        // No maximum given: fill the segment without overwriting what the host was just given.
        const int64_t room = c.segment_blocks - req.blocks;
        limit = (room <= 0 || room < c.min_read_ahead_blocks) ? end + c.min_read_ahead_blocks
                                                              : req.lbn + c.segment_blocks;
    } else {
        limit = end + c.segment_blocks;
    }
    // "To track end" and "to cylinder end" stop where the read-ahead would have to switch heads
    // or seek.
    if (c.continuous_read == prefetch_scheme::to_track_end) limit = std::min(limit, m_layout.track_end_lbn(end - 1));
    if (c.continuous_read == prefetch_scheme::to_cylinder_end)
        limit = std::min(limit, m_layout.cylinder_end_lbn(end - 1));
    return std::min(limit, capacity);
}

// ---- data to the host -----------------------------------------------------------------------

double drive_engine::send_read_data(const std::vector<double> &avail, double t, bool connected, bus_port &bus,
                                    drive_result &res) {
    const auto &c = m_spec.cache;
    const auto &o = m_spec.overheads;
    const double beta = sector_bus_ms(bus, false);
    const int n = int(avail.size());
    const double basis = c.watermark_by_request_size ? n : c.segment_blocks;
    const int watermark = std::max(1, int(std::ceil(c.high_water_mark * basis - 1e-9)));
    const bool hold = m_spec.interface.hold_bus_entire_read || m_spec.interface.never_disconnect;
    bool first_reselect = true;
    int i = 0;
    bool moved_in_connection = false;
    while (i < n) {
        if (connected) {
            if (avail[i] > t && (!hold || !moved_in_connection) && !m_spec.interface.never_disconnect) {
                // Nothing to send yet: let the bus go while the media works.
                t += overhead(m_last_was_write ? o.read_disconnect_after_write_ms : o.read_disconnect_after_read_ms);
                trace_cmd(t, command_state::media_wait);
                bus.release(t);
                connected = false;
                continue;
            }
            t += overhead(o.data_preparation_ms);
            trace_cmd(t, command_state::bus);
            moved_in_connection = true;
            const double phase_start = t;
            const int first = i;
            while (i < n) {
                if (avail[i] > t) {
                    if (!hold) break;
                    t = avail[i];
                }
                t += beta;
                ++i;
            }
            bus.data_phase(phase_start, t, i - first);
            if (i < n) moved_in_connection = false;
        } else {
            // The reselection overhead runs alongside the media from the moment data start to
            // arrive in the buffer; the bus is requested once the high water mark is reached.
            const int k = std::min(n, i + watermark) - 1;
            const double reselect_ms = overhead(first_reselect ? o.first_reselect_ms : o.other_reselect_ms);
            const double decide = std::max(std::max(t, avail[k]), std::max(t, avail[i]) + reselect_ms);
            first_reselect = false;
            const double got = reselect(bus, decide);
            res.bus_wait_ms += got - decide;
            t = got;
            connected = true;
            moved_in_connection = false;
        }
    }
    if (!connected) {
        const double got = reselect(bus, t);
        res.bus_wait_ms += got - t;
        t = got;
    }
    return t;
}

void drive_engine::trace_media(double start_ms, const media_access_result &m) const {
    if (!on_trace) return;
    trace_mech(start_ms, m.seek_ms > 0 ? mech_state::seek : mech_state::rotate, m_head);
    trace_mech(start_ms + m.seek_ms, mech_state::rotate, m.end);
    trace_mech(start_ms + m.seek_ms + m.rotation_ms, mech_state::transfer, m.end);
    trace_mech(m.end_ms, mech_state::idle, m.end);
}

media_access_result drive_engine::media_access(int64_t lbn, int64_t count, bool write, double ready_ms,
                                               const data_arrival *arrival, drive_result &res) {
    // The mechanism is free once earlier write-backs are on the media; read-ahead gives way.
    double t_mech = std::max(ready_ms, m_mech_free_ms);
    if (m_prefetch.active) t_mech = std::max(t_mech, abort_prefetch(ready_ms));
    m_runs.clear();
    m_layout.runs(lbn, count, m_runs);
    m_media.clear();
    const bool zero_latency = write ? m_spec.cache.immediate_buffer_write : m_spec.cache.immediate_buffer_read;
    const media_access_result m = m_mech.access(t_mech, m_head, m_runs, write, zero_latency, arrival, m_media);
    trace_media(t_mech, m);
    res.seek_ms = m.seek_ms;
    res.mechanism_wait_ms = t_mech - ready_ms;
    res.rotation_ms = m.rotation_ms;
    res.transfer_ms = m.transfer_ms;
    res.seek_distance_cyl = m.seek_distance_cyl;
    res.moved_arm = m.seek_distance_cyl > 0;
    res.media_accessed = true;
    res.media_end_ms = m.end_ms;
    res.media_end_head = m.end;
    m_head = m.end;
    m_mech_free_ms = m.end_ms;
    return m;
}

// ---- reads ----------------------------------------------------------------------------------

drive_result drive_engine::serve_read(const drive_request &req, double t0, bus_port &bus) {
    drive_result res;
    const auto &c = m_spec.cache;
    const int64_t a = req.lbn;
    const int64_t end = a + req.blocks;
    const int n = req.blocks;
    trace_cmd(t0, command_state::overhead);
    settle_prefetch(t0);
    int s = req.force_media ? -1 : find_segment(a, t0);
    // "Almost read hit": the first block is still to come in the read-ahead under way.
    const bool almost = s < 0 && !req.force_media && c.allow_almost_read_hits && m_prefetch.active &&
                        a >= m_segs[m_prefetch.seg].end && a < m_prefetch.limit_lbn;
    if (almost) s = m_prefetch.seg;
    const bool hit_first = s >= 0;
    const bool full = hit_first && m_segs[s].end >= end;
    // A read that continues the stream the read-ahead is reading extends the read-ahead instead
    // of stopping it: the media never stops between the two. The limit moves on with every such
    // read (as far ahead of it as a read that missed would prefetch), so a host that keeps up
    // with the read-ahead never finds it stopped at the first read's limit.
    if (hit_first && m_prefetch.active && m_prefetch.seg == s) {
        const int64_t wanted = std::max(end, prefetch_limit(req, s));
        if (wanted > m_prefetch.limit_lbn) extend_prefetch(wanted);
    }
    const bool rides_prefetch = hit_first && !full && m_prefetch.active && m_prefetch.seg == s &&
                                m_prefetch.limit_lbn >= end;
    res.cache = full ? cache_outcome::full_hit : hit_first ? cache_outcome::partial_hit : cache_outcome::miss;
    double t = t0 + command_overhead(false, hit_first);
    res.overhead_ms = t - t0;

    m_avail.assign(size_t(n), t);
    if (full) {
        touch(s);
        if (c.read_ahead_on_idle_hit && !m_prefetch.active && m_mech_free_ms <= t) {
            const int64_t limit = prefetch_limit(req, s);
            if (limit > m_segs[s].end) {
                const int64_t from = m_segs[s].end;
                // The heads are wherever the last access left them; read-ahead seeks back first.
                m_runs.clear();
                m_layout.runs(from, 1, m_runs);
                start_prefetch(s, from, limit, t, m_head);
            }
        }
    } else if (rides_prefetch) {
        touch(s);
        // The rest streams in with the read-ahead already under way.
        const int64_t cached = std::max<int64_t>(0, m_segs[s].end - a);
        for (const media_segment &ms : m_prefetch.plan)
            for (int k = 0; k < ms.count; ++k) {
                const int64_t l = ms.first_lbn + k;
                if (l >= a + cached && l < end) m_avail[size_t(l - a)] = std::max(t, ms.done_ms(k));
            }
        res.transfer_ms = m_avail.back() - t;
    } else {
        // Stop read-ahead first, so its segment competes for reuse like any other. What it read
        // while the command was processed counts: a read that follows the stream finds its first
        // sectors there and the media carries on from the head's position.
        if (m_prefetch.active) {
            abort_prefetch(t);
            if (s < 0 && !req.force_media) s = find_segment(a, t);
        }
        const bool cached_now = s >= 0;
        const int64_t cached = cached_now ? std::min(end, m_segs[s].end) - a : 0;
        const int64_t from = a + cached;
        if (!cached_now) {
            s = choose_segment(false, t);
            invalidate_overlaps(a, end, s);
            m_segs[s] = segment{a, a, true, false, 0, 0, {}};
        }
        touch(s);
        m_media.clear();
        media_access_result m;
        if (from < end) m = media_access(from, end - from, false, t, nullptr, res);
        else m = {std::max(t, m_mech_free_ms), m_head};
        for (const media_segment &ms : m_media)
            for (int k = 0; k < ms.count; ++k) m_avail[size_t(ms.first_lbn + k - a)] = ms.done_ms(k);
        // Sectors that passed under the head before the first requested one were read too.
        if (c.read_any_free_blocks && !cached_now && !m_runs.empty() && m.rotation_ms > 0) {
            const track_run &r0 = m_runs.front();
            const int spt = m_layout.sectors_per_track(r0.cyl);
            const double passed = std::floor(m.rotation_ms / m_mech.sector_ms(r0.cyl));
            const int64_t back = std::min<int64_t>({int64_t(passed), r0.first_slot, int64_t(spt)});
            m_segs[s].start = std::max<int64_t>(0, a - back);
        }
        m_segs[s].end = end;
        if (m_segs[s].end - m_segs[s].start > c.segment_blocks)
            m_segs[s].start = m_segs[s].end - std::max(c.segment_blocks, 1);
        const int64_t limit = prefetch_limit(req, s);
        if (limit > end) {
            // Read-ahead may overwrite what the host was just given: the drive counts that space
            // as free the moment read-ahead starts, so the returned data no longer hit.
            if (c.read_ahead_over_requested) m_segs[s].start = end;
            start_prefetch(s, end, limit, m.end_ms, m.end);
        }
    }
    t = send_read_data(m_avail, t, req.connected, bus, res);
    t += overhead(m_spec.overheads.read_completion_ms);
    bus.release(t);
    res.complete_ms = t;
    return res;
}

}  // namespace raidtlm::disks
