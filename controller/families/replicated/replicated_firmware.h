// The replicated firmware family (controller.firmware: replicated): RAID 1, RAID 10 and the
// SR-Array (SR-Mirror layouts, Yu et al.).
//
//   read: each run of chunks to one holder disk (the idle one closest to a copy, else queued on
//     every holder and cancelled on the others when one disk schedules it), the replica on it
//     picked at dispatch (rlook/rsatf)
//   write: the first copy scheduled like a read; the other copies become delayed writes in the
//     NVRAM delayed-write table, written when their disk's foreground queue is empty (forced to
//     the foreground at the table's threshold); the host is acknowledged once the first copy is
//     on disk and its table entry in NVRAM, in the order the writes were scheduled; the data
//     buffer is kept until the last copy is written. foreground_propagation: every copy before
//     the acknowledgement.
//   power loss: the table (NVRAM) names the stale copies, rewritten from the first write's
//     location; without the table the intent records' ranges are resynchronised.
// Layouts with one copy (SR-Array with Dr*Dm = 1) are served as RAID 0.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "controller/kit/delayed_write_table.h"
#include "controller/kit/firmware_kit.h"
#include "controller/kit/host_read_fence.h"
#include "controller/kit/rebuild/rebuild_runner.h"
#include "controller/kit/lost_sector_record.h"
#include "controller/kit/sector_ranges.h"
#include "controller/kit/write_order_guard.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

struct replicated_statistics {
    uint64_t delayed_writes_issued = 0;      // propagations sent to a drive (delayed or forced)
    uint64_t delayed_writes_superseded = 0;  // pending entries (or parts) dropped by a newer write
    uint64_t delayed_writes_forced = 0;      // propagations forced to the foreground at the threshold
    size_t peak_table_entries = 0;
    int64_t peak_buffered_sectors = 0;       // sectors of data the table's entries keep in buffer DRAM
    uint64_t recovered_copies = 0;           // stale copies rewritten after a power loss
    // Propagations handed out at once because a request found no current copy on a live disk
    // (the newest data were on a lost disk and in the held buffer / NVRAM table only).
    uint64_t delayed_writes_forced_by_loss = 0;
    uint64_t media_retries = 0;  // reads answered MEDIUM ERROR and served from another copy
    uint64_t media_repairs = 0;  // unreadable copies queued for a rewrite from a good one
    // Logical ranges lost with a disk: their newest data were on it only (a second fault).
    std::vector<std::pair<int64_t, int32_t>> lost_ranges;
};

class replicated_firmware final : public kit_firmware {
public:
    explicit replicated_firmware(firmware_platform &platform);
    ~replicated_firmware() override;

    uint64_t capacity_sectors() const override { return uint64_t(m_layout->capacity_sectors()); }
    const layout *array_layout() const override { return m_layout.get(); }
    bool serve(const host_command &cmd) override;
    // Returns the copies the table named stale (or, without it, the copies resynchronised).
    size_t restart_after_power_loss() override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    // <prefix>.nvram.delayed_entries: the delayed-write table's entries.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override;

