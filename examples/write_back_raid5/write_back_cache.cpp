#include "write_back_cache.h"

#include <stdexcept>

namespace write_back_raid5 {

uint64_t write_back_cache::insert(uint64_t lbn, uint32_t sectors, void *buffer, std::vector<void *> &to_free) {
    const uint64_t id = m_next_id++;
    entry &e = m_entries[id];
    e.id = id;
    e.lbn = lbn;
    e.sectors = sectors;
    e.buffer = buffer;
    e.live = sectors;
    for (uint64_t s = lbn; s < lbn + sectors; ++s) {
        auto [it, fresh] = m_index.try_emplace(s, id);
        if (fresh) continue;
        entry &older = m_entries.at(it->second);
        it->second = id;
        ++m_superseded;
        if (--older.live == 0 && !older.destaging) {
            to_free.push_back(older.buffer);
            m_entries.erase(older.id);
            ++m_coalesced;
        }
    }
    return id;
}

std::optional<write_back_cache::location> write_back_cache::find(uint64_t sector) const {
    const auto it = m_index.find(sector);
    if (it == m_index.end()) return std::nullopt;
    const entry &e = m_entries.at(it->second);
    return location{&e, uint32_t(sector - e.lbn)};
}

const write_back_cache::entry *write_back_cache::start_destage() {
    std::vector<const entry *> older;
    for (auto &[id, e] : m_entries) {
        bool free = !e.destaging;
        for (const entry *o : older)
            free = free && (o->lbn + o->sectors <= e.lbn || e.lbn + e.sectors <= o->lbn);
        if (free) {
            e.destaging = true;
            return &e;
        }
        older.push_back(&e);
    }
    return nullptr;
}

void *write_back_cache::finish_destage(uint64_t id) {
    const auto it = m_entries.find(id);
    if (it == m_entries.end() || !it->second.destaging) throw std::logic_error("finish_destage: not being destaged");
    const entry &e = it->second;
    for (uint64_t s = e.lbn; s < e.lbn + e.sectors; ++s) {
        const auto at = m_index.find(s);
        if (at != m_index.end() && at->second == id) m_index.erase(at);
    }
    void *buffer = e.buffer;
    m_entries.erase(it);
    return buffer;
}

}  // namespace write_back_raid5
