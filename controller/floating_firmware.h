// The floating data and parity firmware family (controller.firmware: floating, layout floating):
// RAID 5 (raid_firmware) whose units float within their cylinder; floating_firmware.cpp has the
// design, floating_map.h the per-disk free-slot logic.
#pragma once

#include <memory>
#include <vector>

#include "controller/floating_map.h"
#include "controller/raid_firmware.h"
#include "disks/disk_layout.h"

namespace raidtlm::controller {

struct floating_statistics {
    // Units moved to a free slot, the rotational wait to it (revolutions, summed), moves that
    // needed a head switch, units rewritten in place (cylinder full), the mapping tables' bits.
    uint64_t moves = 0;
    double wait_revolutions = 0;
    uint64_t head_switches = 0;
    uint64_t in_place = 0;
    uint64_t table_bits = 0;
};

class floating_firmware final : public raid_firmware {
public:
    explicit floating_firmware(firmware_platform &platform);
    ~floating_firmware() override;
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    const floating_statistics &floating() const { return m_floating; }

protected:
    // A read-modify-write stripe as two relocating read-rotate-writes.
    bool read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity) override;

private:
    // A logical drive LBN -> where it is now.
    uint64_t floating_lbn(int disk, uint64_t lbn, uint32_t sectors) const;

    int m_unit_sectors = 0;
    std::unique_ptr<disks::disk_layout> m_geometry;      // the firmware's copy (all disks alike)
    std::vector<std::unique_ptr<floating_map>> m_maps;  // one per disk
    floating_statistics m_floating;
};

// Sectors per disk that the RAID 5 layout under floating may use: one track per cylinder is the
// free space. Reports a fatal SystemC error when the drive does not fit floating_map's needs.
int64_t floating_logical_sectors(const disk_info &disk, int unit_sectors);

}  // namespace raidtlm::controller
