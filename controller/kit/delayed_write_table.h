// The NVRAM delayed-write table of replicated layouts (Yu et al. 3.4). A write to replicated
// data is scheduled like a read: the first copy the scheduler picks goes through the foreground
// queue, and at that moment (first_write_scheduled) the other copies become delayed writes,
// kept in one delayed-write queue per disk and served only when that disk's foreground queue is
// empty (next_delayed). The write's data buffer is kept until the last copy is written
// (buffered_sectors, to be counted against buffer DRAM). A newer write to the same sectors
// discards the older pending updates of those sectors (trimming or splitting older entries).
// The NVRAM table holds, per entry, only the logical range and the location of the first
// write (disk and copy index: the layout maps them to the physical extents); it is small.
// When the table reaches `force_threshold_entries` (10,000 by default), every disk with delayed
// writes is flushed: its waiting copies go to its foreground queue, oldest first, without
// waiting for the disk to be idle (flushing), until none is left; the firmware bounds how many
// of them are in the foreground queue at once. With `foreground_propagation` every copy goes to
// the foreground at once (the entry still guards recovery until they are written).
//
// After a power loss the queues and buffers are gone; recover_after_power_loss() says, from the
// NVRAM table, which sectors must be copied from their first write's location to which copies,
// and queues those copies again (their propagations then have data_buffered = false: read the
// source first).
//
// Ordering: a write must not reach a copy while an older propagation to the same sectors of
// that copy is in flight (it could land later with old data): in_flight_overlaps() tells the
// firmware to hold such a write.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>
#include <unordered_map>
#include <vector>

namespace raidtlm::controller {

struct copy_location {
    int disk = 0;
    int copy = 0;  // the layout's copy index
    bool operator==(const copy_location &o) const { return disk == o.disk && copy == o.copy; }
};

// Write copy `to` of logical [lbn, lbn + sectors).
struct propagation {
    uint64_t op = 0;  // give it back to propagation_done
    int64_t lbn = 0;
    int32_t sectors = 0;
    copy_location to;
    copy_location source;       // the first write's location
    bool data_buffered = true;  // false after a power loss: read `source` first
    uint64_t owner = 0;         // the entry's owner (first_write_scheduled)
    // A repair (add_repair): the data are on every copy but `to`, not only on `source`; a source
    // that cannot be read loses nothing (the copy stays unreadable, a later read repairs it again
    // from another copy, or records the loss if none is left).
    bool repair = false;
};

struct recovery_item {
    int64_t lbn = 0;
    int32_t sectors = 0;
    copy_location source;
    std::vector<copy_location> stale;
};

class delayed_write_table {
public:
    struct config {
        size_t force_threshold_entries = 10000;
        bool foreground_propagation = false;
    };
    delayed_write_table(int disks, const config &cfg);

    // The first copy of a write of logical [lbn, lbn + sectors) is scheduled at `first`; `others`
    // are the other copies. Appends to `to_foreground` what must go to foreground queues now.
    // `owner` (non-zero) names what holds the write's data (the firmware's buffer): once no
    // entry of that owner is left (written or superseded), take_released_owners() returns it.
    void first_write_scheduled(int64_t lbn, int32_t sectors, copy_location first,
                               const std::vector<copy_location> &others, std::vector<propagation> &to_foreground,
                               uint64_t owner = 0);
    // The next delayed write for `disk` (ask when its foreground queue is empty, or any time
    // while it is flushing), or nothing.
    std::optional<propagation> next_delayed(int disk);
    // Whether next_delayed(disk) would hand out a copy whose data are buffered (else it reads
    // its source first); false when nothing waits.
    bool next_is_buffered(int disk);
    // The table reached the threshold since `disk`'s queue was last empty: its waiting copies go
    // to the foreground (counted in forced()).
    bool flushing(int disk) const { return m_flushing[size_t(disk)] && m_waiting[size_t(disk)] > 0; }
    bool flushing_any() const;
    // A handed-out propagation has been written.
    void propagation_done(uint64_t op);
    bool in_flight_overlaps(int disk, int64_t lbn, int32_t sectors) const;
    // Copy `c` holds the latest data of logical [lbn, lbn + sectors): no entry overlapping the
    // range still has to write it (reads go only to current copies).
    bool is_current(copy_location c, int64_t lbn, int32_t sectors) const;
    // What a handed-out propagation must still write when it reaches its disk: the parts of its
    // range that no newer write has superseded meanwhile (logical [lbn, lbn + sectors) pairs,
    // in order; empty: nothing left, skip it).
    std::vector<std::pair<int64_t, int32_t>> live_parts(uint64_t op) const;
    // Owners whose last entry has gone since the last call.
    std::vector<uint64_t> take_released_owners();
    // Entries of `owner` still in the table.
    size_t entries_of(uint64_t owner) const {
        auto it = m_owner_entries.find(owner);
        return it == m_owner_entries.end() ? 0 : it->second;
    }
    uint64_t superseded() const { return m_superseded; }  // entries or parts dropped by a newer write
    uint64_t forced() const { return m_forced; }          // copies handed out while their disk flushed

