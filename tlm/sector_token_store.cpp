#include "tlm/sector_token_store.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace raidtlm::protocol {

template <class T>
uint32_t sector_token_store::slab_pool<T>::add() {
    // Numbers are stored + 1 in 32 bits, 0 meaning none.
    if (m_size >= size_t(std::numeric_limits<uint32_t>::max()) - 1)
        throw std::length_error("sector_token_store: more than 2^32 - 2 blocks of tokens");
    if (m_size == m_slabs.size() * slab_items) m_slabs.push_back(std::make_unique<T[]>(slab_items));  // zeroed
    return uint32_t(m_size++);
}

size_t sector_token_store::bytes() const {
    return m_pages.bytes() + m_leaves.bytes() +
           (m_directory.capacity() + m_negative_directory.capacity()) * sizeof(uint32_t);
}

uint32_t *sector_token_store::directory_entry(int64_t range, bool grow) {
    std::vector<uint32_t> &d = range >= 0 ? m_directory : m_negative_directory;
    const size_t i = size_t(range >= 0 ? range : -1 - range);
    if (i >= d.size()) {
        if (!grow) return nullptr;
        // Grown by at least a quarter (amortised copies), not doubled: the directory spans the
        // address space written, and doubling would leave up to as much again unused.
        if (i >= d.capacity()) d.reserve(std::max(i + 1, d.size() + d.size() / 4));
        d.resize(i + 1, 0);
    }
    return &d[i];
}

const sector_token_store::page *sector_token_store::find_page(int64_t page_index) const {
    const int64_t range = floor_div(page_index, leaf_pages);
    const std::vector<uint32_t> &d = range >= 0 ? m_directory : m_negative_directory;
    const size_t i = size_t(range >= 0 ? range : -1 - range);
    if (i >= d.size() || d[i] == 0) return nullptr;
    const uint32_t p = m_leaves[d[i] - 1][size_t(page_index - range * leaf_pages)];
    return p == 0 ? nullptr : &m_pages[p - 1];
}

uint64_t sector_token_store::get(int64_t lbn) const {
    const int64_t p = floor_div(lbn, page_sectors);
    const size_t slot = size_t(lbn - p * page_sectors);
    if (m_last && p == m_last_page) return (*m_last)[slot];
    const page *found = find_page(p);
    if (!found) return 0;
    m_last_page = p;
    m_last = const_cast<page *>(found);
    return (*found)[slot];
}

void sector_token_store::set(int64_t lbn, uint64_t token) {
    const int64_t p = floor_div(lbn, page_sectors);
    const size_t slot = size_t(lbn - p * page_sectors);
    if (!m_last || p != m_last_page) {
        const page *found = find_page(p);
        if (!found) {
            if (token == 0) return;  // what a missing page reads as already
            const int64_t range = floor_div(p, leaf_pages);
            uint32_t *entry = directory_entry(range, true);
            if (*entry == 0) *entry = m_leaves.add() + 1;
            // Pages are added after the leaf: the reference into the leaf pool stays valid.
            const uint32_t new_page = m_pages.add();
            m_leaves[*entry - 1][size_t(p - range * leaf_pages)] = new_page + 1;
            found = &m_pages[new_page];
        }
        m_last_page = p;
        m_last = const_cast<page *>(found);
    }
    (*m_last)[slot] = token;
}

}  // namespace raidtlm::protocol
