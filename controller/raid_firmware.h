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
#include <utility>
#include <vector>

#include "controller/firmware_kit.h"
#include "controller/parity_layout.h"
#include "controller/parity_write_plan.h"
#include "controller/write_order_guard.h"

namespace raidtlm::controller {

struct raid_statistics {
    // stripe writes by path (indexed by write_path), reads of a lost disk's data rebuilt
    uint64_t stripe_writes[3] = {0, 0, 0};
    uint64_t rebuilt_reads = 0;
    uint64_t degraded_stripe_writes = 0;
    uint64_t resynced_stripes = 0;
    uint64_t media_repairs = 0;  // chunks rebuilt from redundancy after a MEDIUM ERROR and rewritten
    // Logical ranges lost: a stripe torn by a power loss while a disk was already lost.
    std::vector<std::pair<int64_t, int32_t>> lost_ranges;
};

class raid_firmware : public kit_firmware {
public:
    explicit raid_firmware(firmware_platform &platform);
    ~raid_firmware() override;

    uint64_t capacity_sectors() const override;
    const layout *array_layout() const override { return m_layout.get(); }
    bool serve(const host_command &cmd) override;
    // RAID 4/5: the parity of every stripe a write-intent record names is resynchronised from
    // its data before serving again (raid_parity_resync.cpp); returns the stripes resynchronised.
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
    // A write waits, before it is acknowledged, for every host read of its range that began
    // before it wrote (such a read may still return the old data, which must not come back after
    // the acknowledgement): floating moves, and degraded stripes, whose reads wait on stripe
    // locks chunk by chunk. Reads are in m_reads for their whole life.
    void wait_for_earlier_reads(int64_t logical_lbn, int64_t sectors);
    // A parity array's host writes and reads (RAID 4/5, AdaptRaid5 here; RAID 6 overrides them),
    // and whether it is degraded now (a write then waits for earlier reads of its range).
    virtual bool stripes_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    virtual bool stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    virtual bool array_degraded() const { return m_platform.failed_disk() >= 0; }
    // One stripe's checks rewritten from its data (under the stripe lock): power-loss resync.
    virtual bool resync_parity(int64_t stripe);
    void note_lost_range(int64_t lbn, int32_t sectors);  // once each
    write_order_guard m_reads;  // host reads in flight, by logical range (one "disk": 0)
    sc_core::sc_event m_reads_changed;
    int m_order_waiters = 0;  // writes inside wait_for_earlier_reads: only they need m_reads_changed

    firmware_platform &m_platform;
    std::unique_ptr<layout> m_layout;  // nullptr: JBOD through m_map
    host_address_map m_map;
    const parity_stripe_layout *m_stripes = nullptr;  // m_layout when it has parity (RAID 4/5, AdaptRaid5)
    const parity_layout *m_parity = nullptr;          // m_layout when it is RAID 4/5
    raid_statistics m_stats;

private:
    bool parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // `unreadable` (set): the disk whose read answered MEDIUM ERROR, when one did.
    bool stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity,
                      int *unreadable = nullptr);
    bool rrw_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity);
    // A stripe write with disk `lost` unreadable: rebuilt from the others; `write_lost`: the disk is
    // there (a MEDIUM ERROR), so its rows are written too, which repairs them.
    bool degraded_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer,
                               int affinity, int lost, bool write_lost);
    // The lost disk's unit of a stripe whose rebuild failed (a second fault): into lost_ranges.
    void record_lost_stripe_rows(int64_t stripe, int lost);
    bool degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool read_repairing(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // One chunk's data rebuilt from the rest of its stripe as if `lost` were lost; `rewrite`: the
    // rebuilt data written back to `lost` under the same stripe lock.
    bool rebuild_chunk(const chunk &c, uint64_t lbn, protocol::buffer_block *buffer, int lost, bool rewrite,
                       int affinity);
};

}  // namespace raidtlm::controller
