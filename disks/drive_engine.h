// The drive's firmware and mechanism as plain C++: command overheads, the segmented cache with
// read-ahead and write-back, disconnect/reselect around the media work, and the mechanism's
// state. It advances in simulated milliseconds and talks to the bus only through bus_port, so
// the SystemC module can make those calls wait on a real bus and unit tests can use a fake.
//
// Background media work (read-ahead, write-back flushes) is not simulated with events: it is
// planned when it starts and evaluated lazily when the next command looks at the drive, which
// keeps a request down to a handful of kernel events.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "disks/disk_layout.h"
#include "disks/disk_spec.h"
#include "disks/mechanics.h"
#include "tlm/scsi_command.h"

namespace raidtlm::disks {

// The engine's view of the bus. acquire/release advance simulated time to `at_ms` first.
class bus_port {
public:
    virtual ~bus_port() = default;
    // Reselect: returns when the drive owns the bus (>= at_ms).
    virtual double acquire(double at_ms) = 0;
    virtual void release(double at_ms) = 0;
    // The bus's own time to move one sector (the transfer runs at the slower of bus and drive).
    virtual double sector_transfer_ms() const = 0;
    // A data phase: `sectors` sectors cross the bus between start_ms and end_ms (told when the
    // drive plans it, which may be ahead of time).
    virtual void data_phase(double start_ms, double end_ms, int sectors) {}
};

// For tests and validation runs: a bus that is always free and infinitely fast.
class free_bus final : public bus_port {
public:
    double acquire(double at_ms) override { return at_ms; }
    void release(double) override {}
    double sector_transfer_ms() const override { return 0.0; }
};

struct drive_request {
    bool write = false;
    int64_t lbn = 0;
    int blocks = 0;
    // The drive starts on the command connected to the bus (it has just received it). False for
    // a command that waited in the drive's queue on a shared bus: the initiator has gone, so the
    // drive reselects before it moves data.
    bool connected = true;
    // A write that first reads the sectors and writes them one revolution later (scsi_command).
    bool read_rotate_write = false;
    // Read-rotate-write only: write the new data here instead of in place (>= 0).
    int64_t write_lbn = -1;
    // A read with FUA: from the media, whatever the cache holds.
    bool force_media = false;
};

struct drive_result {
    double complete_ms = 0;
    double overhead_ms = 0;
    double seek_ms = 0;
    double rotation_ms = 0;
    double transfer_ms = 0;
    double bus_wait_ms = 0;
    double mechanism_wait_ms = 0;  // waiting for earlier media work (a write-back's flush) to end
    int seek_distance_cyl = 0;
    bool moved_arm = false;
    bool media_accessed = false;
    double media_end_ms = 0;  // when the command's last sector passed under the head
    head_position media_end_head;
    protocol::cache_outcome cache = protocol::cache_outcome::miss;
    bool write_back = false;
};

// What the waveform shows: the mechanism (idle/seek/rotate/transfer, on which track) and the
// drive's command side (idle/overhead/bus), which overlap under write-back and read-ahead.
enum class mech_state : int { idle = 0, seek = 1, rotate = 2, transfer = 3 };
enum class command_state : int { idle = 0, overhead = 1, media_wait = 2, bus = 3 };

struct drive_trace_event {
    double time_ms;
    bool mechanism;  // true: mech_state, false: command_state
    int state;
    int cyl;
    int head;
};

class drive_engine {
public:
    drive_engine(const disk_spec &spec, double spindle_phase);

    const disk_spec &spec() const { return m_spec; }
    const disk_layout &layout() const { return m_layout; }
    const mechanics &mech() const { return m_mech; }

    // Services one command that the drive starts on at start_ms (connected to the bus, command
    // received). Calls into `bus` to disconnect and reselect; returns when status is sent.
    drive_result serve(const drive_request &req, double start_ms, bus_port &bus);

    // Time until which the mechanism is busy with work already committed (write-back flushes).
    double mechanism_free_ms() const { return m_mech_free_ms; }
    // Where the heads are (or will be once the committed work is done).
    head_position head() const { return m_head; }

