// What a storage brick's firmware is told about its place on the network (set by the bricks
// topology, testbench/bricks_bench): its replica group's ports, its own index there, and the
// network's one-way latency it waits for in prescheduling (a configured figure of the
// installation, as an administrator would give it). Empty `group_ports`: not a brick.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/families/bricks/claim_protocol.h"

namespace raidtlm::controller {

struct brick_role {
    std::vector<int> group_ports;  // the network port of each replica of the group
    int replica_index = 0;         // this brick in group_ports
    double one_way_latency_ms = 0.05;
    uint32_t control_message_bytes = 50;  // a request, CLAIM or acknowledgement (Lumb 6.4)
    uint64_t cache_bytes = 512ull << 20;  // Lumb 5.1: 512 MB non-volatile LRU cache per brick
    uint32_t cache_page_sectors = 8;      // 4 KB pages
    // weighted hashing: each replica's relative speed (empty: equal)
    std::vector<double> replica_weights;
    // D-SPTF: when the brick picks, claims and issues a read (claim_protocol.h).
    claim_protocol protocol = claim_protocol::prescheduling;
    // Destages start once dirty data exceed this share of the cache; 0: as soon as a write is
    // stored (bricks.destage_above_cache_fraction documents the default's source).
    double destage_above_cache_fraction = 0;
    // Destage writes in the disk queue at once, beside the reads; the rest wait in NVRAM, oldest
    // first (bricks.destage_requests_queued documents the default's source).
    int destage_requests_queued = 64;
    // LARD's thresholds (lard_dispatcher.h; Pai et al.: 25 and 65).
    int lard_low = 25, lard_high = 65;
    bool is_brick() const { return !group_ports.empty(); }
    int replicas() const { return int(group_ports.size()); }
};

}  // namespace raidtlm::controller