    size_t entries() const { return m_by_lbn.size(); }
    int64_t buffered_sectors() const { return m_buffered_sectors; }
    size_t delayed(int disk) const { return m_waiting[size_t(disk)]; }
    size_t in_flight() const { return m_in_flight.size(); }

    // Entries whose first write's disk was lost while their data were buffered (disk_lost) have
    // no copy left to recover from: dropped, their ranges appended to `lost`.
    std::vector<recovery_item> recover_after_power_loss(std::vector<std::pair<int64_t, int32_t>> &lost);

    // Disk `disk` is lost: its waiting copies will never be written (a rebuild rewrites the whole
    // disk), so they count as done and entries left with nothing to write go. Returns the logical
    // ranges whose only current copy was on that disk with no data buffered to copy from
    // (recovery after a power loss not finished): lost, their entries dropped. Entries whose
    // source was there with data buffered stay (propagated from the buffer) but are lost if the
    // buffer goes with the power first (recover_after_power_loss). A repair whose source was
    // there loses nothing (the other copies hold its data): dropped, its target left unreadable.
    std::vector<std::pair<int64_t, int32_t>> disk_lost(int disk);
    // Hands out now every waiting copy of an entry overlapping logical [lbn, lbn + sectors) on a
    // disk other than `except_disk` (a read or write that finds no current live copy forces the
    // pending propagations instead of waiting for idle disks). Counted in forced_by_demand().
    void force_overlapping(int64_t lbn, int32_t sectors, int except_disk, std::vector<propagation> &out);
    uint64_t forced_by_demand() const { return m_forced_by_demand; }
    // Copy `target` of logical [lbn, lbn + sectors) is unreadable (MEDIUM ERROR): a delayed write
    // from `source` with no data buffered (read the source first). Only when no entry overlaps
    // the range (otherwise the source might not hold the newest data); false then.
    bool add_repair(int64_t lbn, int32_t sectors, copy_location source, copy_location target);

private:
    enum class copy_state { waiting, handed_out, done };
    struct pending_copy {
        copy_location where;
        copy_state state = copy_state::waiting;
        uint64_t op = 0;
    };
    struct entry {
        int64_t lbn = 0;
        int32_t sectors = 0;
        copy_location source;
        bool buffered = true;
        // The first write's disk was lost while the data were still buffered: the buffer is now
        // the only holder of the newest data (that disk's slot may hold a fresh, blank drive).
        bool source_lost = false;
        bool repair = false;  // add_repair: every copy but the target holds the data, not only the source
        uint64_t owner = 0;
        std::vector<pending_copy> copies;
    };
    struct queued {
        uint64_t entry;
        size_t copy;
    };

    void supersede(int64_t lbn, int64_t end);
    void discard(uint64_t id);
    void set_range(uint64_t id, int64_t lbn, int64_t end);
    uint64_t insert(entry e);
    void enqueue(uint64_t id, size_t copy);
    propagation hand_out(uint64_t id, size_t copy);
    void start_flush();
    void pop_stale(int disk);  // drops queue items whose copy is no longer waiting

    config m_cfg;
    std::unordered_map<uint64_t, entry> m_entries;
    std::map<int64_t, uint64_t> m_by_lbn;  // entry ranges never overlap
    std::vector<std::deque<queued>> m_queues;  // may hold stale items, skipped when popped
    std::vector<size_t> m_waiting;
    std::vector<bool> m_flushing;
    std::unordered_map<uint64_t, std::vector<queued>> m_op_targets;  // op -> the copies it writes
    std::unordered_map<uint64_t, propagation> m_in_flight;
    int64_t m_buffered_sectors = 0;
    std::unordered_map<uint64_t, size_t> m_owner_entries;
    std::vector<uint64_t> m_released_owners;
    uint64_t m_superseded = 0;
    uint64_t m_forced = 0;
    uint64_t m_forced_by_demand = 0;
    uint64_t m_next_entry = 1;
    uint64_t m_next_op = 1;
};

}  // namespace raidtlm::controller
