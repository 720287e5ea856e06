// Brick-based LARD (Lumb 5.2 after Pai et al., ASPLOS 1998): one brick of a replica group
// routes every read of the group. A block read for the first time goes to the replica with the
// fewest reads outstanding; later reads of it go where it went (its cache), unless that replica
// is overloaded: more than `high` outstanding while another has fewer than `low`, or 2 x `high`
// or more, when the block moves to the least loaded replica. Pai et al.'s values are low 25 and
// high 65 (active connections of a web server); with 16 requests per group they never trigger,
// so LARD here routes first reads by load and keeps blocks where they went. Adaptive LARD (Lumb
// 6.3, "very small differences in queue depths would cause a redistribution") is the same with
// small thresholds. `reads_outstanding` is the dispatcher's count: routed, not yet completed.
// Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace raidtlm::controller {

class lard_dispatcher {
public:
    lard_dispatcher(int replicas, uint32_t block_sectors, int low, int high);
    // The replica that serves a read at lbn (counted outstanding there until completed()).
    int route(uint64_t lbn);
    void completed(int replica);
    int outstanding(int replica) const { return m_load.at(size_t(replica)); }
    uint64_t reassignments() const { return m_reassignments; }
    size_t blocks_assigned() const { return m_owner.size(); }

private:
    int least_loaded() const;
    std::vector<int> m_load;
    uint32_t m_block_sectors;
    int m_low, m_high;
    std::unordered_map<uint64_t, int> m_owner;  // block -> replica
    uint64_t m_reassignments = 0;
};

}  // namespace raidtlm::controller