    // A member rebuilt onto a fresh drive unit by unit (replicated_rebuild.cpp): each unit read
    // from a current copy and written to the new drive's copies.
    bool start_rebuild(int disk) override;
    const rebuild_runner &rebuild() const { return m_rebuild; }
    // The NVRAM delayed-write table (nullptr without delayed propagation).
    const delayed_write_table *delayed_writes() const { return m_table.get(); }
    const replicated_statistics &statistics() const { return m_stats; }

private:
    // A host write's buffer kept for its delayed copies.
    struct held_buffer {
        protocol::buffer_block *buffer = nullptr;
        uint64_t lbn = 0;  // the host write's first logical sector (offset 0 in the buffer)
        bool acknowledged = false;
        int in_flight = 0;  // propagations handed out and not yet done
    };
    // Who reads: the host gets an error for sectors recorded lost, a rebuild step copies its
    // whole unit (its lost sectors stay recorded lost).
    enum class read_purpose { host, rebuild };
    // Reads: each run of chunks to one holder, the replica on it picked at dispatch. With the
    // table, `logical` receives the request's tickets in the logical order (m_logical), released
    // once the read is checked. `buffer_lbn`: the logical sector at offset 0 of `buffer`.
    bool replicated_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, std::vector<uint64_t> *logical,
                         uint64_t buffer_lbn = UINT64_MAX, read_purpose purpose = read_purpose::host);
    // Writes through the delayed-write table; `owner` names the buffer.
    bool replicated_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, uint64_t owner, int affinity,
                          std::vector<uint64_t> *logical);
    // One run of a write: its first copy, the table entry, the acknowledgement order.
    bool write_run(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, uint64_t owner, int affinity,
                   std::vector<uint64_t> *logical, uint64_t epoch);
    // The layout's chunks of a range, consecutive ones merged where every copy continues on its disk.
    void runs_of(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const;
    // Delayed writes of disk d while its foreground queue is empty and a tag is free.
    void serve_delayed(int d);
    void run_propagation(propagation p, bool have_tag);
    void after_table_change();
    // Copies every live replica of [lbn, lbn + sectors) from the first one; returns copies written.
    size_t resync_copies(uint64_t lbn, uint32_t sectors);
    void try_free(uint64_t owner);
    // Learns of lost disks (member_losses): their pending copies are dropped from the table, and
    // data left without a present copy are lost.
    void notice_lost_disk();
    // Drops `disks`' pending copies from the table (they will never be written) and loses what is
    // left without a present copy: a loss's handling.
    void drop_lost_disks(const std::vector<int> &disks);
    // Logical sectors whose data a second fault destroyed: reads of them fail until rewritten.
    void mark_lost(int64_t lbn, int32_t sectors);
    bool overlaps_lost(uint64_t lbn, uint32_t sectors) const;
    // A copy that answered MEDIUM ERROR, rewritten from `source` (delayed_write_table::add_repair).
    void repair_copy(const chunk &c, copy_location source, copy_location bad);
    // A request whose range has no current copy on a live disk: hands out the pending
    // propagations of the range to the live copies and waits for the table to change. False when
    // no live disk holds the range at all.
    bool force_current(const chunk &c, uint64_t epoch);
    // Blocks until no earlier write to the same sectors of its disk is in the guard.
    void wait_turn(uint64_t ticket, uint64_t epoch);

    // ---- members (replicated_rebuild.cpp). A unit: controller.stripe_unit_sectors of the
    // logical space, the new drive's copies of it rebuilt together.
    uint64_t unit_sectors() const;
    uint64_t unit_count() const;
    // The first and last units [lbn, lbn + sectors) lies in.
    std::pair<uint64_t, uint64_t> units_of(int64_t lbn, int32_t sectors) const;
    // Whether `disk`'s copy of [lbn, lbn + sectors) holds the member's data: not failed, and
    // rebuilt there when rebuilding (below the cursor, or a step done ahead of it).
    bool copy_present(int disk, int64_t lbn, int32_t sectors) const;
    // Whether the new drive in `disk`'s slot (rebuilding) holds `unit`: below the cursor, or done ahead.
    bool unit_on_new_drive(int disk, uint64_t unit) const;
    // Some unit of it does (a write's other copies: the rebuilt part must get the new data).
    bool copy_partly_present(int disk, int64_t lbn, int32_t sectors) const;
    // Whether a rebuild step works on a unit of [lbn, lbn + sectors): a write waits for it (the
    // step read the data before the write and writes them after).
    bool rebuild_holds(int64_t lbn, int32_t sectors) const;
    bool rebuild_unit(int disk, uint64_t unit);
    // runs_of, each run within one rebuild unit while a member is rebuilding (a new drive's copy
    // is then either rebuilt or not for the whole run).
    void runs_of_for_write(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const;
    uint64_t rebuild_unit_bytes(int disk, uint64_t unit) const;
    // After a new loss: every unit left without a present copy is lost.
    void lose_ranges_without_copies();
    // Host writes without the table (foreground propagation) write every live copy, the new
    // drive's too: they hold the stripe locks of their units against a rebuild step (true: taken,
    // while a member is rebuilding).
    bool lock_units(uint64_t lbn, uint32_t sectors);
    void unlock_units(uint64_t lbn, uint32_t sectors);

    firmware_platform &m_platform;
    std::unique_ptr<layout> m_layout;
    rebuild_runner m_rebuild;
    // Units a rebuild step is copying now; a multiset, since two members rebuilt at once (RAID 10
    // or RAID 1 with three copies, two drives replaced) may copy the same unit at the same time,
    // and the first step to finish must not let writes past the other.
    std::multiset<uint64_t> m_units_in_rebuild;
    // Units whose step is done while the cursor waits for an earlier step (several units in
    // flight): the new drive holds their data, so writes must keep it up to date there.
    std::map<int, std::set<uint64_t>> m_rebuilt_ahead;
    sc_core::sc_event m_rebuild_step_done;
    bool m_replicated_reads = false;  // copies > 1: reads through replicated_read
    std::unique_ptr<delayed_write_table> m_table;
    int64_t m_nvram_table_base = -1;  // the table's region in NVRAM
    uint64_t m_nvram_slot = 0;
    uint64_t m_superseded_base = 0, m_forced_base = 0;
    std::map<uint64_t, held_buffer> m_held;  // by owner
    uint64_t m_last_owner = 0;               // owners: one per host piece written
    write_order_guard m_guard;    // per disk: writes (and reads) reach a copy in order
    write_order_guard m_logical;  // all disks as one: acknowledgements in the write order
    host_read_fence m_write_fence;  // overlapping host writes (with the table): one at a time, in order
    sc_core::sc_event m_guard_changed;
    sc_core::sc_event m_table_changed;
    std::vector<uint64_t> m_losses_noticed;  // per member: the losses the table has been told of
    // Per member: propagations after a power loss under way towards it. They read their source
    // before they take the member's tag, so the tags alone do not bound them (serve_delayed).
    std::vector<int> m_foreground_copies;
    lost_sector_record m_lost_sectors;  // few: only sectors lost to a second fault
    waveforms::traced_int m_table_entries = 0;  // traced: the delayed-write table's entries
    replicated_statistics m_stats;
};

}  // namespace raidtlm::controller
