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
#include <functional>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "controller/kit/firmware_kit.h"
#include "controller/kit/host_read_fence.h"
#include "controller/kit/lost_sector_record.h"
#include "controller/kit/lost_stripe_runs.h"
#include "controller/layouts/parity_layout.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/kit/rebuild/rebuild_runner.h"
#include "controller/kit/sector_ranges.h"
#include "controller/kit/torn_stripe_rows.h"

namespace raidtlm::controller {

struct raid_statistics {
    // stripe writes by path (indexed by write_path), reads of a lost disk's data rebuilt
    uint64_t stripe_writes[3] = {0, 0, 0};
    uint64_t rebuilt_reads = 0;
    uint64_t degraded_stripe_writes = 0;
    uint64_t resynced_stripes = 0;
    uint64_t media_repairs = 0;  // chunks rebuilt from redundancy after a MEDIUM ERROR and rewritten
    // Host requests failed because they touch a stripe that lost two members, or read lost sectors.
    uint64_t lost_stripe_requests = 0;
};

class raid_firmware : public kit_firmware {
public:
    explicit raid_firmware(firmware_platform &platform);
    ~raid_firmware() override;

    uint64_t capacity_sectors() const override;
    const layout *array_layout() const override { return m_layout.get(); }
    bool serve(const host_command &cmd) override;
    // The sectors lost to a second fault outside the lost stripes and not written since (memory:
    // its ranges).
    const sector_ranges &lost_sectors() const { return m_lost_sectors.current(); }
    // Every logical range lost in the run (whether written since or not), merged, in address
    // order, as [first sector, sectors]: the noted ranges (a stripe torn by a power loss while a
    // disk was already lost, rows a rebuild source could not give, ...) and the data units the
    // lost stripes had on their absent members. stats.json's lost_ranges (lost_range_report.h).
    std::vector<std::pair<int64_t, int64_t>> lost_ranges() const;
    // RAID 4/5: the parity of every stripe a write-intent record names is resynchronised from
    // its data before serving again (raid_parity_resync.cpp); returns the stripes resynchronised.
    size_t restart_after_power_loss() override;
    // RAID 4/5, AdaptRaid5: the member rebuilt stripe by stripe onto the new drive
    // (raid_rebuild.cpp); RAID 0 has nothing to rebuild from.
    bool start_rebuild(int disk) override;
    // Stripes that lost two members (requests touching them fail), as runs.
    const lost_stripe_runs &lost_stripes() const { return m_lost_stripes; }
    const rebuild_runner &rebuild() const { return m_rebuild; }
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    void trace(sc_core::sc_trace_file *, const std::string &) override {}

    const raid_statistics &statistics() const { return m_stats; }

protected:
    // One stripe's read-modify-write when the plan asks for read-rotate-write commands. When one
    // of them fails, the stripe is left as it was before the write and *failed_disk (when given)
    // names the disk whose command failed.
    virtual bool read_rotate_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn,
                                          protocol::buffer_block *buffer, int affinity, int *failed_disk);
    // Read-modify-write as read-rotate-write whatever controller.rmw says (floating).
    bool m_always_read_rotate_write = false;
    // A write waits, before it is acknowledged, for every host read of its range that began
    // before it wrote (such a read may still return the old data, which must not come back after
    // the acknowledgement): every host write (serve), and floating's moved units. Reads are in
    // m_order from the end of their wait for earlier writes to their completion.
    void wait_for_earlier_reads(int64_t logical_lbn, int64_t sectors) {
        m_order.wait_for_earlier_reads(m_platform, logical_lbn, sectors);
    }
    // A parity array's host writes and reads (RAID 4/5, AdaptRaid5 here; RAID 6 overrides them),
    // and whether it is degraded now.
    virtual bool stripes_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    virtual bool stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    virtual bool array_degraded() const { return !all_optimal(); }
    // One check per stripe (RAID 4/5, AdaptRaid5): a stripe missing two members is lost, and
    // the RAID 4/5 rebuild (raid_rebuild.cpp) runs. RAID 6 says false and keeps its own.
    virtual bool single_parity() const { return true; }
    // Rebuild job (m_rebuild's): member `disk`'s unit of `stripe` reconstructed from the others
    // and written (raid_rebuild.cpp; RAID 6 overrides it).
    virtual bool rebuild_stripe_unit(int disk, int64_t stripe);
    rebuild_runner m_rebuild;  // paced background rebuilds of replaced members (rebuild_runner.h)
    // One stripe's checks rewritten from its data (under the stripe lock): power-loss resync;
    // with a member missing from it, the rows `torn` makes ambiguous recorded lost instead.
    virtual bool resync_parity(int64_t stripe, const torn_stripe_rows &torn);
    // One attempt of resync_parity (a member lost during it: resync_parity judges the stripe again).
    bool resync_stripe(int64_t stripe, const torn_stripe_rows &torn);
    // Data units of a stripe being resynchronised whose reads answered MEDIUM ERROR
    // (`unreadable`[j]): narrowed to their unreadable rows, those rows lost where P cannot give
    // them after the torn writes, and every one
    // written back as the old P XOR the other units (raid_parity_resync.cpp); the caller then
    // writes the checks computed from the data. Sector offsets in `work`: data unit j at
    // first_data + j * unit (read there by the caller), the old P read to old_parity, a unit of
    // scratch. False: a member was lost meanwhile.
    struct resync_slots {
        uint64_t first_data;
        uint64_t old_parity;
        uint64_t scratch;
    };
    bool resync_unreadable_rows(int64_t stripe, const torn_stripe_rows &torn, const std::vector<char> &unreadable,
                                protocol::buffer_block *work, const resync_slots &slots);
    void note_lost_range(int64_t lbn, int32_t sectors);
    // A read of rows [row, row + rows) of a stripe missing `absent` (whole units) failed on some
    // survivors (`unreadable`: each with where its rows were read to, reused here): each is read
    // again in pieces (unreadable_sectors.h), and a row where the absent members and the survivors
    // unreadable there exceed the stripe's checks is lost on every data unit among them,
    // sector by sector (before: the whole chunk or unit). False (nothing recorded): a member was
    // lost meanwhile, for the caller to plan again.
    struct survivor_read {
        int disk;
        uint64_t drive_lbn;  // of the first row
        protocol::buffer_block *buffer;
        uint64_t first_sector;
    };
    bool note_rows_beyond_checks(int64_t stripe, const std::vector<int> &absent,
                                 const std::vector<survivor_read> &unreadable, uint64_t row, uint64_t rows);
    // Whether the members absent from `stripe` now are at most `lost` (-1: none), as the plan made
    // before the stripe's lock assumed: a member lost (perhaps replaced by a fresh, empty drive)
    // while the plan waited for the lock must not be read as if it held its data. Checked once
    // the lock and the work buffer are held; false: the caller gives both back and plans again.
    bool absent_as_planned(int64_t stripe, int lost) const;
    host_read_fence m_order;  // host requests in flight by logical range: served and acknowledged in the order they began

