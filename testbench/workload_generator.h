// Synthetic request source: addresses, sizes and directions of host requests, and open-loop
// interarrival times, reproducible from a seed. Plain C++, no SystemC.
//
// Addresses are host LBNs in [0, capacity), aligned to alignment_sectors, and a request never runs
// past the end of the host space:
//   uniform     every aligned start equally likely;
//   sequential  each request starts where the previous one ended (wrapping to 0 at the end); the
//               first starts at a seeded random aligned position;
//   local       each request starts at the previous start plus a normal(0, local_stddev_sectors)
//               offset, aligned, wrapping around the host space.
#pragma once

#include <cstdint>

#include "testbench/random.h"
#include "testbench/scenario.h"

namespace raidtlm::testbench {

struct host_request {
    uint64_t lbn = 0;
    uint32_t sectors = 0;
    bool read = true;
};

class workload_generator {
public:
    // Throws scenario_error (naming the workload key) when the request does not fit in
    // capacity_sectors.
    workload_generator(const workload_config &config, uint64_t capacity_sectors);

    host_request next();
    // Open loop: the time to the next arrival (exponential, mean mean_interarrival_ms).
    double next_interarrival_ms() { return m_arrivals.exponential(m_config.mean_interarrival_ms); }

    uint64_t capacity_sectors() const { return m_capacity; }
    // Number of valid aligned start positions.
    uint64_t start_slots() const { return m_slots; }

private:
    workload_config m_config;
    uint64_t m_capacity;
    uint64_t m_slots;       // aligned starts s*alignment with s*alignment + size <= capacity
    random_source m_addresses;
    random_source m_directions;
    random_source m_arrivals;
    uint64_t m_slot = 0;    // previous start slot (sequential, local)
    bool m_first = true;
};

}  // namespace raidtlm::testbench
