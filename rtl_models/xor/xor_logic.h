// The XOR engine's arithmetic and timing as plain C++. Data are one 64-bit token per 512-byte
// sector (DESIGN.md): the parity of a set of blocks is, sector by sector, the XOR of their tokens,
// so parity is checked exactly without storing bytes; the time follows the bytes the block has.
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::rtl_models {

// out[s] = in[0][s] ^ in[1][s] ^ ... for s in [0, sectors). `out` may be one of the inputs.
void xor_tokens(const std::vector<const uint64_t *> &in, uint64_t sectors, uint64_t *out);

struct xor_config {
    // Defaults: a documented assumption in the range of I/O-processor XOR units of the IOP321
    // generation (its Application Accelerator runs on the 200 MHz internal bus, 8 bytes wide).
    double mhz = 200;
    double bytes_per_cycle = 8;   // result bytes produced per cycle (all N inputs read meanwhile)
    // The GF(2^8) multiply-accumulate mode (RAID 6's Q, two-erasure recovery): result bytes per
    // cycle. Default 8, the XOR rate: Intel's 81341/81342 I/O processors' Application DMA unit
    // (Developer's Manual, order 315037-002US, Dec 2007, section 5.7.3) puts a GF multiplier on
    // each source in its 64-bit data path and builds Q at the pace it builds P. A slower Q (a
    // table-lookup engine, or software on the CPU) is this key set lower.
    double gf_bytes_per_cycle = 8;
    uint64_t setup_cycles = 100;  // per command: fetch the descriptor, start the DMA
    int queue_depth = 8;          // commands accepted before a submitter must wait

    double cycle_s() const { return 1.0 / (mhz * 1e6); }
    // Cycles to XOR `inputs` blocks of `block_bytes` into one (the engine's own time, alone);
    // `gf`: in the multiply-accumulate mode.
    uint64_t cycles(uint64_t block_bytes, bool gf = false) const;
    // The engine's own throughput in result bytes per second (`gf`: multiply-accumulate mode).
    double bytes_per_s(bool gf = false) const { return (gf ? gf_bytes_per_cycle : bytes_per_cycle) * mhz * 1e6; }
};

}  // namespace raidtlm::rtl_models
