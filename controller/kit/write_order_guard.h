// Keeps writes to the same sectors of one disk in the order the firmware decided them. With
// delayed writes a copy can receive, for the same sectors, an older propagation and a newer
// first write (or a newer propagation); sent together, the drive's own queue could reorder them
// and the older data would land last. A write enters the guard when its order is decided (its
// tag granted and, for a first write, the delayed-write table updated) and may go to the drive
// only when no earlier-entered write still in the guard overlaps it on the same disk.
//
// Why not delayed_write_table::in_flight_overlaps: that also counts propagations handed to the
// foreground queue but still waiting for a tag; a write holding the disk's only tag and waiting
// for them would never let them in. Entries here always hold their tag already, so the earliest
// overlapping one can always proceed. Pure C++; ranges are logical sectors.
#pragma once

#include <cstdint>
#include <cstddef>
#include <deque>

namespace raidtlm::controller {

class write_order_guard {
public:
    // Enters a write of logical [lbn, lbn + sectors) to `disk`; returns its ticket.
    uint64_t enter(int disk, int64_t lbn, int64_t sectors);
    // An earlier-entered write still in the guard overlaps this one on its disk.
    bool must_wait(uint64_t ticket) const;
    // Some write in the guard overlaps [lbn, lbn + sectors) on `disk` (what must_wait would say of
    // a write entered now, without entering it).
    bool overlaps_any(int disk, int64_t lbn, int64_t sectors) const;
    void leave(uint64_t ticket);
    size_t size() const { return m_live; }
    void clear() {
        m_entries.clear();
        m_live = 0;
    }

private:
    struct entry {
        uint64_t ticket;
        int disk;
        int64_t lbn, end;
        bool live;
    };
    // In ticket order (tickets only grow), so a ticket is found by binary search. Entries that
    // left are dropped from the front at once and from the middle when they outnumber the live
    // ones: a deque, so a request entering and leaving allocates nothing in the steady state.
    std::deque<entry> m_entries;
    size_t m_live = 0;
    uint64_t m_next = 1;
};

}  // namespace raidtlm::controller
