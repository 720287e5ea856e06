// Floating data and check at two or three failures (controller.layout: floating, floating_checks:
// 2 or 3): RAID 6 (raid6_firmware, P and Q, or P, Q and R) whose units float within their cylinder,
// as the parity logging paper's Section 9 extends Menon and Kasson's floating data and parity: a
// blind small write is three floated read-rotate-write accesses (data, P, Q), four with R.
// floating_raid6_firmware.cpp has the write, floating_units.h the maps and moves it shares with
// floating over RAID 5 (floating_firmware.h).
#pragma once

#include "controller/families/floating/floating_units.h"
#include "controller/families/raid6/raid6_firmware.h"

namespace raidtlm::controller {

class floating_raid6_firmware final : public raid6_firmware {
public:
    explicit floating_raid6_firmware(firmware_platform &platform);
    ~floating_raid6_firmware() override;
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    const floating_statistics &floating() const { return m_units.statistics(); }
    // Where logical drive LBN `lbn` of `disk` lives now (tests read the drives' raw contents).
    uint64_t current_lbn(int disk, uint64_t lbn, uint32_t sectors) const { return m_units.drive_lbn(disk, lbn, sectors); }

protected:
    // A healthy stripe's read-modify-write as one relocating read-rotate-write per unit.
    bool rrw_pq_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                             int affinity, const std::vector<int> &media_errors, int *failed_read) override;

private:
    floating_units m_units;  // the maps, translation, moves and their statistics
};

}  // namespace raidtlm::controller
