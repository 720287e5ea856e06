// RAID 6 firmware (controller.layout: raid6, firmware family raid6): the RAID firmware's host
// command steps, stripe locks, write-intent records and write plans (raid_firmware.h,
// parity_write_plan.h), with a second check Q computed by the XOR engine's GF(2^8)
// multiply-accumulate mode (pq_parity.h, rtl_models/xor/gf256.h), and with controller.raid6_checks 3
// a third, R = sum g^(2j) D_j, computed and timed the same way: m = 2 or 3 checks. Any m members
// of a stripe may be unreadable (lost disks, MEDIUM ERRORs):
//
//   write, healthy stripe   full-stripe: the checks of the host data; reconstruct-write: the rows
//                           the write does not replace read, the checks of the rows;
//                           read-modify-write: old data and old checks read (or
//                           read-rotate-written), then each check C_k' = C_k + sum g^(k j) (old + new)
//   write, degraded stripe  every readable member's rows read, the unreadable data units rebuilt
//                           (one GF command each), the new data laid over them, the checks
//                           recomputed, every writable member written
//   read                    data read directly; an unreadable unit rebuilt from the members its
//                           recovery coefficients name (from P alone when only it is lost);
//                           a MEDIUM ERROR's sectors rebuilt and written back (repair)
//   power loss              every stripe named by an intent record gets its checks recomputed;
//                           rows with data missing (absent, MEDIUM ERROR) rebuilt or recorded
//                           lost (raid6_resync.cpp)
//   rebuild                 a replaced member (start_rebuild) is rebuilt stripe by stripe by the
//                           RAID firmware's paced rebuild_runner, each stripe under its lock (one
//                           GF or XOR command per stripe); stripes below the rebuild's cursor
//                           are the member's, those above it are treated as lost (not read, not
//                           written); a power loss restarts it from stripe 0 (rebuild_runner.h)
//
// m + 1 members of a stripe unreadable: its lost data units' rows are reported lost.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/families/raid/raid_firmware.h"

namespace raidtlm::controller {

struct raid6_statistics {
    uint64_t two_lost_rebuilt_reads = 0;     // reads of a unit rebuilt with two members of its stripe lost
    uint64_t two_lost_stripe_writes = 0;     // stripe writes with two members unreadable
    uint64_t three_lost_rebuilt_reads = 0;   // three checks: ... with three members lost
    uint64_t three_lost_stripe_writes = 0;   // three checks: stripe writes with three members unreadable
    uint64_t q_commands = 0;                 // GF multiply-accumulate commands issued (Q, R and recovery)
    uint64_t resyncs_checks_agreed = 0;      // power-loss resyncs with a data unit lost whose checks agreed
};

class raid6_firmware : public raid_firmware {
public:
    explicit raid6_firmware(firmware_platform &platform);

