// The sustainable rate: the largest open-loop arrival rate whose mean response time stays at or
// below a threshold (the SR-Array paper's "rate at <= 15 ms"). Plain C++, no SystemC: the caller
// supplies the evaluation (a simulation at a given rate), so the search is tested on functions.
//
// The search, for a mean response time that grows with the rate:
//   1. a light-load probe at probe_iops gives the service time S; if S is above the threshold
//      already, the sustainable rate is 0;
//   2. bracketing from capacity_guess (e.g. drives / S) by factors of `step` until one rate is
//      below the threshold and one above it (an overloaded run counts as above);
//   3. bisection of the bracket until its width is below `precision` of its lower end;
//   4. the answer interpolates the response linearly between the bracket's ends (or, when the
//      upper end was overloaded, takes the bisection point).
// Evaluations are noisy: each should stop on a confidence interval narrower than the precision
// asks for, and all evaluations of one search should use the same seed (common random numbers:
// the same arrivals stretched in time), so the response is monotone in the rate.
#pragma once

#include <functional>
#include <vector>

namespace raidtlm::testbench {

struct rate_point {
    double rate_iops = 0;      // offered
    double achieved_iops = 0;  // measured over the window
    double mean_ms = 0;
    double ci_half_width_ms = 0;
    bool overloaded = false;  // the simulation gave up: the queue grew without bound
    bool above(double threshold_ms) const { return overloaded || mean_ms > threshold_ms; }
};

struct rate_search_config {
    double threshold_ms = 15;
    double precision = 0.01;     // relative width of the final bracket
    double probe_iops = 1;       // light load
    double step = 1.5;           // bracketing factor
    int max_evaluations = 60;
};

struct rate_search_result {
    double rate_iops = 0;
    bool found = false;      // a bracket was found and narrowed
    double service_ms = 0;   // the light-load probe's mean response
    std::vector<rate_point> points;  // every evaluation, in order
};

// capacity_guess(service_ms) -> the first rate to try after the probe.
rate_search_result find_sustainable_rate(const rate_search_config &config,
                                         const std::function<rate_point(double)> &evaluate,
                                         const std::function<double(double)> &capacity_guess);

}  // namespace raidtlm::testbench
