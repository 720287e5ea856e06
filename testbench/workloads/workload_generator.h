// Synthetic request source: addresses, sizes and directions of host requests, and open-loop
// arrival times, reproducible from a seed. Plain C++, no SystemC.
//
// Sizes come from a size_sampler (constant, uniform, table, zipf); a table row may fix the
// direction, else a request is a read with probability read_fraction. Addresses are host LBNs in
// [0, capacity), aligned to alignment_sectors (0: to the request's own size, "natural
// boundaries"), and a request never runs past the end of the host space:
//   uniform     every aligned start equally likely;
//   sequential  each request starts where the previous one ended (wrapping to 0 at the end); the
//               first starts at a seeded random aligned position;
//   local       each request starts at the previous start plus a normal(0, local_stddev_sectors)
//               offset, aligned, wrapping around the host space;
//   streams     S = outstanding sequential streams, stream i starting at i/S of the host space and
//               wrapping within its own 1/S; next(stream) serves stream `stream` (a closed-loop
//               client), next() the streams in turn;
//   tracks      each request starts within +-locality_tracks tracks of the previous start (uniform
//               offset; a track is host_track_sectors of host space, wrapping);
//   hot_cold    a fraction hot_access_fraction of the requests go uniformly to the first
//               hot_space_fraction of the host space, the rest uniformly to the remainder.
// With random_fraction < 1, a request of the uniform, local, tracks or hot_cold patterns instead
// continues sequentially after the previous one with probability 1 - random_fraction (Iometer's
// "% random").
//
// Random streams are independent per purpose (addresses, directions, arrivals, sizes, sequential
// choice), so e.g. changing read_fraction does not move the addresses.
#pragma once

#include <cstdint>
#include <vector>

#include "testbench/workloads/distributions.h"
#include "testbench/workloads/host_request.h"
#include "testbench/workloads/random.h"
#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

class workload_generator {
public:
    // Throws scenario_error (naming the workload key) when the largest request does not fit in
    // capacity_sectors. host_track_sectors is what one track spans in the host space (the tracks
    // pattern needs it > 0).
    workload_generator(const workload_config &config, uint64_t capacity_sectors, double host_track_sectors = 0);

    // The next request; `stream` picks the sequential stream of the streams pattern (-1: in turn).
    host_request next(int stream = -1);
    // Open loop: the time from now_ms to the next arrival (Poisson with mean mean_interarrival_ms,
    // or following rate_schedule); infinity when no more arrivals will come.
    double next_interarrival_ms(double now_ms = 0) { return m_arrivals.next_delay_ms(now_ms); }

    uint64_t capacity_sectors() const { return m_capacity; }
    // Number of valid aligned start positions of a request of `sectors` (default: request_sectors).
    uint64_t start_slots(uint32_t sectors = 0) const;
    const size_sampler &sizes() const { return m_sizes; }
    int streams() const { return static_cast<int>(m_stream_next.size()); }

private:
    uint32_t alignment(uint32_t sectors) const {
        return m_config.alignment_sectors ? m_config.alignment_sectors : sectors;
    }
    // The first aligned start at or after `end`, or 0 past the last slot.
    static uint64_t continue_after(uint64_t end, uint32_t align, uint64_t slots);
    // prev_slot moved by offset_slots, wrapping around [0, slots).
    static uint64_t shifted(uint64_t prev_slot, double offset_slots, uint64_t slots);
    uint64_t stream_start(int stream, uint32_t sectors);

    workload_config m_config;
    uint64_t m_capacity;
    double m_track_sectors;
    size_sampler m_sizes;
    random_source m_addresses;
    random_source m_directions;
    arrival_schedule m_arrivals;
    random_source m_size_rng;
    random_source m_pattern_rng;
    uint64_t m_prev_lbn = 0;  // previous start (sequential, local, tracks, random_fraction)
    uint64_t m_prev_end = 0;  // previous end
    bool m_first = true;
    std::vector<uint64_t> m_stream_begin, m_stream_next;  // streams
    int m_next_stream = 0;
};

}  // namespace raidtlm::testbench
