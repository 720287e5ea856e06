// Utilisation and waiting of a shared resource, counted as its state changes. Plain C++; times
// in seconds of simulated time.
#pragma once

#include <algorithm>
#include <cstdint>

namespace raidtlm::rtl_models {

// How long requesters waited for a resource: count, mean and maximum.
struct wait_stats {
    uint64_t count = 0;
    double sum_s = 0;
    double max_s = 0;

    void add(double wait_s) {
        ++count;
        sum_s += wait_s;
        max_s = std::max(max_s, wait_s);
    }
    double mean_s() const { return count ? sum_s / double(count) : 0.0; }
};

// A level that changes over time (servers busy, bytes held, requesters waiting): integrates
// level x time, keeps the peak. Changes must come in time order.
class level_meter {
public:
    void set(double t_s, double level) {
        m_area += m_level * (t_s - m_t);
        m_t = t_s;
        m_level = level;
        m_peak = std::max(m_peak, level);
    }
    void add(double t_s, double delta) { set(t_s, m_level + delta); }
    double level() const { return m_level; }
    double peak() const { return m_peak; }
    // Integral of the level from the last restart up to t_s.
    double area(double t_s) const { return m_area + m_level * (t_s - m_t); }
    double mean(double t_s) const { return t_s > m_start ? area(t_s) / (t_s - m_start) : m_level; }
    // Starts counting afresh at t_s (the level carries over).
    void restart(double t_s) {
        m_area = 0;
        m_t = m_start = t_s;
        m_peak = m_level;
    }

private:
    double m_level = 0;
    double m_area = 0;
    double m_t = 0;
    double m_start = 0;
    double m_peak = 0;
};

}  // namespace raidtlm::rtl_models
