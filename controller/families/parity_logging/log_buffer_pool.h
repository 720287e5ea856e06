// The NVRAM log buffers of parity logging (paper sec. 2.1): track-sized buffers holding parity
// update records per region. A region's records fill its buffers; when K tracks are full a K-track
// log write is due. Buffers are freed when their log write completes (or when reintegration takes
// the records straight from memory).
//   global: every free buffer is in one pool; a writer blocks only when the pool is empty
//           (records keep accumulating while a log write is in flight);
//   static: each region owns K buffers; a writer blocks when its region's K are in use.
// Counts only; the records themselves are the firmware's (parity_log_records.h). Pure C++.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::controller {

enum class buffer_policy { global, static_per_region };

class log_buffer_pool {
public:
    // `pool_tracks` buffers of `track_sectors` each (global), or K per region (static: pool_tracks
    // is ignored and the pool is regions * K).
    log_buffer_pool(int regions, int64_t track_sectors, int k_tracks, int pool_tracks, buffer_policy policy);

    // Whether `sectors` more record sectors of `region` fit in the buffers now.
    bool can_append(int region, int64_t sectors) const;
    // Buffers them (precondition: can_append).
    void append(int region, int64_t sectors);
    // K full tracks of the region wait for a log write.
    bool log_write_due(int region) const;
    // Record sectors buffered and not yet being written (full tracks and the partial one).
    int64_t unwritten_sectors(int region) const;
    // A log write takes `sectors` (whole tracks, or the partial last one) of the oldest unwritten
    // records; their buffers stay in use until finish_log_write.
    void start_log_write(int region, int64_t sectors);
    void finish_log_write(int region, int64_t sectors);
    // Reintegration applies every unwritten record from memory: their buffers are freed.
    void take_unwritten(int region);

    int buffers_in_use() const { return m_in_use; }
    int region_buffers(int region) const;
    int peak_buffers_in_use() const { return m_peak; }
    int capacity() const { return m_capacity; }
    int64_t track_sectors() const { return m_track; }
    int k_tracks() const { return m_k; }
    buffer_policy policy() const { return m_policy; }
    void reset_peak() { m_peak = m_in_use; }

private:
    struct region_state {
        int64_t unwritten = 0;  // record sectors buffered, not in a log write
        int64_t writing = 0;    // record sectors in log writes in flight
        int buffers = 0;
    };
    static int tracks_for(int64_t sectors, int64_t track) { return int((sectors + track - 1) / track); }
    void recount(region_state &r);

    int64_t m_track;
    int m_k;
    int m_capacity;
    buffer_policy m_policy;
    std::vector<region_state> m_regions;
    int m_in_use = 0;
    int m_peak = 0;
};

}  // namespace raidtlm::controller
