#include "rtl_models/memory/dram_arbiter.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace raidtlm::rtl_models {

const char *to_string(dram_arbitration a) {
    return a == dram_arbitration::round_robin ? "round_robin" : "fixed_priority";
}

namespace {

// Max-min fair split of `bandwidth` over the demands at `idx`; returns what is left over.
double water_fill(double bandwidth, const std::vector<bandwidth_demand> &d, std::vector<size_t> &idx,
                  std::vector<double> &rates) {
    auto cap = [&](size_t i) {
        return d[i].cap_bytes_per_s > 0 ? d[i].cap_bytes_per_s : std::numeric_limits<double>::infinity();
    };
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return cap(a) < cap(b); });
    double left = bandwidth;
    for (size_t k = 0; k < idx.size(); ++k) {
        const double share = left / double(idx.size() - k);
        if (cap(idx[k]) <= share) {
            rates[idx[k]] = cap(idx[k]);
            left -= rates[idx[k]];
        } else {
            for (size_t j = k; j < idx.size(); ++j) rates[idx[j]] = share;
            return 0.0;
        }
    }
    return std::max(0.0, left);
}

}  // namespace

void share_bandwidth(double bandwidth, dram_arbitration arbitration, const std::vector<bandwidth_demand> &demands,
                     std::vector<double> &rates) {
    rates.assign(demands.size(), 0.0);
    std::vector<size_t> idx(demands.size());
    std::iota(idx.begin(), idx.end(), 0);
    if (arbitration == dram_arbitration::round_robin) {
        water_fill(bandwidth, demands, idx, rates);
        return;
    }
    std::stable_sort(idx.begin(), idx.end(),
                     [&](size_t a, size_t b) { return demands[a].priority > demands[b].priority; });
    double left = bandwidth;
    for (size_t k = 0; k < idx.size();) {
        size_t e = k;
        while (e < idx.size() && demands[idx[e]].priority == demands[idx[k]].priority) ++e;
        std::vector<size_t> level(idx.begin() + long(k), idx.begin() + long(e));
        left = water_fill(left, demands, level, rates);
        k = e;
    }
}

}  // namespace raidtlm::rtl_models
