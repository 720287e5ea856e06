// Per-stripe mutual exclusion for firmware that updates parity: the holder of a stripe's lock
// is the only one reading or writing its rows; others queue and are handed the lock in order.
#pragma once

#include <cstdint>
#include <deque>
#include <map>

#include <systemc>

namespace raidtlm::controller {

class stripe_locks {
public:
    // Blocks the calling SC_THREAD until the stripe's lock is handed to it.
    void lock(int64_t stripe) {
        lock_state &l = m_locks[stripe];
        if (!l.held) {
            l.held = true;
            return;
        }
        sc_core::sc_event go;
        l.waiting.push_back(&go);
        sc_core::wait(go);  // the lock is handed over
    }
    void unlock(int64_t stripe) {
        auto it = m_locks.find(stripe);
        if (it->second.waiting.empty()) {
            m_locks.erase(it);
            return;
        }
        sc_core::sc_event *next = it->second.waiting.front();
        it->second.waiting.pop_front();
        next->notify(sc_core::SC_ZERO_TIME);
    }
    // After a power loss: nobody holds or waits for a lock.
    void clear() { m_locks.clear(); }

private:
    struct lock_state {
        bool held = false;
        std::deque<sc_core::sc_event *> waiting;
    };
    std::map<int64_t, lock_state> m_locks;
};

}  // namespace raidtlm::controller
