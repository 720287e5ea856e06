// The parity logging firmware family (controller.firmware: parity_logging; Stodolsky, Holland,
// Courtright, Gibson, "Parity logging"): the write, read, reintegration and failure paths of
// controller.layout parity_logging, on the firmware API and the shared firmware_kit (disk_io,
// parallel, xor_blocks, stripe locks). Layout: parity_logging_layout.h.
//
//   small write (per logical stripe, under its lock): preread the old data (or take it as cached:
//     no preread), the XOR engine makes old ^ new, then in parallel: the new data written, and
//     the update records appended to the region's NVRAM log buffers (NVRAM write timed; blocks
//     while the pool is empty, or the region's log is full and being reintegrated). The host is
//     acknowledged when both are done.
//   large write (a whole logical stripe): the XOR engine makes the new parity from the new data;
//     data written, overwrite records logged (no preread).
//   log write: when a region has K full tracks buffered, a background job appends them to the
//     next sublog (round robin) with one sequential drive command; buffers freed when it is done.
//   reintegration: a writer that finds its region's log full runs it: waits for the region's log
//     writes, takes the buffered records, holds one reintegration buffer (DRAM) from the first
//     read to the last write, reads the parity runs and the sublogs in parallel (or serially:
//     reintegration_plan.h), applies the records (XOR engine time; tokens by
//     parity_reintegrator), writes the parity back and truncates the log. Writers to the region
//     wait meanwhile.
//   reads: the data disks. A write is acknowledged only once the host reads of its sectors that
//     began before it are done (host_read_fence.h).
//   failures (noticed at the next request, which waits for the requests in flight to finish):
//     a data (or parity) disk lost: every region's log applied first (the lost disk's parity runs
//     skipped), then RAID 5 degraded operation: reads rebuild from the row's other members,
//     writes update the parity directly (read-modify-write, or reconstruct-write for the lost
//     disk's data). A region whose sublog is on the lost disk: its parity rebuilt from its data
//     (the log is gone) and, with L > 1, logging goes on with a new empty log on the other
//     sublogs; every other region updates its parity directly until the disk is marked live.
//   C = 2 or 3 checks (controller.parity_logging.checks: P+Q or P+Q+R rows, the log on C copies
//     on distinct disks; layout h): small writes log old ^ new with the data column j,
//     reintegration reads one log copy and applies P ^= record, Q ^= g^j record, R ^= g^2j record
//     (parity_logging_stripe_write.cpp); a power or controller loss recovers as with one check,
//     the checks rebuilt together (parity_logging_pq_rebuild.cpp); with a disk lost, the logs
//     are applied (a lost log disk's sublogs read from another copy) and every write updates the
//     live checks directly (parity_logging_pq_degraded.cpp), reads rebuilt from P; a MEDIUM ERROR
//     is repaired from P as with one check. Further lost disks, up to C in all, need no log work
//     (none is kept once a disk is lost): a row's lost data are rebuilt from its surviving data
//     and checks, a write recomputes its live checks from the row's data
//     (parity_logging_lost_rows.cpp); beyond the checks the rows short of more members than checks
//     are recorded lost and their requests fail (parity_logging_beyond_checks.cpp).
//   rebuild (parity_logging_rebuild.cpp): a replaced member is rebuilt big row by big row by the
//     shared rebuild_runner (paced, checkpointed in NVRAM), each step under the stripe locks of
//     its rows; rows it has not reached count as lost, rows it passed as present; no region logs
//     until every lost member is back, then logging resumes with empty logs.
//   controller state lost (lose_controller_state): buffered records and logs gone; parity of every
//     region written since its last reintegration rebuilt from the data (the others' parity is
//     already current, so the result equals rebuilding all of it; the time does not).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <systemc>

#include "controller/firmware_api/controller_config.h"
#include "controller/kit/firmware_kit.h"
#include "controller/kit/host_read_fence.h"
#include "controller/families/parity_logging/log_buffer_pool.h"
#include "controller/families/parity_logging/parity_log_records.h"
#include "controller/layouts/parity_logging_layout.h"
#include "controller/kit/rebuild/rebuild_runner.h"
#include "controller/families/parity_logging/reintegration_plan.h"
#include "controller/kit/lost_sector_record.h"
#include "controller/kit/sector_ranges.h"
#include "controller/kit/write_intent_log.h"
#include "tlm/dma_command.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

