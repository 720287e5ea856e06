#include "controller/families/parity_logging/log_buffer_pool.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::controller {

log_buffer_pool::log_buffer_pool(int regions, int64_t track_sectors, int k_tracks, int pool_tracks,
                                 buffer_policy policy)
    : m_track(track_sectors),
      m_k(k_tracks),
      m_capacity(policy == buffer_policy::global ? pool_tracks : regions * k_tracks),
      m_policy(policy),
      m_regions(size_t(std::max(0, regions))) {
    if (track_sectors < 1 || k_tracks < 1 || regions < 1)
        throw std::invalid_argument("log_buffer_pool: regions, track size and K must be positive");
    if (m_capacity < k_tracks)
        throw std::invalid_argument("log_buffer_pool: the pool must hold at least K tracks (one log write)");
}

// A region's buffers: the records being written occupy whole buffers of their own (a log write
// takes whole tracks, or a partial track it then owns); the unwritten records the rest.
void log_buffer_pool::recount(region_state &r) {
    const int now = tracks_for(r.writing, m_track) + tracks_for(r.unwritten, m_track);
    m_in_use += now - r.buffers;
    r.buffers = now;
    m_peak = std::max(m_peak, m_in_use);
}

bool log_buffer_pool::can_append(int region, int64_t sectors) const {
    const region_state &r = m_regions.at(size_t(region));
    const int need = tracks_for(r.unwritten + sectors, m_track) - tracks_for(r.unwritten, m_track);
    if (m_policy == buffer_policy::static_per_region) return r.buffers + need <= m_k;
    return m_in_use + need <= m_capacity;
}

void log_buffer_pool::append(int region, int64_t sectors) {
    region_state &r = m_regions.at(size_t(region));
    r.unwritten += sectors;
    recount(r);
}

bool log_buffer_pool::log_write_due(int region) const {
    return m_regions.at(size_t(region)).unwritten >= int64_t(m_k) * m_track;
}

int64_t log_buffer_pool::unwritten_sectors(int region) const { return m_regions.at(size_t(region)).unwritten; }

void log_buffer_pool::start_log_write(int region, int64_t sectors) {
    region_state &r = m_regions.at(size_t(region));
    if (sectors > r.unwritten) throw std::logic_error("log_buffer_pool: log write of records not buffered");
    r.unwritten -= sectors;
    r.writing += sectors;
    recount(r);
}

void log_buffer_pool::finish_log_write(int region, int64_t sectors) {
    region_state &r = m_regions.at(size_t(region));
    if (sectors > r.writing) throw std::logic_error("log_buffer_pool: finishing a log write never started");
    r.writing -= sectors;
    recount(r);
}

void log_buffer_pool::take_unwritten(int region) {
    region_state &r = m_regions.at(size_t(region));
    r.unwritten = 0;
    recount(r);
}

int log_buffer_pool::region_buffers(int region) const { return m_regions.at(size_t(region)).buffers; }

}  // namespace raidtlm::controller
