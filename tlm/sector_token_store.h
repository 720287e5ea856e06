// The data tokens a store of sectors holds (a drive's media, the scoreboard's acknowledged
// sectors): one 64-bit token per 512-byte sector (DESIGN.md), token 0 for a sector never written.
//
// A paged array over the address space, not a node per sector or per page (EXPERIMENTS.md 10):
// - a page holds the tokens of page_sectors consecutive sectors; it is allocated on the first
//   non-zero write into it, from slabs, and named by a 32-bit number (no per-page heap block);
// - a leaf maps leaf_pages consecutive pages to their page numbers; it is allocated on the first
//   write into its range, from slabs too;
// - the directory maps every leaf range from 0 up to the highest sector written (and down to the
//   lowest, for negative addresses) to its leaf number.
// So memory is bounded by the address space touched, whatever the number of writes:
// 8 bytes per sector of every page written into, plus 4 / page_sectors bytes per sector of every
// leaf range written into, plus 4 / leaf_sectors bytes per sector of the directory's span:
// ~8.53 bytes per sector once the space is covered, up to 16 bytes per written sector while writes
// are sparse (a 4 KB write alone in its leaf's range). Nothing grows with the number of requests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace raidtlm::protocol {

class sector_token_store {
public:
    // A page: 8 sectors = one 4 KB host block, the smallest common write (DiskSim's and the
    // workloads' default request size), so an isolated small write fills the page it allocates.
    static constexpr int64_t page_sectors = 8;
    // A leaf: 16 pages = 128 sectors (64 KB of data, a common stripe unit), 64 bytes of page
    // numbers: small enough that sparse writes do not pay for much directory they do not use,
    // large enough that the directory over the whole span costs 1/32 byte per sector.
    static constexpr int64_t leaf_pages = 16;
    static constexpr int64_t leaf_sectors = page_sectors * leaf_pages;

    // The token last written to sector lbn; 0 if it was never written.
    uint64_t get(int64_t lbn) const;
    void set(int64_t lbn, uint64_t token);

    // Pages allocated so far, and the sectors they cover (written or not).
    size_t pages() const { return m_pages.size(); }
    int64_t sectors_covered() const { return int64_t(pages()) * page_sectors; }
    // Bytes held (pages, leaves, directory), for the memory bound's tests and reports.
    size_t bytes() const;

private:
    using page = std::array<uint64_t, page_sectors>;
    using leaf = std::array<uint32_t, leaf_pages>;  // page number + 1; 0: no page

    // Fixed-size blocks allocated in slabs that never move, named by their index.
    template <class T>
    class slab_pool {
    public:
        // 1024 blocks: 64 KB of pages, small against a drive's store, few slabs for a full one.
        static constexpr size_t slab_items = 1024;
        size_t size() const { return m_size; }
        uint32_t add();  // a zeroed block (throws std::length_error past 2^32 - 2 blocks: 16 TB of pages)
        T &operator[](uint32_t i) { return m_slabs[i / slab_items][i % slab_items]; }
        const T &operator[](uint32_t i) const { return m_slabs[i / slab_items][i % slab_items]; }
        size_t bytes() const { return m_slabs.size() * slab_items * sizeof(T) + m_slabs.capacity() * sizeof(void *); }

    private:
        std::vector<std::unique_ptr<T[]>> m_slabs;
        size_t m_size = 0;
    };

    static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : (a + 1) / b - 1; }
    // The directory entry (leaf number + 1; 0: no leaf) of leaf range r, or null when r lies
    // outside the span so far; grows the span when `grow`.
    uint32_t *directory_entry(int64_t range, bool grow);
    const page *find_page(int64_t page_index) const;

    std::vector<uint32_t> m_directory;           // leaf ranges 0, 1, 2, ...
    std::vector<uint32_t> m_negative_directory;  // leaf ranges -1, -2, ...
    slab_pool<leaf> m_leaves;
    slab_pool<page> m_pages;

    // The page used last: a request's sectors are consecutive.
    mutable int64_t m_last_page = 0;
    mutable page *m_last = nullptr;
};

}  // namespace raidtlm::protocol
