#include "testbench/host_rate_estimate.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace raidtlm::testbench {

std::optional<host_rate_fit> estimate_host_sector_time(const std::vector<measured_request> &trace) {
    constexpr size_t min_samples = 20;
    constexpr double quantile = 0.10;
    std::map<int, std::vector<double>> by_size;
    for (const measured_request &r : trace)
        if (r.read && r.blocks > 0) by_size[r.blocks].push_back(r.service_ms);
    struct point { double n, y, w; };
    std::vector<point> pts;
    for (auto &[n, v] : by_size) {
        if (v.size() < min_samples) continue;
        std::sort(v.begin(), v.end());
        // Linear interpolation between order statistics.
        const double pos = quantile * double(v.size() - 1);
        const size_t lo = size_t(std::floor(pos));
        const double frac = pos - double(lo);
        const double y = lo + 1 < v.size() ? v[lo] * (1 - frac) + v[lo + 1] * frac : v[lo];
        pts.push_back({double(n), y, double(v.size())});
    }
    if (pts.size() < 3) return std::nullopt;
    double sw = 0, sn = 0, sy = 0;
    for (const point &p : pts) {
        sw += p.w;
        sn += p.w * p.n;
        sy += p.w * p.y;
    }
    const double mn = sn / sw, my = sy / sw;
    double snn = 0, sny = 0;
    for (const point &p : pts) {
        snn += p.w * (p.n - mn) * (p.n - mn);
        sny += p.w * (p.n - mn) * (p.y - my);
    }
    if (snn <= 0) return std::nullopt;
    host_rate_fit fit;
    fit.sector_ms = sny / snn;
    fit.intercept_ms = my - fit.sector_ms * mn;
    double sr = 0;
    for (const point &p : pts) {
        const double r = p.y - (fit.intercept_ms + fit.sector_ms * p.n);
        sr += p.w * r * r;
    }
    fit.residual_ms = std::sqrt(sr / sw);
    fit.sizes = int(pts.size());
    if (fit.sector_ms <= 0 || fit.residual_ms > 0.1 * my) return std::nullopt;
    return fit;
}

}  // namespace raidtlm::testbench
