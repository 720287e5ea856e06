// How host LBNs are laid onto the disks, by the minimal host adapter or by the controller's RAID 0
// firmware. Plain C++, no SystemC.
//   jbod    the disks concatenated: disk 0's blocks, then disk 1's, ...
//   stripe  round-robin units of stripe_unit_sectors: unit u is on disk u % N at disk unit u / N;
//           every disk contributes the same whole number of units (of the smallest disk).
#pragma once

#include <cstdint>
#include <vector>

namespace raidtlm::controller {

enum class host_layout { jbod, stripe };
const char *to_string(host_layout v);

struct disk_fragment {
    int disk = 0;
    uint64_t lbn = 0;          // on that disk
    uint32_t sectors = 0;
    uint32_t host_offset = 0;  // sectors from the start of the host request
};

class host_address_map {
public:
    host_address_map(host_layout layout, uint64_t stripe_unit_sectors, std::vector<uint64_t> disk_capacities);

    uint64_t capacity_sectors() const { return m_capacity; }
    int disks() const { return static_cast<int>(m_disk_capacity.size()); }

    // The disk pieces of host range [lbn, lbn + sectors), in host order, into `out` (cleared
    // first). Precondition: the range lies within capacity_sectors().
    void map(uint64_t lbn, uint32_t sectors, std::vector<disk_fragment> &out) const;

private:
    host_layout m_layout;
    uint64_t m_unit;
    std::vector<uint64_t> m_disk_capacity;
    std::vector<uint64_t> m_disk_start;  // jbod: host LBN of each disk's block 0
    uint64_t m_capacity = 0;
};

}  // namespace raidtlm::controller
