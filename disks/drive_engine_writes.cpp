// drive_engine's write path: write-back through the cache segments (each segment's unwritten
// data keeps its media plan, so a write waits for room), write-through, and the media write.
#include "disks/drive_engine.h"
#include "disks/write_media_gate.h"

#include <algorithm>

namespace raidtlm::disks {

using protocol::cache_outcome;

drive_result drive_engine::serve_write(const drive_request &req, double t0, bus_port &bus) {
    drive_result res;
    const auto &c = m_spec.cache;
    const auto &o = m_spec.overheads;
    const int64_t a = req.lbn;
    const bool sequential = a == m_last_write_end;
    // Any non-zero fast write level acknowledges a write once its data are in the buffer, as
    // DiskSim 4.0's implementation does (disk_write_arrive, disk_reconnection_or_transfer_complete);
    // level 1 restricts only when a later write may append to a segment still being written, which
    // needs commands queued inside the drive.
    const bool write_back = c.enabled && !req.read_rotate_write && c.fast_write_level >= 1;
    res.write_back = write_back;
    res.cache = cache_outcome::miss;
    trace_cmd(t0, command_state::overhead);
    settle_prefetch(t0);

    double t;
    double mech_start;
    bool reselected = false;
    // Some drives disconnect right after a write command, before taking any data: DiskSim 4.0
    // does so for a write that follows a write (the segment used last holds written data) and
    // does not continue it (disk_buffer_select_segment); the HP C2247A trace's logic-analyser
    // flags count exactly those writes' extra disconnect ("Trip" vs "Doub").
    const bool extra_disconnect = o.extra_write_disconnect && !m_spec.interface.never_disconnect &&
                                  m_last_was_write && !sequential;
    if (extra_disconnect) {
        t = t0 + overhead(o.per_request_ms + o.extradisc_command_ms);
        mech_start = t + overhead(o.extradisc_seek_delta_ms);
        const double gone = t + overhead(o.extradisc_disconnect_ms);
        if (req.connected) bus.release(gone);
        const double want = gone + overhead(o.extradisc_inter_disconnect_ms) + overhead(o.first_reselect_ms);
        t = reselect(bus, want);
        res.bus_wait_ms += t - want;
        reselected = true;
    } else {
        t = t0 + command_overhead(true, write_back);
        mech_start = t;
        if (!req.connected) {
            // A queued command: reselect to take the data.
            const double want = t + overhead(o.first_reselect_ms);
            t = reselect(bus, want);
            res.bus_wait_ms += t - want;
        }
    }
    const double command_done = mech_start;
    res.overhead_ms = t - t0 - res.bus_wait_ms;
    // The data need a segment. When every segment that may take write data still holds data on
    // its way to the media, the drive takes the new data only once one of them is written out:
    // write-back is bounded by the cache, not free.
    // A segment is a ring of "Segment size" slots (DiskSim manual, "Number of buffer segments"): a
    // sector of written data holds its slot until it is on the media. A write appended to a
    // segment still being written (Combine seq writes) is taken once the segment has room for it:
    // before, an append never waited, so a sequential stream was acknowledged at bus speed while
    // its media work piled up without bound (a Cheetah 9LP at 45-60 MB/s, 232-519% busy).
    // Simplification: the data are taken once all of them fit. DiskSim reconnects at its "Low
    // (write) water mark" and streams the rest in as slots free, so its acknowledgement can come
    // earlier by up to the write's own bus transfer; the media's pace is the same.
    const int64_t seg_capacity = std::max(c.segment_blocks, 1);
    int seg = -1;
    if (c.enabled) {
        if (c.combine_seq_writes)
            for (int i = 0; i < int(m_segs.size()); ++i)
                if (m_segs[i].valid && m_segs[i].write_data && m_segs[i].end == a) seg = i;
        double space_at = 0.0;
        if (seg >= 0) {
            segment &sg = m_segs[seg];
            prune_dirty(sg, t);
            const int64_t pending = dirty_blocks(sg, t);
            // Sectors ahead of the new data that must leave first (all of them at most: a write
            // larger than the segment waits for the rest of its room at the acknowledgement).
            const int64_t must_leave = std::min(pending, pending + req.blocks - seg_capacity);
            if (must_leave > 0) {
                int64_t planned = 0;
                for (const media_segment &ms : sg.dirty) planned += ms.count;
                space_at = kth_written_ms(sg.dirty, {}, planned - pending + must_leave);
            }
        } else {
            seg = choose_segment(true, t);
            space_at = m_segs[seg].valid ? m_segs[seg].dirty_until_ms : 0.0;
        }
        if (space_at > t) {
            // The drive holds the bus here on every path (connected, or reselected to take the
            // data): let it go while the segment drains. A queued command that skipped this
            // release asked for a bus it already held and waited for itself forever.
            bus.release(t);
            trace_cmd(t, command_state::media_wait);
            const double want = space_at + overhead(o.other_reselect_ms);
            const double got = reselect(bus, want);
            res.mechanism_wait_ms += want - t;
            res.bus_wait_ms += got - want;
            t = got;
        }
    }
    const double data_start = t;
    t += overhead(o.data_preparation_ms);
    trace_cmd(t, command_state::bus);
    const double beta = sector_bus_ms(bus, true);
    // A relocated read-rotate-write writes its data at write_lbn.
    const int64_t wa = req.read_rotate_write && req.write_lbn >= 0 ? req.write_lbn : a;
    data_arrival arrival{wa, t + beta, beta, 0.0};
    // "Minimum seek delay" holds back every media write except one that continues a write the
    // mechanism is still putting on the media (DiskSim's disk_check_hda: an append to a segment
    // whose write is under way); after an idle gap a sequential write waits like any other.
    const bool streaming = sequential && m_last_was_write && m_mech_free_ms >= command_done;
    if (!streaming) arrival.not_before_ms = command_done + overhead(o.minimum_seek_delay_ms);
    // Some drives hold the media write until several blocks are buffered (write_media_gate.h);
    // data of the same segment still waiting for the media count towards them.
    const bool appends_to_pending = seg >= 0 && m_segs[seg].valid && m_segs[seg].write_data &&
                                    m_segs[seg].end == wa && m_segs[seg].dirty_until_ms > t;
    const int64_t gate_blocks = blocks_before_media_write(
        o.extra_write_disconnect, req.blocks, appends_to_pending ? m_segs[seg].end - m_segs[seg].start : 0);
    if (gate_blocks > 0) arrival.not_before_ms = std::max(arrival.not_before_ms, arrival.at(wa + gate_blocks - 1));
    const double data_in = t + req.blocks * beta;
    bus.data_phase(t, data_in, req.blocks);

    // A write-back lets the read-ahead run to its end unless the drive stops read-ahead on write hits.
    if (write_back && !c.write_hit_stop_prefetch && m_prefetch.active) settle_prefetch(m_prefetch.plan.back().end_ms());
    media_access_result m;
    if (req.read_rotate_write) {
        // Read the old data, then write the new data when the sectors come round again.
        const media_access_result old_data = media_access(a, req.blocks, false, mech_start, nullptr, res);
        drive_result second;
        m = media_access(wa, req.blocks, true, old_data.end_ms, &arrival, second);
        res.transfer_ms += m.end_ms - old_data.end_ms;
        res.media_end_ms = second.media_end_ms;
        res.media_end_head = second.media_end_head;
    } else {
        m = media_access(a, req.blocks, true, mech_start, &arrival, res);
    }

    // The written data stay in a segment (readable if the drive allows it).
    double fits_ms = 0.0;  // when the segment's unwritten data fit its slots again (write-back)
    if (c.enabled) {
        // (A relocated read-rotate-write leaves the old sectors as they were and the new data at wa.)
        const int s = seg;
        const int64_t wend = wa + req.blocks;
        if (!(m_segs[s].valid && m_segs[s].write_data && m_segs[s].end == wa && c.combine_seq_writes))
            m_segs[s] = segment{wa, wa, true, true, 0, 0, {}};
        // Data beyond the segment's room (a write larger than the segment) enter only as earlier
        // sectors reach the media: the last of them, and so the acknowledgement, waits until the
        // unwritten data fit the segment.
        segment &sg = m_segs[s];
        prune_dirty(sg, data_start);
        const int64_t over = dirty_blocks(sg, data_start) + req.blocks - seg_capacity;
        if (write_back && over > 0) {
            int64_t planned = 0;
            for (const media_segment &ms : sg.dirty) planned += ms.count;
            fits_ms = kth_written_ms(sg.dirty, m_media, planned - dirty_blocks(sg, data_start) + over);
        }
        sg.dirty.insert(sg.dirty.end(), m_media.begin(), m_media.end());
        invalidate_overlaps(wa, wend, s);
        m_segs[s].end = wend;
        if (m_segs[s].end - m_segs[s].start > c.segment_blocks) m_segs[s].start = wend - std::max(c.segment_blocks, 1);
        m_segs[s].dirty_until_ms = m.end_ms;
        touch(s);
    }

    if (write_back) {
        t = data_in;
        if (fits_ms > t) {
            // The segment filled before the write's last data were in: the drive disconnected and
            // reselects once they fit (the data phase itself is kept as one, a simplification).
            bus.release(t);
            trace_cmd(t, command_state::media_wait);
            const double want = fits_ms + overhead(o.other_reselect_ms);
            t = reselect(bus, want);
            res.bus_wait_ms += t - want;
        }
        t += overhead(o.write_completion_ms);
    } else {
        // Disconnect once the data are in (or, unless the drive disconnects during seeks, once the
        // arm has arrived); reconnect for status when the data are on the media.
        const double seek_done = mech_start + res.mechanism_wait_ms + res.seek_ms;
        const double hold_until = c.disconnect_write_if_seek ? data_in : std::max(data_in, seek_done);
        const double gone = hold_until + overhead(reselected ? o.extradisc_2nd_disconnect_ms : o.write_disconnect_ms);
        bus.release(gone);
        trace_cmd(gone, command_state::media_wait);
        const double want = std::max(gone, m.end_ms) +
                            overhead(reselected || !req.connected ? o.other_reselect_ms : o.first_reselect_ms);
        t = reselect(bus, want);
        res.bus_wait_ms += t - want;
        t += overhead(o.write_completion_ms);
    }
    bus.release(t);
    res.complete_ms = t;
    m_last_write_end = wa + req.blocks;
    return res;
}

}  // namespace raidtlm::disks
