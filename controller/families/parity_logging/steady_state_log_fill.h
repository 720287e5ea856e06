#pragma once
// A parity logging run that starts with empty logs is not in steady state: under uniform small
// writes every region's log fills at about the same time (after ~B x a log's worth of writes), so
// all regions reintegrate in one burst, and the bursts only spread apart over hundreds of cycles
// (tens of millions of writes on the paper's array). In steady state a region's fill level at a
// random instant is uniform over its log (renewal: the log grows linearly from empty to full), and
// regions are independent. Starting each region at such a level puts a short run in steady state
// at once, so it can measure the amortised cost of log writes and reintegrations.
#include <cstdint>
#include <vector>

namespace raidtlm::controller {

struct log_fill {
    std::vector<int64_t> sublog_sectors;  // per sublog, sectors already written
    int next_sublog = 0;                  // where the next log write goes (round robin)
    int64_t total_sectors() const;
};

// The fill of one region holding `tracks` whole tracks of records on L sublogs, written round robin
// one track at a time from sublog 0 (the log writer's order). Requires tracks <= L x sublog tracks.
log_fill fill_round_robin(int64_t tracks, int log_stripes, int64_t track_sectors, int64_t sublog_sectors);

// Per region a uniformly random whole-track fill in [0, log tracks), from `seed` (deterministic).
std::vector<log_fill> steady_state_fills(int regions, int log_stripes, int64_t track_sectors, int64_t sublog_sectors,
                                         uint64_t seed);

}  // namespace raidtlm::controller
