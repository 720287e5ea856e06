#include "rtl_models/buses/host_link_timing.h"

#include <fmt/format.h>

namespace raidtlm::rtl_models {

const char *to_string(host_link_kind k) {
    switch (k) {
    case host_link_kind::pcix: return "pcix";
    case host_link_kind::pcie: return "pcie";
    case host_link_kind::unlimited: return "unlimited";
    }
    return "?";
}

double pcie_lane_mb_per_s(int generation) {
    switch (generation) {
    case 1: return 2500.0 * 8 / 10 / 8;     // 250
    case 2: return 5000.0 * 8 / 10 / 8;     // 500
    case 3: return 8000.0 * 128 / 130 / 8;  // 984.6
    case 4: return 16000.0 * 128 / 130 / 8; // 1969.2
    default: return 0;
    }
}

double host_link_config::mb_per_s() const {
    switch (kind) {
    case host_link_kind::pcix: return 8 * 133.0;  // 64 bits at 133 MHz
    case host_link_kind::pcie: return lanes * pcie_lane_mb_per_s(generation);
    case host_link_kind::unlimited: return 0;
    }
    return 0;
}

std::string host_link_config::describe() const {
    switch (kind) {
    case host_link_kind::pcix: return fmt::format("PCI-X 64-bit 133 MHz ({:.0f} MB/s, half duplex)", mb_per_s());
    case host_link_kind::pcie:
        return fmt::format("PCIe gen{} x{} ({:.0f} MB/s each way)", generation, lanes, mb_per_s());
    case host_link_kind::unlimited: return "unlimited";
    }
    return "?";
}

}  // namespace raidtlm::rtl_models
