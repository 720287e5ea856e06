#include "controller/families/bricks/brick_cache.h"

#include <stdexcept>

namespace raidtlm::controller {

int exclusive_cache_owner(uint64_t page, int replicas) {
    // splitmix64's finaliser: neighbouring pages spread over the replicas.
    uint64_t z = page + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return int(z % uint64_t(replicas));
}

brick_cache::brick_cache(uint64_t capacity_bytes, uint32_t page_sectors, int replica_index, int replicas)
    : m_capacity_pages(capacity_bytes / (uint64_t(page_sectors) * 512)), m_page_sectors(page_sectors),
      m_replica_index(replica_index), m_replicas(replicas) {
    if (page_sectors == 0 || replicas < 1 || replica_index < 0 || replica_index >= replicas)
        throw std::invalid_argument("brick_cache: page_sectors > 0 and 0 <= replica_index < replicas");
}

brick_cache::page_state &brick_cache::touch(uint64_t page) {
    auto it = m_pages.find(page);
    if (it == m_pages.end()) {
        m_lru.push_front(page);
        return m_pages.emplace(page, page_state{0, m_lru.begin()}).first->second;
    }
    m_lru.splice(m_lru.begin(), m_lru, it->second.lru);
    return it->second;
}

void brick_cache::evict_to_fit() {
    // Least recently used clean pages go first; dirty ones stay until destaged.
    auto it = m_lru.end();
    while (m_pages.size() > m_capacity_pages && it != m_lru.begin()) {
        --it;
        auto p = m_pages.find(*it);
        if (p->second.dirty)
            continue;
        m_pages.erase(p);
        it = m_lru.erase(it);
        ++m_stats.evictions;
    }
}

bool brick_cache::read_hit(uint64_t lbn, uint32_t sectors) {
    ++m_stats.read_lookups;
    const uint64_t end = end_page(lbn, sectors);
    for (uint64_t p = first_page(lbn); p < end; ++p)
        if (!m_pages.count(p))
            return false;
    for (uint64_t p = first_page(lbn); p < end; ++p)
        touch(p);
    ++m_stats.read_hits;
    return true;
}

void brick_cache::insert_clean(uint64_t lbn, uint32_t sectors) {
    if (m_capacity_pages == 0)
        return;
    const uint64_t end = end_page(lbn, sectors);
    for (uint64_t p = first_page(lbn); p < end; ++p)
        touch(p);
    evict_to_fit();
}

bool brick_cache::can_hold_dirty(uint64_t lbn, uint32_t sectors) const {
    const uint64_t need = end_page(lbn, sectors) - first_page(lbn);
    return m_dirty_pages + need <= m_capacity_pages;
}

void brick_cache::insert_dirty(uint64_t lbn, uint32_t sectors) {
    const uint64_t end = end_page(lbn, sectors);
    for (uint64_t p = first_page(lbn); p < end; ++p) {
        page_state &s = touch(p);
        if (s.dirty++ == 0)
            ++m_dirty_pages;
    }
    evict_to_fit();
}

void brick_cache::destaged(uint64_t lbn, uint32_t sectors) {
    const uint64_t end = end_page(lbn, sectors);
    for (uint64_t p = first_page(lbn); p < end; ++p) {
        auto it = m_pages.find(p);
        if (it == m_pages.end() || it->second.dirty == 0)
            throw std::logic_error("brick_cache: destage of a page that is not dirty");
        if (--it->second.dirty != 0)
            continue;  // a later write of the page is still to be destaged
        --m_dirty_pages;
        if (exclusive_cache_owner(p, m_replicas) == m_replica_index) {
            ++m_stats.kept_after_destage;
        } else {
            m_lru.erase(it->second.lru);
            m_pages.erase(it);
            ++m_stats.dropped_after_destage;
        }
    }
    evict_to_fit();
}

}  // namespace raidtlm::controller
