// The data tokens a store of sectors holds (a drive's media, the scoreboard's acknowledged
// sectors): one 64-bit token per 512-byte sector (DESIGN.md), token 0 for a sector never written.
// Only sectors written since the start of the run cost memory, and those in pages of
// page_sectors tokens allocated on the first write into them: a node per page instead of a
// hash-map node per sector (~13 bytes a written sector instead of ~40: EXPERIMENTS.md 10).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace raidtlm::protocol {

class sector_token_store {
public:
    // A page: 8 sectors = one 4 KB host block, the smallest common write (DiskSim's and the
    // workloads' default request size), so an isolated small write fills the page it allocates.
    static constexpr int64_t page_sectors = 8;

    // The token last written to sector lbn; 0 if it was never written.
    uint64_t get(int64_t lbn) const;
    void set(int64_t lbn, uint64_t token);

    // Pages allocated so far, and the sectors they cover (written or not).
    size_t pages() const { return m_pages.size(); }
    int64_t sectors_covered() const { return int64_t(m_pages.size()) * page_sectors; }

private:
    using page = std::array<uint64_t, page_sectors>;
    static int64_t page_of(int64_t lbn) { return lbn >= 0 ? lbn / page_sectors : (lbn + 1) / page_sectors - 1; }
    static size_t slot_of(int64_t lbn) { return size_t(lbn - page_of(lbn) * page_sectors); }

    // Pages never move (unordered_map nodes are stable), so the last one used is remembered:
    // a request's sectors are consecutive.
    std::unordered_map<int64_t, page> m_pages;
    mutable int64_t m_last_page = 0;
    mutable page *m_last = nullptr;
};

}  // namespace raidtlm::protocol