    firmware_platform &m_platform;
    std::unique_ptr<layout> m_layout;  // nullptr: JBOD through m_map
    host_address_map m_map;
    const parity_stripe_layout *m_stripes = nullptr;  // m_layout when it has parity (RAID 4/5, AdaptRaid5)
    const parity_layout *m_parity = nullptr;          // m_layout when it is RAID 4/5
    raid_statistics m_stats;

private:
    // The host pieces' size and the work buffers beside them (host_pieces.h).
    void plan_host_pieces();
    // One piece of a host command (firmware_kit::serve_pieces): the layout's read or write.
    bool serve_range(const host_command &piece, protocol::buffer_block *buffer);
    bool parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // `unreadable` (set): the disk whose read answered MEDIUM ERROR, when one did.
    bool stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity,
                      int *unreadable = nullptr);
    bool rrw_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity,
                          int *failed_disk);
    // A stripe write with disk `lost` unreadable: rebuilt from the others; `write_lost`: the disk is
    // there (a MEDIUM ERROR, or a new drive being rebuilt), so its rows are written too.
    bool degraded_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer,
                               int affinity, int lost, bool write_lost);
    // The lost disk's unit of a stripe whose write failed (a second fault): into lost_ranges.
    void record_lost_stripe_rows(int64_t stripe, int lost);
    // Rows [row, row + rows) of `disk`'s unit in `stripe` into lost_ranges when it holds data.
    void note_lost_rows(int64_t stripe, int disk, uint64_t row, uint64_t rows);
    bool degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool read_repairing(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // One chunk's data rebuilt from the rest of its stripe as if `lost` were lost; `rewrite`: the
    // rebuilt data written back to `lost` under the same stripe lock.
    bool rebuild_chunk(const chunk &c, uint64_t lbn, protocol::buffer_block *buffer, int lost, bool rewrite,
                       int affinity);
    // ---- members (raid_rebuild.cpp)
    // The members with a unit in `stripe` whose unit does not hold their data now: failed, or
    // rebuilding and not yet rebuilt there.
    void absent_in_stripe(int64_t stripe, std::vector<int> &out) const;
    // A member lost since the last look: every stripe now missing two members is lost.
    void notice_losses();
    void lose_stripe(int64_t stripe, const std::vector<int> &absent);
    // Whether [lbn, lbn + sectors) touches a lost stripe.
    bool touches_lost_stripe(uint64_t lbn, uint32_t sectors) const;
    uint64_t rebuild_unit_bytes(int disk, int64_t stripe) const;
    int64_t stripe_count() const;
    bool all_optimal() const;

    // Calls f(first, end) for every lost range of lost_ranges(), merged, in address order, one
    // at a time (the report builds from it without holding them).
    void for_each_lost_range(const std::function<void(int64_t, int64_t)> &f) const;

    std::vector<int> m_known_failed;  // the failed members at the last look
    // Stripes that lost two members, with the members: their data units on those are lost (not
    // noted range by range: a RAID 5 that lost two disks has lost two thirds of its sectors).
    lost_stripe_runs m_lost_stripes;
    // Stripes a rebuild step holds: whether a loss during it lost them is the step's to say
    // (its reads may all have been done before the loss).
    std::set<int64_t> m_stripes_in_rebuild;
    sector_ranges m_lost_noted;  // every range note_lost_range noted in the run, merged
    // The sectors of lost_ranges not written since (few: only sectors lost to a second fault).
    // Reads of them fail rather than return what a stale parity rebuilds; a write makes them
    // good again (a degraded write computes the stripe's redundancy from the new data).
    lost_sector_record m_lost_sectors;
    bool overlaps_lost_sectors(uint64_t lbn, uint32_t sectors) const;
};

}  // namespace raidtlm::controller
