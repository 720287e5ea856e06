// A storage brick's non-volatile cache (Lumb 5.1: 512 MB, LRU, non-volatile) and D-SPTF's
// exclusive caching rule (4.1.2): a write is held in every replica's NVRAM until it is destaged,
// and afterwards kept only by the replica whose index is hash(address) mod replicas, so the
// replica group caches each block once. Reads are cached only where they were served (the
// CLAIM protocol makes that one brick).
//
// Pages of `page_sectors` sectors are the unit (a request touching part of a page holds the
// whole page); dirty pages (not yet on the disk) are never evicted. Plain C++.
#pragma once

#include <cstdint>
#include <list>
#include <unordered_map>

namespace raidtlm::controller {

// The replica that keeps `page` after it was destaged: hash(page) mod replicas.
int exclusive_cache_owner(uint64_t page, int replicas);

class brick_cache {
public:
    struct statistics {
        uint64_t read_lookups = 0, read_hits = 0;
        uint64_t evictions = 0;
        uint64_t kept_after_destage = 0, dropped_after_destage = 0;
    };

    // capacity_bytes of cache in pages of page_sectors (512-byte sectors); this brick is replica
    // `replica_index` of `replicas`.
    brick_cache(uint64_t capacity_bytes, uint32_t page_sectors, int replica_index, int replicas);

    uint64_t capacity_pages() const { return m_capacity_pages; }
    uint64_t pages() const { return m_pages.size(); }
    uint64_t dirty_pages() const { return m_dirty_pages; }
    // A read of [lbn, lbn + sectors): true when every page is here (they become most recent).
    bool read_hit(uint64_t lbn, uint32_t sectors);
    // A read served from this brick's disk: its pages are cached (clean).
    void insert_clean(uint64_t lbn, uint32_t sectors);
    // False when the write's pages cannot all be held dirty (the cache is full of dirty data:
    // the writer must wait for a destage).
    bool can_hold_dirty(uint64_t lbn, uint32_t sectors) const;
    // A write stored in NVRAM: dirty until destaged.
    void insert_dirty(uint64_t lbn, uint32_t sectors);
    // Its destage finished: the pages become clean and stay only on the exclusive owner.
    void destaged(uint64_t lbn, uint32_t sectors);

    const statistics &stats() const { return m_stats; }
    void reset_statistics() { m_stats = statistics{}; }

private:
    struct page_state {
        uint32_t dirty = 0;  // writes of this page not yet destaged
        std::list<uint64_t>::iterator lru;
    };
    uint64_t first_page(uint64_t lbn) const { return lbn / m_page_sectors; }
    uint64_t end_page(uint64_t lbn, uint32_t sectors) const {
        return (lbn + sectors + m_page_sectors - 1) / m_page_sectors;
    }
    page_state &touch(uint64_t page);
    void evict_to_fit();

    uint64_t m_capacity_pages;
    uint32_t m_page_sectors;
    int m_replica_index, m_replicas;
    std::list<uint64_t> m_lru;  // most recent first
    std::unordered_map<uint64_t, page_state> m_pages;
    uint64_t m_dirty_pages = 0;
    statistics m_stats;
};

}  // namespace raidtlm::controller
