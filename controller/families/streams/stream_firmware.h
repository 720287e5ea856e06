// The stream engine as a firmware family (controller.firmware: streams): Panagiotakis's
// controller-side engine for many sequential streams (paper 002, chapter 4) as the read path of
// RAID 0 / JBOD. Everything that is not a read of a sequential stream goes the plain way
// (raid_firmware::serve); so with the engine's keys the same scenario compares both paths.
//
//   host read -> classifier (stream_classifier: region bitmaps, threshold in a time window)
//     not sequential: bypass, the plain path
//     sequential: the stream's staged data (stream_sets) -> host DMA straight from the
//       read-ahead buffer (pieces in two buffers: copied into one first by the XOR engine)
//       not staged yet: the stream waits for its turn in the dispatch set and its read-ahead
//   dispatcher thread: the dispatch set's reads of R sectors, each in a buffer taken from the
//     buffer DRAM (accounted against M first: a read that does not fit waits for memory)
//   collector thread: every gc_interval_ms, staged data of idle streams and idle streams dropped
//   host write: the plain path, after resetting every stream whose range it touches
//
// Keys: controller.streams.* (stream_engine_keys.cpp). Waves: <prefix>.dispatch_set,
// .buffered_set, .memory_kib, .streams, .hits, .waits, .bypassed.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "controller/families/raid/raid_firmware.h"
#include "controller/families/streams/stream_classifier.h"
#include "controller/families/streams/stream_engine_config.h"
#include "controller/families/streams/stream_sets.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

class stream_firmware : public raid_firmware {
public:
    explicit stream_firmware(firmware_platform &platform);

    bool serve(const host_command &cmd) override;
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override;

    const stream_sets &sets() const { return m_sets; }

private:
    struct counters {
        uint64_t stream_reads = 0;    // host reads served by the engine
        uint64_t hits = 0;            // ... whose data were staged when they arrived
        uint64_t waits = 0;           // ... that waited for a read-ahead
        uint64_t bypassed_reads = 0;  // host reads not classified as sequential
        uint64_t writes = 0;
        uint64_t copies = 0;          // reads spanning two buffers, gathered by the XOR engine
    };

    bool serve_stream_read(const host_command &cmd, stream_sets::stream_id s);
    void dispatcher();
    void collector();
    void read_ahead(stream_sets::disk_read r);
    void free_buffers(const std::vector<stream_sets::buffer_id> &ids);
    void update_waves();
    // The disk a stream starting at `lbn` reads from (its first sector's).
    uint32_t disk_of(uint64_t lbn) const;

    stream_engine_config m_cfg;
    stream_classifier m_classifier;
    stream_sets m_sets;
    std::unordered_map<stream_sets::buffer_id, protocol::buffer_block *> m_blocks;
    sc_core::sc_event m_work;        // the dispatcher may have something to issue
    sc_core::sc_event m_data;        // a read-ahead completed
    sc_core::sc_event m_activity;    // a host command arrived (wakes an idle collector)
    counters m_counts;

    // traced
    waveforms::traced_int m_dispatch_traced = 0;
    waveforms::traced_int m_buffered_traced = 0;
    waveforms::traced_int m_streams_traced = 0;
    unsigned m_memory_kib_traced = 0;
    unsigned m_hits_traced = 0;
    unsigned m_waits_traced = 0;
    unsigned m_bypassed_traced = 0;
};

}  // namespace raidtlm::controller
