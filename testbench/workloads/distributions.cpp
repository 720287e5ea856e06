#include "testbench/workloads/distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace raidtlm::testbench {

namespace {

// Mean of Zipf(s) over 1..max.
double zipf_mean(double s, uint32_t max) {
    double num = 0, den = 0;
    for (uint32_t k = 1; k <= max; ++k) {
        const double p = std::pow(static_cast<double>(k), -s);
        num += k * p;
        den += p;
    }
    return num / den;
}

}  // namespace

double size_sampler::zipf_exponent_for_mean(double mean, uint32_t max) {
    if (!(mean > 1 && mean < (max + 1) / 2.0))
        throw std::invalid_argument("zipf_exponent_for_mean: the mean must lie in (1, (max + 1) / 2)");
    // The mean falls from (max + 1) / 2 at s = 0 towards 1 as s grows: bisect.
    double lo = 0, hi = 1;
    while (zipf_mean(hi, max) > mean) hi *= 2;
    for (int i = 0; i < 100 && hi - lo > 1e-12; ++i) {
        const double mid = 0.5 * (lo + hi);
        (zipf_mean(mid, max) > mean ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

size_sampler::size_sampler(const workload_config &c) : m_kind(c.size_distribution) {
    switch (m_kind) {
    case size_dist::constant:
        m_constant = m_min = m_max = c.request_sectors;
        m_mean = c.request_sectors;
        break;
    case size_dist::uniform:
        if (c.size_min_sectors == 0 || c.size_min_sectors > c.size_max_sectors)
            throw std::invalid_argument("size_sampler: uniform needs 1 <= min <= max");
        m_min = c.size_min_sectors;
        m_max = c.size_max_sectors;
        m_mean = 0.5 * (m_min + m_max);
        break;
    case size_dist::table: {
        double total = 0;
        for (const auto &e : c.size_table) total += e.weight;
        if (c.size_table.empty() || !(total > 0)) throw std::invalid_argument("size_sampler: empty table");
        double cum = 0;
        m_min = UINT32_MAX;
        m_max = 0;
        for (const auto &e : c.size_table) {
            if (e.weight <= 0) continue;
            cum += e.weight / total;
            m_cdf.push_back(cum);
            m_sizes.push_back(e.sectors);
            m_directions.push_back(e.direction);
            m_mean += e.weight / total * e.sectors;
            m_min = std::min(m_min, e.sectors);
            m_max = std::max(m_max, e.sectors);
        }
        m_cdf.back() = 1.0;
        break;
    }
    case size_dist::zipf: {
        m_min = 1;
        m_max = c.size_max_sectors;
        m_zipf_s = zipf_exponent_for_mean(c.size_mean_sectors, m_max);
        double total = 0;
        for (uint32_t k = 1; k <= m_max; ++k) total += std::pow(static_cast<double>(k), -m_zipf_s);
        double cum = 0;
        for (uint32_t k = 1; k <= m_max; ++k) {
            const double p = std::pow(static_cast<double>(k), -m_zipf_s) / total;
            cum += p;
            m_mean += k * p;
            m_cdf.push_back(cum);
            m_sizes.push_back(k);
        }
        m_cdf.back() = 1.0;
        break;
    }
    case size_dist::exponential: {
        m_unit = c.alignment_sectors ? c.alignment_sectors : 1;
        m_exp_mean = c.size_mean_sectors;
        m_max = c.size_max_sectors / m_unit * m_unit;
        if (m_max < m_unit) throw std::invalid_argument("size_sampler: size_max_sectors is below one alignment unit");
        m_min = m_unit;
        // k units has probability e^-(k-1)u - e^-ku (u = unit / mean), renormalised to 1..max/unit.
        const double u = m_unit / m_exp_mean;
        const uint32_t units = m_max / m_unit;
        const double kept = 1.0 - std::exp(-u * units);
        for (uint32_t k = 1; k <= units; ++k)
            m_mean += double(k) * m_unit * (std::exp(-u * (k - 1)) - std::exp(-u * k)) / kept;
        break;
    }
    }
}

uint32_t size_sampler::pick(double u) const {
    const size_t i = static_cast<size_t>(std::upper_bound(m_cdf.begin(), m_cdf.end(), u) - m_cdf.begin());
    return static_cast<uint32_t>(std::min(i, m_cdf.size() - 1));
}

uint32_t size_sampler::draw(random_source &rng, int &direction) const {
    direction = -1;
    switch (m_kind) {
    case size_dist::constant: return m_constant;
    case size_dist::uniform: return m_min + static_cast<uint32_t>(rng.below(uint64_t(m_max) - m_min + 1));
    case size_dist::table: {
        const uint32_t i = pick(rng.uniform());
        direction = m_directions[i];
        return m_sizes[i];
    }
    case size_dist::zipf: return m_sizes[pick(rng.uniform())];
    case size_dist::exponential:
        for (;;) {
            const double x = -m_exp_mean * std::log(1.0 - rng.uniform());
            const double units = std::ceil(x / m_unit);
            if (units >= 1 && units * m_unit <= m_max) return static_cast<uint32_t>(units) * m_unit;
        }
    }
    return m_constant;
}

think_time_source::think_time_source(const workload_config &c, uint64_t seed)
    : m_kind(c.think_time_distribution),
      m_mean(c.think_time_ms),
      m_cv(c.think_time_cv),
      m_target_iops(c.target_iops),
      m_clients(c.outstanding),
      m_rng(seed) {}

double think_time_source::mean_ms() const {
    if (!tuned()) return m_mean;
    return std::max(0.0, 1000.0 * m_clients / m_target_iops - m_response_estimate);
}

void think_time_source::on_response(double response_ms) {
    if (!tuned()) return;
    m_responses = std::min(m_responses + 1, window);
    m_response_estimate += (response_ms - m_response_estimate) / m_responses;
}

double think_time_source::next_ms() {
    const double mean = mean_ms();
    ++m_draws;
    if (tuned() && mean == 0) ++m_zero_mean_draws;
    double z = mean;
    if (mean > 0) {
        switch (m_kind) {
        case think_dist::constant: break;
        case think_dist::exponential: z = m_rng.exponential(mean); break;
        case think_dist::gaussian: {
            const double sd = m_cv * mean;
            z = -1;
            for (int i = 0; i < 1000 && z < 0; ++i) z = mean + sd * m_rng.normal();
            if (z < 0) z = 0;
            break;
        }
        }
    }
    m_drawn_sum += z;
    return z;
}

arrival_schedule::arrival_schedule(const workload_config &c, uint64_t seed)
    : m_mean_ms(c.mean_interarrival_ms), m_steps(c.rate_schedule), m_rng(seed) {}

double arrival_schedule::rate_at(double t_ms) const {
    if (m_steps.empty()) return 1000.0 / m_mean_ms;
    double r = m_steps.front().iops;
    for (const auto &s : m_steps)
        if (s.start_s * 1000.0 <= t_ms) r = s.iops;
    return r;
}

double arrival_schedule::next_delay_ms(double now_ms) {
    if (m_steps.empty()) return m_rng.exponential(m_mean_ms);
    double work = m_rng.exponential(1.0);  // unit-rate exponential, spent at the current rates
    double t = now_ms;
    size_t i = 0;
    while (i + 1 < m_steps.size() && m_steps[i + 1].start_s * 1000.0 <= t) ++i;
    for (;; ++i) {
        const double rate_per_ms = m_steps[i].iops / 1000.0;
        const double end = i + 1 < m_steps.size() ? m_steps[i + 1].start_s * 1000.0
                                                  : std::numeric_limits<double>::infinity();
        if (rate_per_ms > 0) {
            const double at = t + work / rate_per_ms;
            if (at <= end) return at - now_ms;
            work -= (end - t) * rate_per_ms;
        } else if (std::isinf(end)) {
            return std::numeric_limits<double>::infinity();
        }
        t = end;
    }
}

}  // namespace raidtlm::testbench
