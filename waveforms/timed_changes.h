// Changes due at known times, handed out in time order; changes due at the same instant come out
// in the order they were scheduled. Models schedule a state's changes ahead of simulated time
// (a drive computes a whole access when it starts on a command), and one instant often carries
// two changes of one signal: a read-ahead stops ("idle") exactly when the next seek starts. Only
// the order they were scheduled in says which is the state from that instant on; a heap ordered
// by time alone applied them in arbitrary order and lost most seeks from the waves (issue 12).
// Plain C++: `Time` is any ordered type (double ms, sc_time).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace raidtlm::waveforms {

template <typename Time, typename Change>
class timed_changes {
public:
    void push(const Time &at, const Change &change) {
        m_heap.push_back({at, m_next_seq++, change});
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<>());
    }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }
    // Time of the first change due (the queue must not be empty).
    const Time &first_due() const { return m_heap.front().at; }
    // Calls apply(change) for every change due at or before `now`, in time order, then schedule
    // order within one instant.
    template <typename Apply>
    void apply_due(const Time &now, Apply &&apply) {
        while (!m_heap.empty() && !(now < m_heap.front().at)) {
            std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
            const Change c = m_heap.back().change;
            m_heap.pop_back();
            apply(c);
        }
    }

    // Calls apply(change) for every change due at the first instant (the queue must not be
    // empty), in schedule order; returns that instant.
    template <typename Apply>
    Time apply_first_instant(Apply &&apply) {
        const Time at = first_due();
        while (!m_heap.empty() && !(at < m_heap.front().at)) {
            std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<>());
            const Change c = m_heap.back().change;
            m_heap.pop_back();
            apply(c);
        }
        return at;
    }
    // The number given to the next change scheduled: changes compare by (time, this number).
    uint64_t next_seq() const { return m_next_seq; }
    // Uses up a number for a change kept elsewhere (so later ones still compare after it).
    void skip_seq() { ++m_next_seq; }

private:
    struct entry {
        Time at;
        uint64_t seq;
        Change change;
        bool operator>(const entry &o) const { return o.at < at || (!(at < o.at) && seq > o.seq); }
    };
    std::vector<entry> m_heap;  // min-heap by (at, seq)
    uint64_t m_next_seq = 0;
};

}  // namespace raidtlm::waveforms
