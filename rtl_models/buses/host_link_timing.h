// The host link's rates as plain C++: PCI-X and PCI Express presets.
//   pcix       64-bit, 133 MHz PCI-X 1.0: 8 bytes x 133 MHz = 1064 MB/s, one direction at a time
//   pcie       lanes x the generation's per-lane rate after line coding, each direction at once:
//              gen1 2.5 GT/s 8b/10b = 250 MB/s, gen2 5 GT/s 8b/10b = 500 MB/s,
//              gen3 8 GT/s 128b/130b = 984.6 MB/s, gen4 16 GT/s 128b/130b = 1969.2 MB/s per lane
//   unlimited  moves data in no time (for zero-cost runs)
// Packet headers (TLP/DLLP) are not charged: the rates are the link's data rates.
#pragma once

#include <string>

namespace raidtlm::rtl_models {

enum class host_link_kind { pcix, pcie, unlimited };
const char *to_string(host_link_kind k);

struct host_link_config {
    host_link_kind kind = host_link_kind::pcix;
    int lanes = 8;        // pcie: 1, 2, 4, 8, 16
    int generation = 1;   // pcie: 1..4
    // Per DMA, before data flow: a memory read round trip through the host bridge and chipset.
    // Documented assumption: about 1 us for a PCI-X or PCIe host of the period.
    double dma_latency_us = 1.0;

    // Data rate per direction, MB/s (10^6 bytes); 0 when unlimited.
    double mb_per_s() const;
    bool full_duplex() const { return kind == host_link_kind::pcie; }
    std::string describe() const;
};

// PCIe data rate of one lane of a generation, MB/s; 0 for an unknown generation.
double pcie_lane_mb_per_s(int generation);

}  // namespace raidtlm::rtl_models
