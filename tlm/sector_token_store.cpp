#include "tlm/sector_token_store.h"

namespace raidtlm::protocol {

uint64_t sector_token_store::get(int64_t lbn) const {
    const int64_t p = page_of(lbn);
    if (m_last && p == m_last_page) return (*m_last)[slot_of(lbn)];
    auto it = m_pages.find(p);
    if (it == m_pages.end()) return 0;
    m_last_page = p;
    m_last = const_cast<page *>(&it->second);
    return it->second[slot_of(lbn)];
}

void sector_token_store::set(int64_t lbn, uint64_t token) {
    const int64_t p = page_of(lbn);
    if (!m_last || p != m_last_page) {
        auto it = m_pages.find(p);
        if (it == m_pages.end()) {
            if (token == 0) return;  // what a missing page reads as already
            it = m_pages.emplace(p, page{}).first;
        }
        m_last_page = p;
        m_last = &it->second;
    }
    (*m_last)[slot_of(lbn)] = token;
}

}  // namespace raidtlm::protocol
