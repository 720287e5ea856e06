// The stream engine's dispatch and buffered sets (Panagiotakis, "Many sequential streams",
// sections 4.2-4.3), plain C++: which stream reads ahead next, how much memory that takes, and
// which staged data serve a host read. The firmware (stream_firmware) does the I/O and the
// waiting; this class only decides and keeps account.
//
//   stream       a sequential stream the classifier found: where its host reads are
//                (next_host_lbn), where its next disk read starts (next_fetch_lbn), and its
//                buffers of read-ahead data, in address order, in flight or staged.
//   dispatch set at most D streams that issue disk reads, each read R sectors (the read-ahead),
//                at most `in_flight_per_stream` at a time; a stream leaves the set once the N
//                reads of its turn are done, and the next stream waiting (first come, first
//                served: round robin over the streams that need data) takes its place. So at
//                most D * in_flight_per_stream read-aheads are outstanding. With several disks
//                a disk holds at most ceil(D / disks) places: a waiting stream of another disk
//                goes first.
//   buffered set the streams out of the dispatch set that still hold staged data; a buffer is
//                freed when the host has read past its end, or when its stream has had no
//                request for `buffer_timeout_ms` (collect_garbage); a stream with nothing staged
//                and no request for `idle_stream_timeout_ms` is forgotten.
//   memory       every buffer takes its bytes from M from the moment its disk read is issued
//                until it is freed; a read that does not fit waits (next_disk_read returns
//                nothing) until memory is freed. M >= D * R * N is the configuration's check.
//
// A stream joins the dispatch queue when a host read finds data it does not hold yet (the read
// waits). Writes that overlap a stream's range reset it (its staged data dropped, reads in flight
// marked stale and freed when they complete).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace raidtlm::controller {

struct stream_sets_config {
    uint64_t read_ahead_sectors = 16384;   // R
    uint32_t requests_per_turn = 1;        // N
    uint32_t dispatch_streams = 1;         // D
    uint64_t memory_bytes = 8ull << 20;    // M
    uint32_t in_flight_per_stream = 1;     // disk reads a dispatched stream keeps outstanding
    double buffer_timeout_ms = 2000;       // staged data of a stream idle this long are dropped
    double idle_stream_timeout_ms = 10000; // a stream with nothing staged idle this long is forgotten
    uint64_t capacity_sectors = 0;         // reads stop at the end of the address space
    // Disks the streams live on: the dispatch set holds at most ceil(D / disks) streams of one
    // disk, so D >= disks keeps every disk reading (the thesis's D = #disks, Fig 5.5).
    uint32_t disks = 1;
    uint32_t sector_bytes = 512;
};

class stream_sets {
public:
    using stream_id = uint64_t;
    using buffer_id = uint64_t;

    explicit stream_sets(const stream_sets_config &c);

    // The stream a host read at [lbn, lbn + sectors) continues: one whose next read position or
    // fetched range (from its host position to its next fetch) holds lbn.
    std::optional<stream_id> stream_of(uint64_t lbn) const;
    // A stream the classifier found, whose host reads are at lbn now, on `disk` (< config disks).
    stream_id open(uint64_t lbn, double now_ms, uint32_t disk = 0);

    struct piece {
        buffer_id buffer = 0;
        uint64_t offset_sectors = 0;  // where in the buffer the piece starts
        uint32_t sectors = 0;
    };
    struct coverage {
        bool ready = false;         // every piece staged: the data can go to the host now
        std::vector<piece> pieces;  // valid when ready
    };
    // What the stream holds of [lbn, lbn + sectors). Not all ready: the read waits (and the
    // stream joins the dispatch queue when nothing is on its way for part of the range). Ready:
    // the pieces are pinned until finish_read.
    coverage cover(stream_id s, uint64_t lbn, uint32_t sectors, double now_ms);
    // The host read's data have gone: unpins its pieces, moves the stream's host position past
    // it; returns buffers to free (the host read past their end).
    std::vector<buffer_id> finish_read(stream_id s, const coverage &c, uint64_t lbn, uint32_t sectors,
                                       double now_ms);

