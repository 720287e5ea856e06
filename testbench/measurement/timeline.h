// What happened over simulated time, for plots: per resource utilisation, completions and mean
// response time per interval. Plain C++, no SystemC.
//
// Samples are taken at completions (no timer events): the first completion at or after the next
// boundary closes an interval at that completion's time, so intervals are at least
// interval_ms() long and their true bounds are kept. Memory is flat: when max_intervals are
// kept, neighbours are merged pairwise and the interval doubles, so a run of any length ends with
// between max_intervals / 2 and max_intervals intervals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace raidtlm::testbench {

class timeline {
public:
    // resource names: e.g. "disk0"; busy time is sampled as a cumulative ms figure per resource.
    explicit timeline(std::vector<std::string> resources, double first_interval_ms = 10, int max_intervals = 200);

    // Called at every completion; true when a sample is due (then call sample()).
    bool due(double now_ms) const { return now_ms >= m_next_ms; }
    // busy_ms[i]: resource i's busy time from 0 to now_ms. completions and response_sum_ms are
    // cumulative counts of all completed requests (warm-up included).
    void sample(double now_ms, const std::vector<double> &busy_ms, uint64_t completions, double response_sum_ms);
    void note_warmup_end(double ms) { m_warmup_end_ms = ms; }

    size_t intervals() const { return m_end_ms.size(); }
    double interval_ms() const { return m_interval_ms; }
    // {interval_ms, warmup_end_ms, t_end_ms[], iops[], mean_response_ms[], utilisation{name: []}}:
    // interval i spans (t_end_ms[i-1], t_end_ms[i]], the first from 0.
    nlohmann::json to_json() const;

private:
    struct totals {
        std::vector<double> busy;
        uint64_t completions = 0;
        double response_sum = 0;
    };

    std::vector<std::string> m_names;
    double m_interval_ms;
    int m_max;
    double m_next_ms;
    double m_warmup_end_ms = 0;
    totals m_last;                          // cumulative at the last sample
    std::vector<double> m_end_ms;           // per interval
    std::vector<totals> m_delta;            // per interval
};

}  // namespace raidtlm::testbench
