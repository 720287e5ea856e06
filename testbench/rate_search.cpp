#include "testbench/rate_search.h"

#include <algorithm>
#include <cmath>

namespace raidtlm::testbench {

rate_search_result find_sustainable_rate(const rate_search_config &c,
                                         const std::function<rate_point(double)> &evaluate,
                                         const std::function<double(double)> &capacity_guess) {
    rate_search_result res;
    auto eval = [&](double rate) {
        res.points.push_back(evaluate(rate));
        return res.points.back();
    };
    const rate_point probe = eval(c.probe_iops);
    res.service_ms = probe.mean_ms;
    if (probe.above(c.threshold_ms)) return res;  // not even light load meets the threshold

    rate_point lo = probe, hi;
    bool have_hi = false;
    double r = std::max(capacity_guess(probe.mean_ms), c.probe_iops * c.step);
    while (static_cast<int>(res.points.size()) < c.max_evaluations) {
        const rate_point p = eval(r);
        if (p.above(c.threshold_ms)) {
            hi = p;
            have_hi = true;
            if (lo.rate_iops > c.probe_iops || r / c.step <= lo.rate_iops) break;
            r = std::max(r / c.step, lo.rate_iops * 1.0001);
        } else {
            lo = p;
            if (have_hi) break;
            r *= c.step;
        }
    }
    if (!have_hi) {
        res.rate_iops = lo.rate_iops;
        return res;
    }
    while (hi.rate_iops - lo.rate_iops > c.precision * lo.rate_iops &&
           static_cast<int>(res.points.size()) < c.max_evaluations) {
        const rate_point p = eval(0.5 * (lo.rate_iops + hi.rate_iops));
        (p.above(c.threshold_ms) ? hi : lo) = p;
    }
    res.found = hi.rate_iops - lo.rate_iops <= c.precision * lo.rate_iops;
    if (!hi.overloaded && hi.mean_ms > lo.mean_ms) {
        const double f = (c.threshold_ms - lo.mean_ms) / (hi.mean_ms - lo.mean_ms);
        res.rate_iops = lo.rate_iops + std::clamp(f, 0.0, 1.0) * (hi.rate_iops - lo.rate_iops);
    } else {
        res.rate_iops = 0.5 * (lo.rate_iops + hi.rate_iops);
    }
    return res;
}

}  // namespace raidtlm::testbench
