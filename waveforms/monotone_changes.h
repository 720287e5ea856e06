// Changes due at known times in integer time units, handed out in time order and, within one
// instant, in the order they were scheduled (as timed_changes.h), for a queue whose times never
// go back: every change is scheduled at or after the last instant handed out. The VCD writer's
// queue is such a one (a model schedules from "now" on, the file writes what simulated time has
// passed), and it takes a million changes on a teaching scenario, so it is a radix heap instead
// of a comparison heap: a push appends to one of 65 buckets chosen by the highest bit in which
// its time differs from the last instant handed out; when the instant's bucket runs dry, the
// first non-empty bucket is spread over the lower ones around its earliest time. Each change
// moves down at most 64 times in all, and a push is one append (the 4-ary heap's sifting was a
// quarter of a traced run). Spreading keeps each bucket in the order its changes arrived, and
// changes of one time always share a bucket, so an instant comes out in schedule order.
// Plain C++.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace raidtlm::waveforms {

template <typename Change>
class monotone_changes {
public:
    // `at` must not be earlier than the last instant handed out (std::logic_error otherwise).
    void push(uint64_t at, const Change &change) {
        if (at < m_last) throw std::logic_error("monotone_changes: a change scheduled before the last instant handed out");
        add(at, change);
        ++m_size;
        ++m_next_seq;
    }
    bool empty() const { return m_size == 0; }
    size_t size() const { return m_size; }
    // Time of the first change due (the queue must not be empty). Only a look: the last instant
    // handed out stays where it is, so changes may still be scheduled before the first one due.
    uint64_t first_due() const {
        const size_t b = first_bucket();
        return b == 0 ? m_last : m_earliest[b];
    }
    // Calls apply(change) for every change due at the first instant (the queue must not be
    // empty), in schedule order, including changes `apply` schedules for that instant; returns it.
    template <typename Apply>
    uint64_t apply_first_instant(Apply &&apply) {
        settle();
        std::vector<entry> &now = m_buckets[0];
        for (size_t i = 0; i < now.size(); ++i) {
            --m_size;
            apply(now[i].change);  // may push to `now`: indices stay valid
        }
        now.clear();
        m_occupied &= ~uint64_t(1);
        return m_last;
    }
    // Calls apply(change) for every change due at or before `now`, in order.
    template <typename Apply>
    void apply_due(uint64_t now, Apply &&apply) {
        while (!empty() && first_due() <= now) apply_first_instant(apply);
    }
    // The number the next change would get in a timed_changes (kept for the same bookkeeping).
    uint64_t next_seq() const { return m_next_seq; }
    void skip_seq() { ++m_next_seq; }

private:
    struct entry {
        uint64_t at;
        Change change;
    };
    // Bucket b > 0 holds the times whose highest bit differing from m_last is bit b - 1; bucket
    // 0 the time m_last itself. Buckets 0..63 are marked in m_occupied; bucket 64 (bit 63
    // differs: 107 days of picoseconds apart) is the one left when none is.
    static size_t bucket_of(uint64_t at, uint64_t last) { return at == last ? 0 : size_t(64 - __builtin_clzll(at ^ last)); }
    void add(uint64_t at, const Change &change) {
        const size_t b = bucket_of(at, m_last);
        std::vector<entry> &bucket = m_buckets[b];
        if (bucket.empty() || at < m_earliest[b]) m_earliest[b] = at;
        bucket.push_back({at, change});
        if (b < 64) m_occupied |= uint64_t(1) << b;
    }
    size_t first_bucket() const { return m_occupied ? size_t(__builtin_ctzll(m_occupied)) : 64; }
    // Makes bucket 0 hold the earliest instant's changes.
    void settle() {
        if (!m_buckets[0].empty()) return;
        const size_t b = first_bucket();
        std::vector<entry> spread;
        spread.swap(m_buckets[b]);
        if (b < 64) m_occupied &= ~(uint64_t(1) << b);
        m_last = m_earliest[b];
        for (entry &e : spread) add(e.at, e.change);  // every one into a bucket below b
        spread.clear();
        spread.swap(m_buckets[b]);  // the bucket keeps its allocation
    }

    std::array<std::vector<entry>, 65> m_buckets;
    std::array<uint64_t, 65> m_earliest{};  // each non-empty bucket's earliest time
    uint64_t m_occupied = 0;  // bit b: bucket b (b < 64) is not empty
    uint64_t m_last = 0;      // the last (or current) instant handed out
    size_t m_size = 0;
    uint64_t m_next_seq = 0;
};

}  // namespace raidtlm::waveforms
