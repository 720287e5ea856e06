#include "controller/kit/write_order_guard.h"

#include <algorithm>

namespace raidtlm::controller {

namespace {
bool overlaps(int disk, int64_t lbn, int64_t end, int other_disk, int64_t other_lbn, int64_t other_end) {
    return disk == other_disk && other_lbn < end && lbn < other_end;
}
}  // namespace

uint64_t write_order_guard::enter(int disk, int64_t lbn, int64_t sectors) {
    const uint64_t t = m_next++;
    m_entries.push_back({t, disk, lbn, lbn + sectors, true});
    ++m_live;
    return t;
}

bool write_order_guard::must_wait(uint64_t ticket) const {
    const auto self = std::lower_bound(m_entries.begin(), m_entries.end(), ticket,
                                       [](const entry &e, uint64_t t) { return e.ticket < t; });
    if (self == m_entries.end() || self->ticket != ticket || !self->live) return false;
    for (auto it = m_entries.begin(); it != self; ++it)
        if (it->live && overlaps(self->disk, self->lbn, self->end, it->disk, it->lbn, it->end)) return true;
    return false;
}

bool write_order_guard::overlaps_any(int disk, int64_t lbn, int64_t sectors) const {
    for (const entry &e : m_entries)
        if (e.live && overlaps(disk, lbn, lbn + sectors, e.disk, e.lbn, e.end)) return true;
    return false;
}

void write_order_guard::leave(uint64_t ticket) {
    const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), ticket,
                                     [](const entry &e, uint64_t t) { return e.ticket < t; });
    if (it == m_entries.end() || it->ticket != ticket || !it->live) return;
    it->live = false;
    --m_live;
    while (!m_entries.empty() && !m_entries.front().live) m_entries.pop_front();
    if (m_entries.size() > 2 * m_live + 16)
        m_entries.erase(std::remove_if(m_entries.begin(), m_entries.end(), [](const entry &e) { return !e.live; }),
                        m_entries.end());
}

}  // namespace raidtlm::controller
