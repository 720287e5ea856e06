// controller.streams.*: the stream engine's keys (firmware streams), declared once here.
#include <fmt/format.h>

#include "config/plugin_keys.h"
#include "controller/families/streams/stream_engine_config.h"

namespace raidtlm::controller {

uint32_t stream_engine_config::effective_dispatch_streams() const {
    if (dispatch_streams > 0) return dispatch_streams;
    const uint64_t per_stream = read_ahead_kib * 1024 * requests_per_turn;
    return uint32_t(std::max<uint64_t>(1, memory_bytes() / per_stream));
}

stream_sets_config stream_engine_config::sets(uint64_t capacity_sectors, uint32_t disks) const {
    stream_sets_config c;
    c.disks = disks;
    c.read_ahead_sectors = read_ahead_sectors();
    c.requests_per_turn = requests_per_turn;
    c.dispatch_streams = effective_dispatch_streams();
    c.memory_bytes = memory_bytes();
    c.in_flight_per_stream = in_flight_per_stream;
    c.buffer_timeout_ms = buffer_timeout_ms;
    c.idle_stream_timeout_ms = idle_stream_timeout_ms;
    c.capacity_sectors = capacity_sectors;
    return c;
}

void register_stream_engine_keys() {
    using cfg = stream_engine_config;
    config::register_plugin_keys<cfg>("controller.streams", "firmware streams", [](config::declarations<cfg> &k) {
        k.natural("read_ahead_kib", &cfg::read_ahead_kib, "8192").note("R: each read-ahead of a stream; a multiple of 4");
        k.integer("requests_per_turn", &cfg::requests_per_turn, "1", 1, 1 << 20)
            .note("N: read-aheads a stream issues before the next stream takes its place");
        k.integer("dispatch_streams", &cfg::dispatch_streams, "0", 0, 1 << 20)
            .note("D: streams issuing read-aheads at once; 0 = memory / (R * N)");
        k.natural("memory_mib", &cfg::memory_mib, "64").note("M: buffer DRAM the engine may hold; D * R * N <= M");
        k.integer("in_flight_per_stream", &cfg::in_flight_per_stream, "1", 1, 64)
            .note("read-aheads a dispatched stream keeps outstanding");
        k.number("buffer_timeout_ms", &cfg::buffer_timeout_ms, "2000").above(0).cap(1e9)
            .note("staged data of a stream without requests this long are dropped");
        k.number("idle_stream_timeout_ms", &cfg::idle_stream_timeout_ms, "10000").above(0).cap(1e9)
            .note("a stream with nothing staged and no requests this long is forgotten");
        k.number("gc_interval_ms", &cfg::gc_interval_ms, "500").above(0).cap(1e9).note("the collector's period");
        k.integer<uint32_t>("block_sectors", [](cfg &c) -> uint32_t & { return c.classifier.block_sectors; }, "8", 1, 1 << 16)
            .note("classifier: sectors per bitmap bit");
        k.integer<uint32_t>("offset_blocks", [](cfg &c) -> uint32_t & { return c.classifier.offset_blocks; }, "64", 1, 1 << 20)
            .note("classifier: a bitmap covers [B - offset, B + offset]; at least a request's blocks");
        k.integer<uint32_t>("threshold", [](cfg &c) -> uint32_t & { return c.classifier.threshold; }, "3", 1, 1 << 16)
            .note("classifier: distinct requests in a bitmap within the window that mark a stream");
        k.number<double>("window_ms", [](cfg &c) -> double & { return c.classifier.window_ms; }, "10000").above(0).cap(1e9)
            .note("classifier: the time window");
        k.check([](const cfg &c, const config::key_checks &chk) {
            if (c.read_ahead_kib == 0 || c.read_ahead_kib % 4 != 0)
                chk.fail("read_ahead_kib", fmt::format("is {}", c.read_ahead_kib), "a positive multiple of 4 (whole 4 KiB blocks)");
            if (c.memory_bytes() < c.read_ahead_kib * 1024)
                chk.fail("memory_mib", fmt::format("{} MiB holds less than one read-ahead of {} KiB", c.memory_mib,
                                                    c.read_ahead_kib),
                         "memory_mib >= read_ahead_kib / 1024");
            const uint64_t need = uint64_t(c.dispatch_streams) * c.read_ahead_kib * 1024 * c.requests_per_turn;
            if (c.dispatch_streams > 0 && need > c.memory_bytes())
                chk.fail("dispatch_streams",
                         fmt::format("D * R * N = {} * {} KiB * {} = {} MiB exceeds memory_mib {}", c.dispatch_streams,
                                     c.read_ahead_kib, c.requests_per_turn, need >> 20, c.memory_mib),
                         "M >= D * R * N (section 4.3), or dispatch_streams 0");
        });
    });
}

}  // namespace raidtlm::controller
