#include "testbench/workload_generator.h"

#include <cmath>

#include <fmt/format.h>

namespace raidtlm::testbench {

workload_generator::workload_generator(const workload_config &config, uint64_t capacity_sectors)
    : m_config(config),
      m_capacity(capacity_sectors),
      m_slots(0),
      // Independent streams, so changing e.g. read_fraction does not move the addresses.
      m_addresses(config.seed * 3 + 0),
      m_directions(config.seed * 3 + 1),
      m_arrivals(config.seed * 3 + 2) {
    if (config.alignment_sectors == 0 || config.request_sectors == 0)
        throw scenario_error("workload: request_sectors and alignment_sectors must be >= 1");
    if (config.request_sectors > capacity_sectors)
        throw scenario_error(fmt::format("key 'workload.request_sectors': {} is larger than the host capacity of {} "
                                         "sectors; expected at most {}",
                                         config.request_sectors, capacity_sectors, capacity_sectors));
    m_slots = (capacity_sectors - config.request_sectors) / config.alignment_sectors + 1;
}

host_request workload_generator::next() {
    host_request r;
    r.sectors = m_config.request_sectors;
    r.read = m_directions.bernoulli(m_config.read_fraction);
    uint64_t slot = 0;
    switch (m_config.address) {
    case address_pattern::uniform:
        slot = m_addresses.below(m_slots);
        break;
    case address_pattern::sequential:
        if (m_first) {
            slot = m_addresses.below(m_slots);
        } else {
            // The next aligned start at or after the previous request's end.
            const uint64_t end = m_slot * m_config.alignment_sectors + m_config.request_sectors;
            slot = (end + m_config.alignment_sectors - 1) / m_config.alignment_sectors;
            if (slot >= m_slots) slot = 0;
        }
        break;
    case address_pattern::local:
        if (m_first) {
            slot = m_addresses.below(m_slots);
        } else {
            const double offset_slots =
                std::round(m_addresses.normal() * m_config.local_stddev_sectors / m_config.alignment_sectors);
            const double n = static_cast<double>(m_slots);
            double s = std::fmod(static_cast<double>(m_slot) + offset_slots, n);
            if (s < 0) s += n;
            slot = static_cast<uint64_t>(s);
            if (slot >= m_slots) slot = m_slots - 1;
        }
        break;
    }
    m_first = false;
    m_slot = slot;
    r.lbn = slot * m_config.alignment_sectors;
    return r;
}

}  // namespace raidtlm::testbench