struct parity_logging_statistics {
    uint64_t small_writes = 0;      // logical stripes written by the small-write path
    uint64_t large_writes = 0;      // logical stripes written whole (overwrite records)
    uint64_t update_records = 0;    // sectors
    uint64_t overwrite_records = 0;
    uint64_t log_writes = 0;
    uint64_t log_write_sectors = 0;
    uint64_t partial_log_writes = 0;  // started early because a writer could not get buffers
    uint64_t reintegrations = 0;
    uint64_t serial_reintegrations = 0;
    double reintegration_s = 0;     // sum of durations
    uint64_t blocked_on_pool = 0;   // writers that waited for a free log buffer
    uint64_t blocked_on_reintegration = 0;
    uint64_t parity_rebuilds = 0;   // regions whose parity was rebuilt from data
    uint64_t degraded_writes = 0;   // unit pieces written with direct parity update
    uint64_t rebuilt_reads = 0;     // unit pieces rebuilt from the row's other members
    uint64_t resynced_stripes = 0;  // stripes of writes torn by a power or controller loss
    uint64_t served_again_after_loss = 0;  // host requests whose commands met a member lost meanwhile
    uint64_t media_repairs = 0;     // MEDIUM ERRORs repaired: pieces rebuilt and rewritten, or a region's parity
    uint64_t lost_requests = 0;     // host request pieces failed: their sectors lost beyond the checks
    uint64_t lost_sector_reads = 0;  // host reads refused: they overlap sectors recorded lost
    std::vector<std::pair<int64_t, int32_t>> lost_ranges;  // sectors recorded lost, as noted
};

class parity_logging_firmware final : public kit_firmware {
public:
    explicit parity_logging_firmware(firmware_platform &platform);
    ~parity_logging_firmware() override;

    uint64_t capacity_sectors() const override { return uint64_t(m_layout.capacity_sectors()); }
    const layout *array_layout() const override { return &m_layout; }
    bool serve(const host_command &cmd) override;
    // After a power loss or a controller replaced with its NVRAM module (parity_logging_recovery.cpp):
    // torn log writes and reintegrations repaired, every log reintegrated from the sublogs, the
    // stripes of the writes in flight resynchronised. Returns the regions and stripes recovered.
    size_t restart_after_power_loss() override;
    // A fresh drive in lost member `disk`'s slot: rebuilt by the rebuild_runner
    // (parity_logging_rebuild.cpp); false with more members unavailable than checks.
    bool start_rebuild(int disk) override;
    const rebuild_runner &rebuild() const { return m_rebuild; }
    void report(nlohmann::json &out) const override;

    // Host requests (the calling SC_THREAD blocks); `buffer` holds the request's sectors.
    bool write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // The controller's volatile state and NVRAM log buffers lost (a replaced controller): the logs
    // are dropped and parity rebuilt from data. Blocks; the array must be quiet.
    bool lose_controller_state(int affinity = 0);
    // Every region's log applied to its check images now (buffered records included), as a
    // controller does before a shutdown; tests compare the checks with the data after it.
    // Blocks; the array must be quiet.
    bool reintegrate_all(int affinity = 0);

    const parity_logging_statistics &statistics() const { return m_stats; }
    int peak_buffers_in_use() const { return m_pool.peak_buffers_in_use(); }
    int buffer_tracks() const { return m_pool.capacity(); }
    int64_t reintegration_buffer_sectors() const { return m_reint_sectors; }
    // Simulated time the first reintegration started (s), -1 before any (kept across resets).
    double first_reintegration_s() const { return m_first_reintegration_s; }
    void reset_statistics() override;
    // <prefix>.plog.reintegrating (regions), .buffers_in_use, .log_writes (in flight), .blocked_writers
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix) override;

