#include "controller/write_order_guard.h"

namespace raidtlm::controller {

uint64_t write_order_guard::enter(int disk, int64_t lbn, int64_t sectors) {
    const uint64_t t = m_next++;
    m_entries.emplace(t, entry{disk, lbn, lbn + sectors});
    return t;
}

bool write_order_guard::must_wait(uint64_t ticket) const {
    const auto self = m_entries.find(ticket);
    if (self == m_entries.end()) return false;
    const entry &e = self->second;
    for (auto it = m_entries.begin(); it != self; ++it)
        if (it->second.disk == e.disk && it->second.lbn < e.end && e.lbn < it->second.end) return true;
    return false;
}

void write_order_guard::leave(uint64_t ticket) { m_entries.erase(ticket); }

}  // namespace raidtlm::controller
