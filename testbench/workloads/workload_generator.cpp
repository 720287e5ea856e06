#include "testbench/workloads/workload_generator.h"

#include <cmath>

#include <fmt/format.h>

namespace raidtlm::testbench {

workload_generator::workload_generator(const workload_config &config, uint64_t capacity_sectors,
                                       double host_track_sectors)
    : m_config(config),
      m_capacity(capacity_sectors),
      m_track_sectors(host_track_sectors),
      m_sizes(config),
      // Independent streams, so changing e.g. read_fraction does not move the addresses.
      m_addresses(config.seed * 3 + 0),
      m_directions(config.seed * 3 + 1),
      m_arrivals(config, config.seed * 3 + 2),
      m_size_rng(extra_stream_seed(config.seed, 0)),
      m_pattern_rng(extra_stream_seed(config.seed, 1)) {
    if (m_sizes.max_sectors() > capacity_sectors) {
        const bool constant = m_sizes.is_constant();
        throw scenario_error(fmt::format("key 'workload.{}': {} is larger than the host capacity of {} "
                                         "sectors; expected at most {}",
                                         constant ? "request_sectors" : "size_max_sectors", m_sizes.max_sectors(),
                                         capacity_sectors, capacity_sectors));
    }
    if (config.address == address_pattern::tracks && !(host_track_sectors > 0))
        throw scenario_error("key 'workload.address': tracks needs the track size of the disks; expected a disk "
                             "spec with tracks");
    if (config.address == address_pattern::streams) {
        const int s = config.outstanding;
        for (int i = 0; i < s; ++i) {
            // Evenly spaced starts, aligned down.
            const uint64_t a = config.alignment_sectors ? config.alignment_sectors : 1;
            const uint64_t begin = static_cast<uint64_t>(static_cast<double>(capacity_sectors) * i / s) / a * a;
            m_stream_begin.push_back(begin);
            m_stream_next.push_back(begin);
        }
    }
}

uint64_t workload_generator::start_slots(uint32_t sectors) const {
    if (sectors == 0) sectors = m_config.request_sectors;
    return (m_capacity - sectors) / alignment(sectors) + 1;
}

uint64_t workload_generator::continue_after(uint64_t end, uint32_t align, uint64_t slots) {
    const uint64_t slot = (end + align - 1) / align;
    return slot >= slots ? 0 : slot;
}

uint64_t workload_generator::shifted(uint64_t prev_slot, double offset_slots, uint64_t slots) {
    const double n = static_cast<double>(slots);
    double s = std::fmod(static_cast<double>(prev_slot) + offset_slots, n);
    if (s < 0) s += n;
    const uint64_t slot = static_cast<uint64_t>(s);
    return slot >= slots ? slots - 1 : slot;
}

uint64_t workload_generator::stream_start(int stream, uint32_t sectors) {
    const size_t i = static_cast<size_t>(stream) % m_stream_next.size();
    const uint64_t end = i + 1 < m_stream_begin.size() ? m_stream_begin[i + 1] : m_capacity;
    const uint32_t a = alignment(sectors);
    uint64_t lbn = (m_stream_next[i] + a - 1) / a * a;
    if (lbn + sectors > end) lbn = m_stream_begin[i];
    if (lbn + sectors > m_capacity) lbn = (m_capacity - sectors) / a * a;
    m_stream_next[i] = lbn + sectors;
    return lbn;
}

host_request workload_generator::next(int stream) {
    host_request r;
    int direction = -1;
    r.sectors = m_sizes.is_constant() ? m_config.request_sectors : m_sizes.draw(m_size_rng, direction);
    r.read = direction >= 0 ? direction == 1 : m_directions.bernoulli(m_config.read_fraction);
    const uint32_t align = alignment(r.sectors);
    const uint64_t slots = (m_capacity - r.sectors) / align + 1;

    address_pattern pattern = m_config.address;
    if (m_config.random_fraction < 1 && !m_first && pattern != address_pattern::streams &&
        !m_pattern_rng.bernoulli(m_config.random_fraction))
        pattern = address_pattern::sequential;

    uint64_t slot = 0;
    switch (pattern) {
    case address_pattern::uniform:
        slot = m_addresses.below(slots);
        break;
    case address_pattern::sequential:
        slot = m_first ? m_addresses.below(slots) : continue_after(m_prev_end, align, slots);
        break;
    case address_pattern::local:
        slot = m_first ? m_addresses.below(slots)
                       : shifted(m_prev_lbn / align,
                                 std::round(m_addresses.normal() * m_config.local_stddev_sectors / align), slots);
        break;
    case address_pattern::tracks: {
        const double span = m_config.locality_tracks * m_track_sectors;
        slot = m_first ? m_addresses.below(slots)
                       : shifted(m_prev_lbn / align, std::round((2 * m_addresses.uniform() - 1) * span / align), slots);
        break;
    }
    case address_pattern::hot_cold: {
        const double hot_sectors = m_config.hot_space_fraction * static_cast<double>(m_capacity);
        uint64_t hot = static_cast<uint64_t>(std::ceil(hot_sectors / align));
        hot = std::min(std::max<uint64_t>(hot, 1), slots);
        if (hot == slots || m_addresses.bernoulli(m_config.hot_access_fraction))
            slot = m_addresses.below(hot);
        else
            slot = hot + m_addresses.below(slots - hot);
        break;
    }
    case address_pattern::streams: {
        if (stream < 0) {
            stream = m_next_stream;
            m_next_stream = (m_next_stream + 1) % static_cast<int>(m_stream_next.size());
        }
        r.lbn = stream_start(stream, r.sectors);
        m_first = false;
        m_prev_lbn = r.lbn;
        m_prev_end = r.lbn + r.sectors;
        return r;
    }
    }
    m_first = false;
    r.lbn = slot * align;
    m_prev_lbn = r.lbn;
    m_prev_end = r.lbn + r.sectors;
    return r;
}

}  // namespace raidtlm::testbench
