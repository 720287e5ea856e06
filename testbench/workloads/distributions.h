// The random laws of a synthetic workload: request sizes, think times (with the think-time tuner
// of a closed loop aiming at a throughput) and open-loop arrival rates over time. Plain C++, no
// SystemC; every draw comes from a random_source, so a seed gives the same sequence everywhere.
#pragma once

#include <cstdint>
#include <vector>

#include "testbench/workloads/random.h"
#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

// Request sizes in sectors:
//   constant  request_sectors
//   uniform   an integer in [size_min_sectors, size_max_sectors], each equally likely
//   table     rows of (weight, sectors[, direction]) drawn in proportion to their weights
//   zipf      k in 1..size_max_sectors with P(k) proportional to k^-s, s chosen so that the mean
//             is size_mean_sectors (the D-SPTF thesis: "Zipf ... with a 4KB average")
//   exponential  DiskSim 4.0's synthetic sizes: x drawn exponential with mean size_mean_sectors,
//             rounded up to whole alignment_sectors units (its "Blocking factor"); a draw of 0
//             units or above size_max_sectors is drawn again (disksim_synthio.c). The mean is
//             therefore above size_mean_sectors: with mean 8 and units of 8, 1/(1-e^-1) units.
class size_sampler {
public:
    explicit size_sampler(const workload_config &config);

    // A size; `direction` is set to the table row's direction (1 read, 0 write) or -1.
    uint32_t draw(random_source &rng, int &direction) const;
    bool is_constant() const { return m_kind == size_dist::constant; }
    double mean_sectors() const { return m_mean; }
    uint32_t max_sectors() const { return m_max; }
    double zipf_exponent() const { return m_zipf_s; }

    // The exponent s > 0 for which Zipf over 1..max has the given mean (1 < mean < (max + 1) / 2).
    static double zipf_exponent_for_mean(double mean, uint32_t max);

private:
    uint32_t pick(double u) const;  // from the cumulative table

    size_dist m_kind;
    uint32_t m_constant = 8;
    uint32_t m_min = 1, m_max = 1;
    double m_mean = 0;
    double m_zipf_s = 0;
    std::vector<double> m_cdf;             // table, zipf
    std::vector<uint32_t> m_sizes;         // table, zipf
    std::vector<int> m_directions;         // table
    uint32_t m_unit = 1;                   // exponential
    double m_exp_mean = 0;                 // exponential
};

// Think times of a closed loop. The mean is think_time_ms, or, with target_iops > 0, tuned as the
// run goes by Little's law for the closed loop, X = N / (R + Z): Z = N / X_target - R, with R the
// running mean response time (a plain average over the first `window` responses, an exponential
// average of that window after). When the disks cannot reach the target, R grows until Z is
// driven to zero and the clients issue back to back (as in the parity-logging paper's runs).
//   constant     the mean
//   exponential  exponential with the mean
//   gaussian     normal(mean, think_time_cv * mean), redrawn while negative (truncated at zero)
class think_time_source {
public:
    static constexpr double window = 2000;

    think_time_source(const workload_config &config, uint64_t seed);

    double next_ms();
    void on_response(double response_ms);
    double mean_ms() const;  // the mean the next draw uses
    bool tuned() const { return m_target_iops > 0; }
    bool is_zero() const { return !tuned() && m_mean == 0; }

    // Over the draws since reset_counts(): number, mean, and fraction drawn with a tuned mean of 0.
    uint64_t draws() const { return m_draws; }
    double drawn_mean_ms() const { return m_draws ? m_drawn_sum / static_cast<double>(m_draws) : 0.0; }
    double zero_mean_fraction() const {
        return m_draws ? static_cast<double>(m_zero_mean_draws) / static_cast<double>(m_draws) : 0.0;
    }
    void reset_counts() { m_draws = m_zero_mean_draws = 0, m_drawn_sum = 0; }

private:
    think_dist m_kind;
    double m_mean;
    double m_cv;
    double m_target_iops;
    int m_clients;
    random_source m_rng;
    double m_response_estimate = 0;
    double m_responses = 0;
    uint64_t m_draws = 0, m_zero_mean_draws = 0;
    double m_drawn_sum = 0;
};

// Open-loop arrival times: Poisson with a constant mean interarrival time, or with a rate that
// changes in steps over simulated time (a non-homogeneous Poisson process, drawn exactly: the
// unit-exponential "work" left at a step boundary carries over to the next rate). After the last
// step its rate holds; a rate of 0 means no arrivals while it lasts.
class arrival_schedule {
public:
    arrival_schedule(const workload_config &config, uint64_t seed);

    // Time from now_ms to the next arrival, ms; infinity when none will come.
    double next_delay_ms(double now_ms);
    bool scheduled() const { return !m_steps.empty(); }
    // The rate in force at t_ms (per second).
    double rate_at(double t_ms) const;

private:
    double m_mean_ms;
    std::vector<rate_step> m_steps;
    random_source m_rng;
};

}  // namespace raidtlm::testbench