private:
    parity_logging_firmware(firmware_platform &platform, std::unique_ptr<layout> owned,
                            const parity_logging_config &config);
    static std::unique_ptr<layout> make_layout(const firmware_platform &platform);
    struct region_state {
        bool reintegrating = false;
        int log_writes_in_flight = 0;
        bool log_writer_running = false;
        bool flush = false;  // write the partial track too (the pool ran dry)
        int64_t committed = 0;  // record sectors in the log or its buffers
        std::deque<log_record> buffered;  // not yet in a log write, oldest first
        std::vector<logged_write> writes;  // on the sublogs (or being written), in order
        std::vector<int64_t> fill;  // per sublog, sectors
        int next_sublog = 0;
        // A reintegration found part of the log on a lost disk (before handle_failure ran): the
        // parity misses those records until it is rebuilt from the data.
        bool stale_parity = false;
        // Check image sectors the records of a log dropped so named (stale_parity): the rows a
        // parity rebuild must make again, or record lost when a data member is missing.
        std::vector<int64_t> stale_images;
        // The buffered records' check image sectors while a reintegration applies them (taken out
        // of the buffers; the log directory keeps them): a torn one's stale rows include them.
        std::vector<int64_t> images_being_applied;
        sc_core::sc_event changed;
    };
    struct piece {  // one stripe-unit piece of a request
        int64_t lbn;
        int32_t sectors;
        uint64_t offset;  // in the request's buffer
    };

    bool stripe_write(int64_t stripe, const std::vector<piece> &pieces, protocol::buffer_block *buffer, int affinity);
    bool log_records(int region, std::vector<log_record> records, int affinity);
    void log_writer(int region);
    // A writer cannot get buffers: a log write of unwritten records, partial track included, so
    // no writer waits for buffers that only more records could fill. Global pool: the region with
    // the most unwritten records; static: the writer's own region.
    void flush(int blocked_region);
    bool reintegrate(int region, int affinity);
    // The region's parity from its data, big row by big row, where its log is dropped (torn
    // reintegration, lost sublog, lost controller state). `stale_images`: the check image sectors
    // the dropped log named (nullptr: unknown, every row); a big row with a data member missing
    // cannot be made, and those rows' sectors on the missing members are recorded lost
    // (parity_logging_lost_sectors.cpp).
    bool rebuild_parity(int region, int affinity, const std::vector<int64_t> *stale_images = nullptr);
    // The stripe's parity from its data (a write torn by a power loss touched its rows at the unit
    // offsets `offsets`); with a data member missing, those rows are recorded lost instead.
    bool resync_stripe(int64_t stripe, const std::set<int64_t> &offsets, int affinity);
    // More checks (parity_logging_pq_rebuild.cpp): P, Q (and R) of the region's big rows, or of
    // a logical stripe, from the data; write_checks_from_data does one row of units.
    bool rebuild_checks(int region, int affinity, const std::vector<int64_t> *stale_images);
    // One check, a data read of `data` (the rows' D data extents, of parity.sectors each) that met
    // MEDIUM ERROR: each row's unreadable sectors repaired from the parity where `stale(offset)`
    // says it still describes the row, else recorded lost (lbn_of(column, offset): their logical
    // sectors); the parity made from the data and written (parity_logging_unreadable_rows.cpp).
    bool make_parity_around_unreadable(const std::vector<region_extent> &data, const region_extent &parity,
                                       const std::function<int64_t(int, int64_t)> &lbn_of,
                                       const std::function<bool(int64_t)> &stale, int affinity);
    bool resync_stripe_checks(int64_t stripe, const std::set<int64_t> &offsets, int affinity);
    // Lost sectors (parity_logging_lost_sectors.cpp): rows whose checks cannot be trusted (a log
    // dropped, a write torn) while a data member is missing, or a rebuild step that could not
    // read its row. Reads of them fail until the host writes them again.
    // Whether member `disk`'s rows at drive_lbn (in `region`) are not on its drive: lost and not
    // handled yet, or absent (handled, not rebuilt there).
    bool missing(int disk, int region, int64_t drive_lbn) const {
        return loss_not_handled(disk) || absent(disk, region, drive_lbn);
    }
    // Check image sectors the region's log names now (records written and buffered), with those
    // of logs dropped before (region_state::stale_images).
    std::vector<int64_t> logged_images(int region) const;
    // Big row q of the region: whether a data member is missing, and its rows at the slot
    // offsets of `stale_images` in that big row (all, if nullptr) recorded lost on them.
    bool data_member_missing(int region, int q) const;
    void lose_rows(int region, int q, const std::vector<int64_t> *stale_images);
    void lose_row(int region, int q, int64_t offset);
    void note_lost(int64_t lbn, int32_t sectors);
    bool write_checks_from_data(const std::vector<region_extent> &data, const std::vector<region_extent> &checks,
                                uint64_t n, int affinity);
    // Check k of a row (k < `checks`; `row[i]` holds data column `columns[i]`) into out + k*n:
    // P on the XOR engine, Q and R on its GF mode (g^(k j)); checks for which `made` says false
    // are left out.
    void make_checks(const std::vector<protocol::buffer_ref> &row, const std::vector<int> &columns, int checks,
                     protocol::buffer_ref out, uint64_t n, int affinity,
                     const std::function<bool(int)> &made = nullptr);
    bool degraded_write(const piece &p, protocol::buffer_block *buffer, int affinity);
    // More checks (parity_logging_pq_degraded.cpp): every live check updated directly, RAID 6 style.
    bool degraded_write_checks(const piece &p, protocol::buffer_block *buffer, int affinity);
    bool degraded_read(const piece &p, protocol::buffer_block *buffer, int affinity);
    // More than one lost disk (up to `checks`; parity_logging_lost_rows.cpp): a piece of a lost
    // data column rebuilt from the row's surviving data and checks, and a piece written with
    // every live check recomputed from the row's data (its lost columns rebuilt first).
    // `unreadable`: present members whose read of the row met MEDIUM ERROR, solved like the lost
    // ones; a source that answers MEDIUM ERROR joins them and the row is solved again.
    bool read_lost_row(const piece &p, protocol::buffer_block *buffer, int affinity, std::set<int> unreadable = {});
    bool write_lost_row(const piece &p, protocol::buffer_block *buffer, int affinity);
    bool is_lost(int disk) const { return std::find(m_lost.begin(), m_lost.end(), disk) != m_lost.end(); }
    // A member that left the array (failed, or replaced and rebuilding) whose loss the firmware
    // has not handled yet (catch_up): its rows are neither served from its drive nor taken as
    // absent, since the logs that make the checks current are not applied yet.
    bool loss_not_handled(int disk) const {
        return m_platform.member_state_of(disk) != member_state::optimal && !is_lost(disk);
    }
    // Every drive command of the firmware (firmware_kit::disk_io). A read, or read-rotate-write,
    // of a member whose loss is not handled yet fails before it is sent: the slot may hold a
    // fresh drive already, which would answer with its zeros as data. The request is served
    // again once the loss is handled (serve_across_a_loss). Writes go on, as disk_io's do.
    bool member_io(bool write, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                   uint64_t first_sector, std::vector<uint64_t> *old_tokens = nullptr);
    // Rebuild (parity_logging_rebuild.cpp). A handled lost disk's rows at drive_lbn (in `region`)
    // are absent unless the disk is being rebuilt (or rebuilt) and its rebuild passed them; every
    // other disk's are present.
    bool absent(int disk, int region, int64_t drive_lbn) const;
    // Members not optimal (failed, or rebuilding), ascending: what m_lost follows.
    std::vector<int> unavailable_disks() const;
    // Rebuild unit `unit` (region * M + slot) of member `disk`: the slot's P tracks (one big
    // row) from the row's other members, under the stripe locks of its logical stripes.
    bool rebuild_unit(int disk, uint64_t unit);
    uint64_t rebuild_unit_bytes(int disk, uint64_t unit) const;
    // A rebuild step of big row q onto `disk` failed with no member lost: its sources read one by
    // one, those answering an error (MEDIUM ERROR) added to `unreadable`; false if none is new.
    bool find_unreadable_sources(int region, int q, int disk, std::set<int> &unreadable);
    // The member `member` (data column j < D, or check D + k) of the rows of `n` sectors from
    // logical sector lbn's (offset 0 of its big row) into slot `member` of `work` (D + C slots
    // of n), from the surviving members (`lost` says which are not; parity_logging_lost_rows.cpp).
    bool rebuild_row_member(int64_t lbn, uint64_t n, int member,
                            const std::function<bool(const region_extent &)> &lost, protocol::buffer_block *work);
    // MEDIUM ERROR (parity_logging_media.cpp): the row's other data and parity into `buffer` at
    // p.offset (stripe lock held); a piece rebuilt after the region's log is applied, and
    // rewritten; a host read's piece, repaired when its drive cannot read it; a logical
    // stripe's write, its pieces repaired and written again when its preread met an error.
    bool reconstruct_piece(const piece &p, protocol::buffer_block *buffer, int affinity);
    bool repair_piece(const piece &p, protocol::buffer_block *buffer, int affinity);
    bool read_piece(const chunk &c, const piece &p, protocol::buffer_block *buffer, int affinity);
    // A reintegration's read met MEDIUM ERROR (a check run, a sublog): the checks it could not
    // update are recorded stale (region_state::stale_images) for repair_stale_checks; stale_row
    // says whether lbn's row is among them.
    void note_unread_checks(int region, const std::vector<char> &run_read, const std::vector<char> &sublog_read);
    bool record_unreadable_checks(int region, const std::vector<parity_location> &checks, uint64_t sectors,
                                  const std::vector<char> &unread);
    bool stale_row(int64_t lbn) const;
    bool repair_stale_checks(int affinity);
    bool stripe_write_repairing(int64_t stripe, const std::vector<piece> &pieces, protocol::buffer_block *buffer,
                                int affinity);
    bool handle_failure(int affinity);
    // Before a host request: handles a newly marked disk (after the requests in flight drain) and
    // counts the request active; done() when it returns.
    bool check_failure(int affinity);
    // check_failure's part that brings m_lost up to the members' states (a loss handled, a
    // rebuilt member taken back), without counting a request; the rebuild's steps call it too.
    bool catch_up(int affinity);
    // Whether the region logs: no disk lost, or the lost disk is one of its L > 1 log disks (a new
    // empty log on the other sublogs); else its writes update the parity directly.
    bool logging(int region) const;
    int64_t log_capacity(int region) const;  // record sectors its live sublogs hold
    void done();
    bool write_once(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool read_once(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    // Runs `attempt` past check_failure, again after a member lost during it is handled.
    bool serve_across_a_loss(int affinity, const std::function<bool()> &attempt);
    // Calls done() when a host request that passed check_failure returns.
    struct active_request {
        parity_logging_firmware *firmware;
        ~active_request() { firmware->done(); }
    };
    void wait_region_idle(int region);
    // Whether the region logs with `lost` the handled lost disks (logging() with m_lost).
    bool logs_with(int region, const std::vector<int> &lost) const;
    // Another lost disk (any count, beyond the checks too): the logs of the regions that stop
    // logging applied (or their checks rebuilt where the log is lost), then the rows beyond
    // their checks recorded lost.
    bool handle_another_loss(const std::vector<int> &failed, int affinity);

    // Beyond the checks (parity_logging_beyond_checks.cpp): member sectors whose contents are
    // lost, recorded; rows with more missing members than checks served where they can be.
    bool recorded_lost(const region_extent &e) const;
    // A member's extent of a row holds nothing usable: absent, or recorded lost.
    bool gone(int region, const region_extent &e) const;
    // The row at lbn's offset, `sectors` of each member: data columns, then checks.
    std::vector<region_extent> row_members(int64_t lbn, int64_t sectors) const;
    int gone_in_row(int64_t lbn, int64_t sectors) const;
    // Records lost the member extent e; its data as logical sectors from first_lbn, one unit per
    // lbn_stride (first_lbn < 0: check sectors).
    void record_lost(const region_extent &e, int64_t first_lbn, int64_t lbn_stride);
    // The row's absent members (and its checks, when `checks_too`: they describe it no longer).
    void record_row_lost(int64_t lbn, int64_t sectors, bool checks_too = false);
    // resync_stripe with members missing or recorded lost.
    bool resync_torn_stripe(int64_t stripe, int affinity);
    std::vector<region_extent> big_row_members(int region, int q) const;
    void record_big_row_lost(int region, int q, bool checks_too);
    void record_rows_beyond_checks();  // every big row with more missing members than checks
    bool rebuild_checks_around_losses(int region, int affinity, const std::vector<int64_t> *stale_images = nullptr);
    void drop_log(int region);
    // The region's log dropped and its checks made again from its data (rebuild_parity), the
    // rows the log named kept in the log directory (region_state::stale_images) with the
    // stale_parity flag until the checks are written: a power loss meanwhile has the recovery
    // make them again. false: not all made; the flag stays (stale_row), tried again at a loss.
    bool remake_checks_dropping_log(int region, int affinity);
    bool remake_live_checks(const std::vector<region_extent> &members, const std::vector<bool> &live, int affinity);
    // A read of a piece that cannot be served (recorded lost, or its row beyond its checks).
    bool beyond_checks_read(const piece &p, bool own_absent);
    // A write beyond the checks: -1 not beyond (go on), 0 failed, 1 written (the data alone).
    int beyond_checks_write(const piece &p, protocol::buffer_block *buffer);
    void report_lost(nlohmann::json &out) const;
    // The drive's current tokens of a run, untimed (cached old data).
    void peek(int disk, int64_t lbn, uint32_t sectors, uint64_t *out);

    firmware_platform &m_platform;
    rebuild_runner m_rebuild;  // paced background rebuilds of replaced members (rebuild_runner.h)
    // Units of a rebuilding member done above its cursor (several in flight): present already.
    std::map<int, std::set<uint64_t>> m_rebuilt_ahead;
    std::unique_ptr<layout> m_owned_layout;
    const parity_logging_layout &m_layout;
    parity_logging_config m_config;
    log_buffer_pool m_pool;
    int64_t m_reint_sectors = 0;
    std::vector<region_state> m_regions;
    uint64_t m_next_sequence = 0;
    int m_known_failed = -1;   // the failure the firmware has handled (the first, with more checks)
    std::vector<int> m_lost;   // every lost disk the firmware has handled, ascending
    bool m_recovering = false;
    bool m_checks_repair_due = false;  // a region's checks left stale by an unreadable run or sublog
    sc_core::sc_event m_recovered;
    int m_active = 0;  // host requests inside write()/read() past check_failure
    sc_core::sc_event m_drained;
    sc_core::sc_event m_pool_space;
    protocol::buffer_block m_timing_only;  // a buffer without tokens: time charged, no data
    std::vector<unsigned char> m_scratch;  // bytes written to NVRAM for records
    int64_t m_nvram_base = -1;
    // The host sends data tokens: log writes carry the record images to the drives and
    // reintegration takes them from there (else timing only).
    bool m_carries_tokens = false;
    parity_logging_statistics m_stats;
    // Sectors lost to faults beyond the checks; kept across power losses as md keeps its bad
    // block log on the members. A successful host write of a sector takes it off.
    lost_sector_record m_lost_sectors;
    sector_ranges m_lost_noted;  // every sector ever noted lost (reported once)
    host_read_fence m_read_fence;  // writes acknowledged only after the overlapping earlier reads
    double m_first_reintegration_s = -1;
    std::map<int, sector_ranges> m_lost_on_disk;  // drive sectors per member whose contents are lost
    std::vector<std::pair<int64_t, int32_t>> m_lost_logical;  // their data, logical (the report)
    // Traced.
    waveforms::traced_int m_reintegrating = 0;
    waveforms::traced_int m_buffers_in_use = 0;
    waveforms::traced_int m_log_writes = 0;
    waveforms::traced_int m_blocked = 0;
};

}  // namespace raidtlm::controller