    // Waveform hook: called with every state change, possibly ahead of simulated time (the
    // module replays them at their times).
    std::function<void(const drive_trace_event &)> on_trace;

private:
    struct segment {
        int64_t start = 0;
        int64_t end = 0;        // valid data [start, end)
        bool valid = false;
        bool write_data = false;
        double dirty_until_ms = 0;  // write-back data reaches media then
        uint64_t last_use = 0;
        // Media plan of the written data still to reach the media: each sector occupies a slot
        // of the segment until its media write is done (pruned as time passes).
        std::vector<media_segment> dirty;
    };
    // Read-ahead in progress (at most one: there is one mechanism).
    struct prefetch {
        bool active = false;
        int seg = -1;
        int64_t next_lbn = 0;   // first LBN of the plan
        int64_t limit_lbn = 0;  // plan ends here
        double start_ms = 0;
        head_position start_head;
        std::vector<media_segment> plan;
    };

    double overhead(double ms) const { return ms * m_spec.overheads.time_scale; }
    double command_overhead(bool write, bool hit) const;
    // Evaluates read-ahead progress at t: sectors done by t join the segment.
    void settle_prefetch(double t);
    // Stops read-ahead at t (next sector boundary unless the drive may stop mid-sector); the
    // mechanism is free, and the heads where the read-ahead left them, from the returned time.
    double abort_prefetch(double t);
    void start_prefetch(int seg, int64_t from_lbn, int64_t limit_lbn, double t, head_position head);
    void extend_prefetch(int64_t limit_lbn);
    int64_t prefetch_limit(const drive_request &req, int seg) const;
    int find_segment(int64_t lbn, double t) const;
    int choose_segment(bool for_write, double t);
    void invalidate_overlaps(int64_t lbn, int64_t end, int keep);
    // Drops from seg's dirty plan the media segments fully written by t.
    void prune_dirty(segment &seg, double t) const;
    // Sectors of seg's write data not yet on the media at t.
    int64_t dirty_blocks(const segment &seg, double t) const;
    // Time at which `k` (>= 1) of the sectors in `a` and `b` (media plans) are on the media.
    double kth_written_ms(const std::vector<media_segment> &a, const std::vector<media_segment> &b, int64_t k);
    void touch(int seg) { m_segs[seg].last_use = ++m_use_clock; }
    void trace_mech(double t, mech_state s, head_position h) const {
        if (on_trace) on_trace({t, true, int(s), h.cyl, h.head});
    }
    void trace_cmd(double t, command_state s) const {
        if (on_trace) on_trace({t, false, int(s), m_head.cyl, m_head.head});
    }
    void trace_media(double start_ms, const media_access_result &m) const;

    // Times the media access of [lbn, lbn + count) once the command is ready at ready_ms: waits
    // for committed media work, stops read-ahead, moves the heads; fills res's mechanical fields.
    media_access_result media_access(int64_t lbn, int64_t count, bool write, double ready_ms,
                                     const data_arrival *arrival, drive_result &res);
    drive_result serve_read(const drive_request &req, double t, bus_port &bus);
    drive_result serve_write(const drive_request &req, double t, bus_port &bus);
    // Moves sectors [from, n) of a read to the host as they become available in the buffer
    // (avail[i] = time sector i is in the buffer); disconnects when the buffer runs dry unless
    // the drive holds the bus. Returns the time the last sector is on the host side.
    double send_read_data(const std::vector<double> &avail, double t, bool connected, bus_port &bus, drive_result &res);
    double sector_bus_ms(bus_port &bus, bool write) const;
    // Reselects: acquires the bus at want_ms plus the host path's arbitration time.
    double reselect(bus_port &bus, double want_ms) const;

    disk_spec m_spec;
    disk_layout m_layout;
    mechanics m_mech;
    std::vector<segment> m_segs;
    prefetch m_prefetch;
    head_position m_head;
    double m_mech_free_ms = 0;
    bool m_last_was_write = false;
    int64_t m_last_write_end = -1;       // for fast write level 1 (sequential write streams)
    uint64_t m_use_clock = 0;
    // Scratch buffers reused across requests (no per-request allocation).
    std::vector<track_run> m_runs;
    std::vector<media_segment> m_media;
    std::vector<double> m_avail;
    std::vector<double> m_done_scratch;
};

}  // namespace raidtlm::disks
