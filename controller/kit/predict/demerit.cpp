#include "controller/kit/predict/demerit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace raidtlm::controller {

double demerit(std::vector<double> a, std::vector<double> b) {
    if (a.empty() || b.empty()) throw std::invalid_argument("demerit: empty sample");
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const uint64_t na = a.size(), nb = b.size();
    double sum = 0;
    if (na == nb) {
        for (size_t i = 0; i < na; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
        return std::sqrt(sum / static_cast<double>(na));
    }
    // Walk the merged grid of steps i/na and j/nb with exact integer arithmetic: p = k / (na*nb).
    // On (prev, next] Qa is a[i] and Qb is b[j], where i/na and j/nb are the next steps above prev.
    size_t i = 0, j = 0;
    uint64_t prev = 0;  // in units of 1/(na*nb)
    while (i < na && j < nb) {
        const uint64_t step_a = (i + 1) * nb, step_b = (j + 1) * na;
        const uint64_t next = std::min(step_a, step_b);
        const double d = a[i] - b[j];
        sum += d * d * static_cast<double>(next - prev);
        prev = next;
        if (step_a == next) ++i;
        if (step_b == next) ++j;
    }
    return std::sqrt(sum / (static_cast<double>(na) * static_cast<double>(nb)));
}

}  // namespace raidtlm::controller
