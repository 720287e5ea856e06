#include "controller/families/parity_logging/steady_state_log_fill.h"

#include <random>
#include <stdexcept>

namespace raidtlm::controller {

int64_t log_fill::total_sectors() const {
    int64_t n = 0;
    for (int64_t s : sublog_sectors) n += s;
    return n;
}

log_fill fill_round_robin(int64_t tracks, int log_stripes, int64_t track_sectors, int64_t sublog_sectors) {
    const int64_t sublog_tracks = sublog_sectors / track_sectors;
    if (log_stripes < 1 || track_sectors < 1 || tracks < 0 || tracks > sublog_tracks * log_stripes)
        throw std::invalid_argument("fill_round_robin: more tracks than the sublogs hold");
    log_fill f;
    f.sublog_sectors.assign(size_t(log_stripes), 0);
    for (int i = 0; i < log_stripes; ++i)
        f.sublog_sectors[size_t(i)] = (tracks / log_stripes + (i < tracks % log_stripes ? 1 : 0)) * track_sectors;
    f.next_sublog = int(tracks % log_stripes);
    return f;
}

std::vector<log_fill> steady_state_fills(int regions, int log_stripes, int64_t track_sectors, int64_t sublog_sectors,
                                         uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);  // its own stream, not the workload's
    const int64_t log_tracks = (sublog_sectors / track_sectors) * log_stripes;
    std::uniform_int_distribution<int64_t> level(0, log_tracks > 0 ? log_tracks - 1 : 0);
    std::vector<log_fill> out;
    out.reserve(size_t(regions));
    for (int r = 0; r < regions; ++r)
        out.push_back(fill_round_robin(level(rng), log_stripes, track_sectors, sublog_sectors));
    return out;
}

}  // namespace raidtlm::controller
