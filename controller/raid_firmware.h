// The RAID firmware family (controller.firmware: raid): RAID 0 (striped, or JBOD through the host
// address map), RAID 4, RAID 5 and AdaptRaid5 (any parity_stripe_layout), with degraded reads and
// writes when a disk is lost and read-modify-write either as separate reads and writes or as
// read-rotate-write commands.
//
//   host command -> CPU: host_command -> buffer (DRAM) -> write: intent record, host DMA in
//   RAID 0: one drive command per piece, in parallel
//   RAID 4/5 write: per stripe, under its lock: the plan's reads -> XOR engine -> the writes
//   read: the pieces (lost data rebuilt by the XOR engine from the rest of the stripe), host DMA out
//   intent record cleared, request table updated, buffer freed
//
// Every drive command goes through the per-disk queues (disk_queues.h).
#pragma once

#include <cstdint>
#include <memory>

#include "controller/firmware_kit.h"
#include "controller/parity_layout.h"
#include "controller/parity_write_plan.h"

namespace raidtlm::controller {

struct raid_statistics {
    // stripe writes by path (indexed by write_path), reads of a lost disk's data rebuilt
    uint64_t stripe_writes[3] = {0, 0, 0};
    uint64_t rebuilt_reads = 0;
    uint64_t degraded_stripe_writes = 0;
};

class raid_firmware : public kit_firmware {
public:
    explicit raid_firmware(firmware_platform &platform);
    ~raid_firmware() override;

    uint64_t capacity_sectors() const override;
    const layout *array_layout() const override { return m_layout.get(); }
    bool serve(const host_command &cmd) override;
    // The intent records stay in NVRAM (for a parity resync, not modelled yet).
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    void trace(sc_core::sc_trace_file *, const std::string &) override {}

    const raid_statistics &statistics() const { return m_stats; }

protected:
    // One stripe's read-modify-write when the plan asks for read-rotate-write commands.
    virtual bool read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                          protocol::buffer_block *buffer, int affinity);
    // Read-modify-write as read-rotate-write whatever controller.rmw says (floating).
    bool m_always_read_rotate_write = false;

    firmware_platform &m_platform;
    std::unique_ptr<layout> m_layout;  // nullptr: JBOD through m_map
    host_address_map m_map;
    const parity_stripe_layout *m_stripes = nullptr;  // m_layout when it has parity (RAID 4/5, AdaptRaid5)
    const parity_layout *m_parity = nullptr;          // m_layout when it is RAID 4/5
    raid_statistics m_stats;

private:
    bool parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity);
    bool rrw_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity);
    bool degraded_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer,
                               int affinity);
    bool degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
};

}  // namespace raidtlm::controller
