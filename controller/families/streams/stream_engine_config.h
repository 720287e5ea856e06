// The stream engine's scenario keys (controller.streams.*), as the firmware reads them, and the
// plain-C++ configurations of its classifier and sets derived from them. Defaults are documented
// choices: the thesis's best single-disk setting (R = 8 MB, N = 1) and a memory of 64 MiB.
#pragma once

#include <cstdint>

#include "controller/families/streams/stream_classifier.h"
#include "controller/families/streams/stream_sets.h"

namespace raidtlm::controller {

struct stream_engine_config {
    uint64_t read_ahead_kib = 8192;       // R (section 5.1: 8 MB reaches ~50 of 55 MB/s)
    uint32_t requests_per_turn = 1;       // N
    uint32_t dispatch_streams = 0;        // D; 0 = M / (R * N), as in section 5.2
    uint64_t memory_mib = 64;             // M, taken from the buffer DRAM
    uint32_t in_flight_per_stream = 1;    // read-aheads a dispatched stream keeps outstanding
    double buffer_timeout_ms = 2000;      // staged data of a stream idle this long are dropped
    double idle_stream_timeout_ms = 10000;
    double gc_interval_ms = 500;          // the collector's period
    stream_classifier_config classifier;  // block_sectors, offset_blocks, threshold, window_ms

    uint64_t read_ahead_sectors() const { return read_ahead_kib * 2; }
    uint64_t memory_bytes() const { return memory_mib << 20; }
    // D as configured, or as many as M holds.
    uint32_t effective_dispatch_streams() const;
    stream_sets_config sets(uint64_t capacity_sectors, uint32_t disks) const;
};

// Registers controller.streams.* (called by register_builtin_plugins).
void register_stream_engine_keys();

}  // namespace raidtlm::controller