    struct disk_read {
        stream_id stream = 0;
        buffer_id buffer = 0;
        uint64_t lbn = 0;
        uint32_t sectors = 0;
    };
    // The next read-ahead to issue, its memory taken; nothing when no dispatched stream may issue
    // one now (none wants data, all have their reads in flight, or memory is short:
    // waiting_for_memory() says which).
    std::optional<disk_read> next_disk_read(double now_ms);
    // A disk read ended. Returns buffers to free (a stale read, or a failed one).
    std::vector<buffer_id> read_done(buffer_id b, bool ok, double now_ms);

    // A host write to [lbn, lbn + sectors): every stream whose range it touches is reset.
    std::vector<buffer_id> invalidate(uint64_t lbn, uint32_t sectors);
    // Staged data of idle streams dropped, idle streams forgotten.
    std::vector<buffer_id> collect_garbage(double now_ms);

    // ---- what the waves and statistics show
    size_t streams() const { return m_streams.size(); }
    size_t dispatch_set_size() const { return m_dispatch.size(); }
    size_t buffered_set_size() const;  // streams outside the dispatch set holding buffers
    size_t dispatch_queue_size() const { return m_queue.size(); }
    uint64_t memory_in_use_bytes() const { return m_memory_in_use; }
    bool waiting_for_memory() const { return m_waiting_for_memory; }
    const stream_sets_config &config() const { return m_config; }

    struct statistics {
        uint64_t streams_opened = 0;
        uint64_t streams_forgotten = 0;
        uint64_t disk_reads = 0;
        uint64_t sectors_read_ahead = 0;
        uint64_t sectors_dropped = 0;      // read ahead and never read by the host
        uint64_t buffers_expired = 0;      // dropped by the timeout
        uint64_t resets = 0;               // by writes and failed reads
        uint64_t memory_waits = 0;         // times a read-ahead waited for memory
        uint64_t peak_memory_bytes = 0;
    };
    const statistics &stats() const { return m_stats; }
    void reset_statistics() {
        m_stats = statistics{};
        m_stats.peak_memory_bytes = m_memory_in_use;
    }

private:
    struct buffer {
        stream_id stream = 0;
        uint64_t lbn = 0;
        uint32_t sectors = 0;
        bool ready = false;  // the disk read completed
        bool stale = false;  // no longer part of its stream: freed when done and unpinned
        uint32_t pins = 0;
        uint64_t end() const { return lbn + sectors; }
    };
    struct stream {
        uint64_t next_host_lbn = 0;
        uint64_t next_fetch_lbn = 0;
        std::deque<buffer_id> buffers;  // live (not stale), address order
        bool dispatched = false;
        bool queued = false;
        uint32_t issued_this_turn = 0;
        uint32_t in_flight = 0;
        double last_request_ms = 0;
        uint32_t disk = 0;
    };

    void enqueue(stream_id s, stream &st);
    void leave_dispatch(stream_id s, stream &st);
    // Drops the stream's staged data: unpinned ready buffers go to `out`, the others turn stale.
    void reset(stream &st, std::vector<buffer_id> &out);
    void release(buffer_id b, std::vector<buffer_id> &out);
    uint64_t bytes_of(const buffer &b) const { return uint64_t(b.sectors) * m_config.sector_bytes; }

    stream_sets_config m_config;
    std::map<stream_id, stream> m_streams;
    std::unordered_map<buffer_id, buffer> m_buffers;
    std::deque<stream_id> m_queue;     // streams waiting for the dispatch set, first come first
    std::vector<stream_id> m_dispatch; // the dispatch set
    std::vector<uint32_t> m_dispatched_on_disk;
    size_t m_next_in_dispatch = 0;     // round robin among dispatched streams when issuing
    stream_id m_next_stream = 1;
    buffer_id m_next_buffer = 1;
    uint64_t m_memory_in_use = 0;
    bool m_waiting_for_memory = false;
    statistics m_stats;
};

}  // namespace raidtlm::controller
