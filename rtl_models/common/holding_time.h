// How long each holder has held a resource within the measured window, exact at any instant.
// A resource's model often knows when a holding ends before it ends (a bus round fixes the end of
// arbitration and selection when it starts, a release fixes the end of the status and bus free
// delay) or does not know it yet (a connection lasts until the target lets go). Counting a holding
// when it is booked, or when it ends, makes the figure at the window's edges disagree with what
// the waves show; this counts each holding only for the part of it that lies within
// [window start, now]. Plain C++; times in seconds.
#pragma once

#include <algorithm>
#include <vector>

namespace raidtlm::rtl_models {

class holding_time {
public:
    explicit holding_time(int holders) : m_held_s(size_t(holders), 0.0), m_open_since_s(size_t(holders), -1.0) {}

    int holders() const { return int(m_held_s.size()); }
    // `holder` holds the resource from from_s to to_s (either may lie ahead of the present,
    // now_s).
    void book(int holder, double from_s, double to_s, double now_s) {
        if (to_s <= from_s) return;
        // Holdings over by now can no longer reach beyond a later query's present or a restart.
        m_booked.erase(std::remove_if(m_booked.begin(), m_booked.end(),
                                      [&](const interval &i) { return i.to_s <= now_s; }),
                       m_booked.end());
        m_booked.push_back({holder, from_s, to_s});
        m_held_s[size_t(holder)] += std::max(0.0, to_s - std::max(from_s, m_since_s));
    }
    // `holder` holds it from from_s until close().
    void open(int holder, double from_s) { m_open_since_s[size_t(holder)] = from_s; }
    void close(int holder, double at_s, double now_s) {
        double &since = m_open_since_s[size_t(holder)];
        if (since < 0) return;
        const double from_s = since;
        since = -1;
        book(holder, from_s, at_s, now_s);
    }
    bool is_open(int holder) const { return m_open_since_s[size_t(holder)] >= 0; }
    // Counts from at_s afresh: the parts of holdings after at_s belong to the new window.
    void restart(double at_s) {
        m_since_s = at_s;
        std::fill(m_held_s.begin(), m_held_s.end(), 0.0);
        for (const interval &i : m_booked)
            m_held_s[size_t(i.holder)] += std::max(0.0, i.to_s - std::max(i.from_s, at_s));
    }
    double since_s() const { return m_since_s; }
    // Time `holder` held the resource in [since, now_s]; now_s is the present (no earlier than
    // the last booking's).
    double held_s(int holder, double now_s) const {
        double t = m_held_s[size_t(holder)];
        for (const interval &i : m_booked)
            if (i.holder == holder) t -= std::max(0.0, i.to_s - std::max(i.from_s, std::max(now_s, m_since_s)));
        const double open = m_open_since_s[size_t(holder)];
        if (open >= 0) t += std::max(0.0, now_s - std::max(open, m_since_s));
        return t;
    }
    // Time anyone held it (holdings never overlap).
    double total_s(double now_s) const {
        double t = 0;
        for (int h = 0; h < holders(); ++h) t += held_s(h, now_s);
        return t;
    }

private:
    struct interval {
        int holder;
        double from_s, to_s;
    };
    std::vector<double> m_held_s;        // booked time within the window, ahead of the present included
    std::vector<double> m_open_since_s;  // < 0: not open
    std::vector<interval> m_booked;      // recent bookings that may reach beyond the present
    double m_since_s = 0;
};

}  // namespace raidtlm::rtl_models
