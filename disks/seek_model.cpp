#include "disks/seek_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace raidtlm::disks {

seek_model::seek_model(const seek_spec &spec) : m_spec(spec) {
    if (spec.type == seek_type::curve) {
        // diskmodel manual 1.5.1 (Lee): a*sqrt(x-1) + b*(x-1) + c over numCyl cylinders.
        const double n = std::max(1, spec.cylinders);
        m_lee_a = (-10 * spec.single_cylinder_ms + 15 * spec.average_ms - 5 * spec.full_strobe_ms) / (3 * std::sqrt(n));
        m_lee_b = (7 * spec.single_cylinder_ms - 15 * spec.average_ms + 8 * spec.full_strobe_ms) / (3 * n);
        m_lee_c = spec.single_cylinder_ms;
    }
    if (spec.type == seek_type::extracted && spec.curve.empty())
        throw std::invalid_argument("extracted seek curve has no points");
}

double seek_model::seek_ms(int d) const {
    if (d <= 0) return 0.0;
    switch (m_spec.type) {
    case seek_type::constant: return m_spec.constant_ms;
    case seek_type::linear: {
        // Through (1, single), (cyl/3, average), (cyl-1, full strobe): the average random seek
        // distance is a third of the stroke.
        const double third = std::max(2.0, m_spec.cylinders / 3.0);
        const double full = std::max(third + 1, m_spec.cylinders - 1.0);
        if (d <= third)
            return m_spec.single_cylinder_ms + (d - 1) * (m_spec.average_ms - m_spec.single_cylinder_ms) / (third - 1);
        return m_spec.average_ms + (d - third) * (m_spec.full_strobe_ms - m_spec.average_ms) / (full - third);
    }
    case seek_type::curve: return m_lee_a * std::sqrt(d - 1.0) + m_lee_b * (d - 1.0) + m_lee_c;
    case seek_type::hpl: return hpl_ms(d);
    case seek_type::hplplus10: return d <= 10 ? m_spec.first_ten_ms[d - 1] : hpl_ms(d);
    case seek_type::extracted: return extracted_ms(d);
    case seek_type::sqrt_linear: return m_spec.a_ms + m_spec.b_ms * std::sqrt(double(d)) + m_spec.c_ms * d;
    case seek_type::two_piece:
        return d < m_spec.boundary_cyl ? m_spec.short_a_ms + m_spec.short_b_ms * std::sqrt(double(d))
                                       : m_spec.long_a_ms + m_spec.long_b_ms * d;
    }
    return 0.0;
}

double seek_model::hpl_ms(int d) const {
    // Ruemmler & Wilkes HPL: V6 for one cylinder (unless -1); V2 + V3*sqrt(d) below V1
    // cylinders, V4 + V5*d from V1 on.
    const auto &v = m_spec.hpl;
    if (d == 1 && v[5] >= 0) return v[5];
    if (d < v[0]) return v[1] + v[2] * std::sqrt(double(d));
    return v[3] + v[4] * d;
}

double seek_model::extracted_ms(int d) const {
    const auto &c = m_spec.curve;
    if (d <= c.front().first) {
        // Below the first measured distance: scale from zero, as a line through the origin.
        return c.front().second * d / c.front().first;
    }
    auto hi = std::lower_bound(c.begin(), c.end(), d, [](const auto &p, int x) { return p.first < x; });
    if (hi == c.end()) hi = c.end() - 1;  // beyond the last point: extend the last segment
    if (hi->first == d) return hi->second;
    auto lo = hi - 1;
    return lo->second + (hi->second - lo->second) * double(d - lo->first) / double(hi->first - lo->first);
}

}  // namespace raidtlm::disks
