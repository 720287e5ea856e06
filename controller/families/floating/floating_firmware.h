// The floating data and parity firmware family (controller.firmware: floating, layout floating):
// RAID 5 (raid_firmware) whose units float within their cylinder; floating_firmware.cpp has the
// design, floating_units.h the maps and moves it shares with floating over RAID 6
// (floating_raid6_firmware.h), floating_map.h the per-disk free-slot logic.
#pragma once

#include "controller/families/floating/floating_units.h"
#include "controller/families/raid/raid_firmware.h"

namespace raidtlm::controller {

class floating_firmware final : public raid_firmware {
public:
    explicit floating_firmware(firmware_platform &platform);
    ~floating_firmware() override;
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    const floating_statistics &floating() const { return m_units.statistics(); }
    // Where logical drive LBN `lbn` of `disk` lives now (tests read the units raw there).
    uint64_t current_lbn(int disk, uint64_t lbn, uint32_t sectors) const { return m_units.drive_lbn(disk, lbn, sectors); }

protected:
    // A read-modify-write stripe as two relocating read-rotate-writes.
    bool read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                  int affinity, int *failed_disk) override;

private:
    floating_units m_units;  // the maps, translation, moves and their statistics
};

}  // namespace raidtlm::controller
