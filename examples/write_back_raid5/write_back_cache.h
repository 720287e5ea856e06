// The write-back cache's bookkeeping (plain C++, no SystemC): which host write holds the newest
// data of each cached sector, how many sectors are dirty, and which write to destage next.
//
// Every acknowledged host write is an entry that owns its buffer. A newer write to the same
// sectors takes them over (the older entry's copies are superseded, and an entry with no sector
// left is freed without ever reaching the disks: write coalescing). The destager takes the oldest
// entry that still holds sectors, writes all of it (superseded sectors too: the newer entry is
// written after it, so the disks end with the newest data), and then those of its sectors that no
// newer write took over leave the cache. Several destagers run at once, so an entry is handed out
// only when no older entry still in the cache shares a sector with it: writes of one sector reach
// the disks in the order the host wrote them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace write_back_raid5 {

class write_back_cache {
public:
    struct entry {
        uint64_t id = 0;
        uint64_t lbn = 0;
        uint32_t sectors = 0;
        void *buffer = nullptr;   // the firmware's buffer holding the write's data
        uint32_t live = 0;        // sectors whose newest data are in this entry
        bool destaging = false;
    };
    // Where the newest cached copy of a sector is.
    struct location {
        const entry *holder = nullptr;
        uint32_t offset = 0;  // sector offset in the holder's buffer
    };

    // A host write of [lbn, lbn + sectors) whose data are in `buffer`. Buffers of entries left with
    // no live sector and not being destaged are appended to `to_free`.
    uint64_t insert(uint64_t lbn, uint32_t sectors, void *buffer, std::vector<void *> &to_free);
    std::optional<location> find(uint64_t sector) const;
    // The oldest entry not being destaged that shares no sector with an older entry still in the
    // cache (nullptr: none now); marks it destaging.
    const entry *start_destage();
    // The entry is on the disks: its sectors not taken over by a newer write leave the cache.
    // Returns its buffer (the caller frees it).
    void *finish_destage(uint64_t id);

    uint64_t dirty_sectors() const { return m_index.size(); }
    size_t entries() const { return m_entries.size(); }
    uint64_t superseded_sectors() const { return m_superseded; }
    uint64_t coalesced_writes() const { return m_coalesced; }

private:
    std::map<uint64_t, entry> m_entries;   // by id: oldest first
    std::map<uint64_t, uint64_t> m_index;  // sector -> id of the entry holding its newest data
    uint64_t m_next_id = 1;
    uint64_t m_superseded = 0;  // sector copies overwritten while still in the cache
    uint64_t m_coalesced = 0;   // writes freed before they were destaged
};

}  // namespace write_back_raid5
