// Request distribution in a replica group of storage bricks (Lumb 5.2): which bricks queue a
// client's read. Writes go to every replica under every policy (4.1.2).
//   dsptf             every replica queues the read; the CLAIM protocol picks one at
//                     scheduling time (claim_arbiter)
//   hashing           the replica hash(block) mod replicas (the exclusive-cache owner too)
//   weighted_hashing  hash(block) onto [0, 1) cut in proportion to each replica's weight (its
//                     relative speed), so a slower replica gets fewer reads (6.5)
//   lard              replica 0 routes every read by load and block (lard_dispatcher.h)
// The centralized SPTF ideal is not a distribution: one controller with one queue over all the
// replicas' disks (the replicated firmware with a rotation-aware scheduler).
// Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace raidtlm::controller {

enum class distribution_policy { dsptf, hashing, weighted_hashing, lard };
const char *to_string(distribution_policy p);

class request_distribution {
public:
    // weights: one per replica (weighted_hashing; empty: equal).
    request_distribution(distribution_policy policy, int replicas, uint32_t block_sectors,
                         std::vector<double> weights = {});
    distribution_policy policy() const { return m_policy; }
    int replicas() const { return m_replicas; }
    // The replicas (indices in the group) that queue a read at `lbn`.
    std::vector<int> read_queuers(uint64_t lbn) const;
    // The one replica a hashed read goes to (hashing, weighted_hashing).
    int hashed_replica(uint64_t lbn) const;
    // Whether replicas other than the one receiving the read must see it (D-SPTF forwards it).
    bool forwards_reads() const { return m_policy == distribution_policy::dsptf; }

private:
    distribution_policy m_policy;
    int m_replicas;
    uint32_t m_block_sectors;
    std::vector<double> m_cumulative;  // weighted_hashing: cumulative shares, last = 1
};

}  // namespace raidtlm::controller
