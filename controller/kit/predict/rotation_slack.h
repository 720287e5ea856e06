// The k-sector slack of the head-position predictor and the feedback loop that sets it
// (Yu et al. 3.2): when the head is predicted to reach a sector less than k sectors before it
// passes, the request is counted as a miss (one more revolution), so schedulers prefer another
// replica or request. The loop widens the slack by one sector after every miss and narrows it by
// one after a run of ceil(4 / target_miss_rate) requests without one, so it settles where misses
// are rarer than about a quarter of the target: more than 99% of requests on target for the
// default 1%.
#pragma once

#include <cstdint>

namespace raidtlm::controller {

class rotation_slack {
public:
    struct config {
        double initial_sectors = 2;
        bool feedback = true;
        double target_miss_rate = 0.01;
        double max_sectors = 64;
    };
    explicit rotation_slack(const config &cfg);

    double sectors() const { return m_sectors; }
    // One request served: did it miss its sector (take a revolution more than predicted)?
    void record(bool missed);

private:
    config m_cfg;
    double m_sectors;
    uint64_t m_hits_in_a_row = 0;
    uint64_t m_relax_after_hits;
};

}  // namespace raidtlm::controller
