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
#include <map>

namespace raidtlm::controller {

class write_order_guard {
public:
    // Enters a write of logical [lbn, lbn + sectors) to `disk`; returns its ticket.
    uint64_t enter(int disk, int64_t lbn, int64_t sectors);
    // An earlier-entered write still in the guard overlaps this one on its disk.
    bool must_wait(uint64_t ticket) const;
    void leave(uint64_t ticket);
    size_t size() const { return m_entries.size(); }
    void clear() { m_entries.clear(); }

private:
    struct entry {
        int disk;
        int64_t lbn, end;
    };
    std::map<uint64_t, entry> m_entries;  // by ticket: entry order
    uint64_t m_next = 1;
};

}  // namespace raidtlm::controller
