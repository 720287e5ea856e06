#include "testbench/commands/rate_search.h"

#include <algorithm>
#include <cmath>

namespace raidtlm::testbench {

namespace {

// g = 1/R - 1/T: positive below the threshold, negative above; an overloaded run has R = inf.
double g_of(const rate_point &p, double threshold_ms) {
    return (p.overloaded ? 0.0 : 1.0 / p.mean_ms) - 1.0 / threshold_ms;
}

// The zero of the line through (x0, y0) and (x1, y1).
double secant(double x0, double y0, double x1, double y1) { return x1 - y1 * (x1 - x0) / (y1 - y0); }

}  // namespace

rate_search_result find_sustainable_rate(const rate_search_config &c,
                                         const std::function<rate_point(double)> &evaluate,
                                         const std::function<double(double)> &capacity_guess) {
    const double t = c.threshold_ms;
    rate_search_result res;
    auto eval = [&](double rate) {
        res.points.push_back(evaluate(rate));
        return res.points.back();
    };
    const rate_point probe = eval(c.probe_iops);
    res.service_ms = probe.mean_ms;
    if (probe.above(t)) return res;  // not even light load meets the threshold

    // M/M/1 with the guessed capacity: R = S / (1 - rate / mu) reaches T at mu (1 - S / T).
    const double mu = capacity_guess(probe.mean_ms);
    double next = std::max(mu * (1 - probe.mean_ms / t), c.probe_iops * 1.5);

    rate_point lo = probe, hi;
    bool have_hi = false;
    rate_point prev = probe;
    int stuck = 0;  // Illinois: -1 lo retained twice, +1 hi retained twice
    double last_step = 0;
    while (static_cast<int>(res.points.size()) < c.max_evaluations) {
        const rate_point p = eval(next);
        last_step = std::fabs(next - prev.rate_iops);
        const bool above = p.above(t);
        if (above) {
            stuck = have_hi ? std::min(stuck, 0) - 1 : 0;
            hi = p;
            have_hi = true;
        } else {
            stuck = std::max(stuck, 0) + 1;
            lo = p;
        }
        if (have_hi && (hi.rate_iops - lo.rate_iops <= c.precision * lo.rate_iops ||
                        last_step <= 0.5 * c.precision * p.rate_iops)) {
            res.found = true;
            break;
        }
        if (!have_hi) {
            // Extrapolate the secant of g; not more than doubling the rate.
            const double s = secant(prev.rate_iops, g_of(prev, t), p.rate_iops, g_of(p, t));
            next = std::isfinite(s) && s > p.rate_iops ? std::min(s, 2 * p.rate_iops) : 2 * p.rate_iops;
        } else if (hi.overloaded) {
            next = 0.5 * (lo.rate_iops + hi.rate_iops);
        } else {
            // Regula falsi on the bracket; halve the g of an end kept twice in a row.
            double glo = g_of(lo, t), ghi = g_of(hi, t);
            if (stuck >= 2) ghi *= 0.5;
            if (stuck <= -2) glo *= 0.5;
            next = secant(lo.rate_iops, glo, hi.rate_iops, ghi);
            const double w = hi.rate_iops - lo.rate_iops;
            next = std::clamp(next, lo.rate_iops + 0.05 * w, hi.rate_iops - 0.05 * w);
        }
        prev = p;
    }
    if (!have_hi) {
        res.rate_iops = lo.rate_iops;
        return res;
    }
    if (hi.overloaded)
        res.rate_iops = 0.5 * (lo.rate_iops + hi.rate_iops);
    else
        res.rate_iops = std::clamp(secant(lo.rate_iops, g_of(lo, t), hi.rate_iops, g_of(hi, t)), lo.rate_iops,
                                   hi.rate_iops);
    return res;
}

}  // namespace raidtlm::testbench
