// The sustainable rate: the largest open-loop arrival rate whose mean response time stays at or
// below a threshold (the SR-Array paper's "rate at <= 15 ms"). Plain C++, no SystemC: the caller
// supplies the evaluation (a simulation at a given rate), so the search is tested on functions.
//
// For a single queue 1/R falls nearly linearly with the rate (exactly for M/M/1: 1/R = (1 - rho)/S),
// so the search works on g(rate) = 1/R(rate) - 1/threshold:
//   1. a light-load probe at probe_iops gives the service time S; if S is above the threshold
//      already, the sustainable rate is 0;
//   2. the first guess is where M/M/1 with capacity_guess(S) would reach the threshold;
//   3. then secant steps on g through the last two points (at most doubling or halving the
//      rate), until the threshold is bracketed: a point below and one above it (an overloaded run
//      counts as above: g = -1/threshold there, the bracket is then bisected instead);
//   4. regula falsi inside the bracket (Illinois variant, so neither end sticks) until the bracket
//      is narrower than `precision` of its lower end or a step moves the rate by less than half of
//      that;
//   5. the answer is the zero of g interpolated between the bracket's ends.
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
    double precision = 0.01;  // relative width of the final bracket, or of the last step
    double probe_iops = 1;    // light load
    int max_evaluations = 30;
};

struct rate_search_result {
    double rate_iops = 0;
    bool found = false;      // a bracket was found and narrowed
    double service_ms = 0;   // the light-load probe's mean response
    std::vector<rate_point> points;  // every evaluation, in order
};

// capacity_guess(service_ms) -> the rate the system could serve at most (e.g. drives / S).
rate_search_result find_sustainable_rate(const rate_search_config &config,
                                         const std::function<rate_point(double)> &evaluate,
                                         const std::function<double(double)> &capacity_guess);

}  // namespace raidtlm::testbench