    bool start_rebuild(int disk) override;
    void reset_statistics() override;
    void report(nlohmann::json &out) const override;
    const raid6_statistics &raid6_stats() const { return m_raid6_stats; }

protected:
    bool stripes_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) override;
    bool stripes_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity) override;
    bool array_degraded() const override;
    bool resync_parity(int64_t stripe, const torn_stripe_rows &torn) override;
    // One attempt of resync_parity (raid6_resync.cpp): the stripe's present members read (the
    // checks only when a data unit is missing somewhere), MEDIUM ERRORs narrowed to their
    // sectors, each row's missing data rebuilt (and compared between checks where it can be),
    // unreadable rows written back and the checks made to agree; `absent`: the stripe's absent
    // members. member_lost: a member was lost meanwhile (judge the stripe again).
    enum class resync_outcome { consistent, rows_lost, member_lost };
    resync_outcome resync_rows(int64_t stripe, const torn_stripe_rows &torn, const std::vector<int> &absent);
    // The rows of `data_units` (of `stripe`) the torn writes made ambiguous recorded lost.
    void note_torn_rows_lost(int64_t stripe, const torn_stripe_rows &torn, const std::vector<int> &data_units);
    bool single_parity() const override { return false; }
    bool rebuild_stripe_unit(int disk, int64_t stripe) override;

    // A healthy stripe's read-modify-write as read-rotate-write commands (the data disks', P's
    // and Q's); floating over RAID 6 (floating_raid6_firmware) moves the units instead.
    virtual bool rrw_pq_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                                     int affinity, const std::vector<int> &media_errors, int *failed_read);
    // Takes the stripe's lock and a work buffer of `sectors` (tokens when `data`); null, with
    // *failed_read = stripe_changed and the lock released, when a member was lost meanwhile.
    protocol::buffer_block *lock_for_write(const stripe_write_plan &plan, uint64_t sectors, bool data,
                                           const std::vector<int> &media_errors, int *failed_read);
    // A stripe's member (0 .. n-1 data units, n P, n + 1 Q, n + 2 R: pq_parity.h) on `disk`, -1: none.
    int member_on_disk(int64_t stripe, int disk) const;
    // Check units per stripe (2 or 3: controller.raid6_checks or floating_checks).
    int checks() const { return m_stripes->check_units(); }
    // Member `member`'s coefficient in check k's sum over a stripe's members when the new check is
    // computed from the old one (read-modify-write): data unit j g^(k j), check k itself 1 (its
    // old value), the other checks 0.
    static uint8_t update_coefficient(int k, int member, int data_units);
    // The GF engine over `inputs` with `coefficients` (counted).
    void combine(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                 const protocol::buffer_ref &output, uint64_t sectors, int affinity);

private:
    // The disks whose unit of `stripe` cannot be read now: failed members, and members being
    // rebuilt whose rebuild has not passed the stripe.
    std::vector<int> lost_disks(int64_t stripe) const;
    // The stripe's unreadable members: lost_disks and the disks that answered MEDIUM ERROR.
    std::vector<int> unreadable_members(int64_t stripe, const std::vector<int> &media_errors) const;
    bool disk_lost(int64_t stripe, int disk) const;
    unit_place member_place(int64_t stripe, int member) const;
    // The members of a stripe on the given disks (at most every member once).
    std::vector<int> members_on(int64_t stripe, const std::vector<int> &disks) const;

    // One stripe's part of a write. `media_errors`: disks that answered MEDIUM ERROR (not read,
    // each rewritten whole over the rows: repaired). On a failed read,
    // *failed_read is set to its disk (the caller retries without it), or to stripe_changed when
    // the stripe's unreadable members changed before its lock was taken (the caller retries).
    static constexpr int stripe_changed = -2;
    bool stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity,
                      const std::vector<int> &media_errors, int *failed_read);
    bool healthy_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                              int affinity, const std::vector<int> &media_errors, int *failed_read);
    bool degraded_stripe_write(const stripe_write_plan &plan, uint64_t host_lbn, protocol::buffer_block *buffer,
                               int affinity, const std::vector<int> &lost_members, const std::vector<int> &media_errors,
                               int *failed_read);
    // One chunk of a read, rebuilt when its disk is unreadable (and written back after a MEDIUM ERROR).
    bool read_chunk(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity);
    // The chunk rebuilt from the members its recovery coefficients name; `repair`: written back.
    bool rebuild_chunk(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, int affinity,
                       const std::vector<int> &lost_members, bool repair, int *failed_read);
    void record_lost_members(int64_t stripe, const std::vector<int> &lost_members);
    // Rows [row, row + rows) of `stripe` found beyond the checks with the disks `media_errors`
    // (MEDIUM ERROR) among its unreadable members: each read again in pieces under the stripe's
    // lock, and only the rows beyond the checks recorded lost, per sector (before: every lost
    // data member's whole unit, or the whole chunk).
    void note_unreadable_rows(int64_t stripe, const std::vector<int> &media_errors, uint64_t row, uint64_t rows);

    raid6_statistics m_raid6_stats;
};

}  // namespace raidtlm::controller
