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
#include <vector>

namespace raidtlm::waveforms {

template <typename Time, typename Change>
class timed_changes {
public:
    void push(const Time &at, const Change &change) {
        m_heap.push_back({at, m_next_seq++, change});
        sift_up(m_heap.size() - 1);
    }
    bool empty() const { return m_heap.empty(); }
    size_t size() const { return m_heap.size(); }
    // Time of the first change due (the queue must not be empty).
    const Time &first_due() const { return m_heap.front().at; }
    // Calls apply(change) for every change due at or before `now`, in time order, then schedule
    // order within one instant.
    template <typename Apply>
    void apply_due(const Time &now, Apply &&apply) {
        while (!m_heap.empty() && !(now < m_heap.front().at)) apply(pop_first());
    }

    // Calls apply(change) for every change due at the first instant (the queue must not be
    // empty), in schedule order; returns that instant.
    template <typename Apply>
    Time apply_first_instant(Apply &&apply) {
        const Time at = first_due();
        while (!m_heap.empty() && !(at < m_heap.front().at)) apply(pop_first());
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
        bool before(const entry &o) const { return at < o.at || (!(o.at < at) && seq < o.seq); }
    };
    // A 4-ary min-heap by (at, seq): half the levels of a binary heap, and a node's four children
    // share a cache line or two. Waves push and pop millions of changes (a binary heap's pops were
    // 15% of a traced run, issue 12).
    static constexpr size_t arity = 4;
    void sift_up(size_t i) {
        entry moving = std::move(m_heap[i]);
        while (i > 0) {
            const size_t parent = (i - 1) / arity;
            if (!moving.before(m_heap[parent])) break;
            m_heap[i] = std::move(m_heap[parent]);
            i = parent;
        }
        m_heap[i] = std::move(moving);
    }
    Change pop_first() {
        Change first = std::move(m_heap.front().change);
        entry last = std::move(m_heap.back());
        m_heap.pop_back();
        const size_t n = m_heap.size();
        if (n == 0) return first;
        size_t i = 0;
        for (;;) {
            const size_t child = i * arity + 1;
            if (child >= n) break;
            size_t best = child;
            const size_t end = std::min(child + arity, n);
            for (size_t c = child + 1; c < end; ++c)
                if (m_heap[c].before(m_heap[best])) best = c;
            if (!m_heap[best].before(last)) break;
            m_heap[i] = std::move(m_heap[best]);
            i = best;
        }
        m_heap[i] = std::move(last);
        return first;
    }
    std::vector<entry> m_heap;
    uint64_t m_next_seq = 0;
};

}  // namespace raidtlm::waveforms
