// Buffer DRAM bandwidth and its port arbiter as plain C++.
//
// The arbiter grants the DRAM in bursts. Over any stretch of time in which the set of active
// transfers does not change, the bursts it grants add up to a share of the bandwidth per transfer;
// share_bandwidth() computes those shares (the fluid limit of the burst-by-burst arbitration):
//   round_robin     every active transfer gets an equal share; a transfer that cannot use its
//                   share (its source is slower, a cap) leaves the rest to the others (max-min fair)
//   fixed_priority  higher-priority ports take what they can use first, the next get what is left;
//                   transfers of one priority share equally
// The SystemC buffer_dram recomputes the shares only when a transfer starts or ends.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::rtl_models {

enum class dram_arbitration { round_robin, fixed_priority };
const char *to_string(dram_arbitration a);

struct dram_config {
    // Defaults: the Intel IOP321's memory controller, 64-bit DDR at 200 MT/s = 1600 MB/s, bursts
    // of 4 x 8 bytes. 0 MT/s = unlimited bandwidth (no DRAM time is charged).
    int width_bits = 64;
    double mtransfers_per_s = 200;
    uint32_t burst_bytes = 32;
    uint64_t capacity_bytes = 128ull << 20;  // buffer space; 0 = unlimited
    dram_arbitration arbitration = dram_arbitration::round_robin;

    double bandwidth_bytes_per_s() const { return mtransfers_per_s * 1e6 * width_bits / 8.0; }
    bool unlimited_bandwidth() const { return mtransfers_per_s <= 0; }
    // Bytes of DRAM bandwidth an access of `bytes` uses: whole bursts.
    uint64_t charged_bytes(uint64_t bytes) const {
        return burst_bytes ? (bytes + burst_bytes - 1) / burst_bytes * burst_bytes : bytes;
    }
};

struct bandwidth_demand {
    int priority = 0;        // fixed_priority: higher is served first
    double cap_bytes_per_s = 0;  // the most the transfer can use (its source's rate); 0 = no limit
};

// Fills `rates` (bytes/s, one per demand) with each demand's share of `bandwidth_bytes_per_s`.
void share_bandwidth(double bandwidth_bytes_per_s, dram_arbitration arbitration,
                     const std::vector<bandwidth_demand> &demands, std::vector<double> &rates);

}  // namespace raidtlm::rtl_models
