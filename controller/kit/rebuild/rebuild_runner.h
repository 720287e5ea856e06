// A firmware's rebuild of members onto replacement drives (on the firmware API): one background
// thread per member being rebuilt walks its units in order (rebuild_cursor.h), each unit
// reconstructed onto the new drive by the family's job (which takes the locks it needs), paced
// against foreground I/O by controller.rebuild_share / rebuild_rate_mb_s (rebuild_pacing.h),
// reporting its progress to the platform and, at the end, member_rebuilt. The family asks
// present(disk, unit) to know whether a member's unit holds the member's data now.
//
// The cursor is checkpointed in NVRAM after every unit (24 bytes a member: a tag, the rebuild's
// number, the first unit not yet rebuilt), as controllers resume a rebuild after a reboot (LSI
// MegaRAID's "rebuild resumes after a power cycle", Linux md's recovery_start/bitmap): after a
// power loss the family calls restart_all() and every rebuild goes on from its checkpoint. A
// checkpoint of another rebuild, or none (the NVRAM full), starts it again from its first unit
// (slower, never wrong: writes keep the new drive's rows right).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "controller/firmware_api/firmware_api.h"
#include "controller/kit/rebuild/rebuild_cursor.h"

namespace raidtlm::controller {

struct rebuild_statistics {
    uint64_t started = 0, finished = 0, restarts = 0;
    uint64_t resumed = 0;           // restarts that went on from an NVRAM checkpoint
    uint64_t units_not_redone = 0;  // units those restarts did not rebuild again
    uint64_t units_rebuilt = 0;  // units reconstructed onto a new drive
    uint64_t units_lost = 0;     // units the job could not rebuild (a second loss in the stripe)
    uint64_t bytes_rebuilt = 0;
    double busy_ms = 0;          // time in the units' jobs
    double idle_ms = 0;          // pauses the pacing put between them
};

class rebuild_runner {
public:
    // Rebuilds unit `unit` of member `disk` onto its new drive; false: it could not (the unit's
    // data are lost; the family records them), the rebuild goes on.
    using unit_job = std::function<bool(int disk, uint64_t unit)>;
    // Bytes of the member that unit `unit` rebuilds (0: none on this member).
    using unit_size = std::function<uint64_t(int disk, uint64_t unit)>;

    rebuild_runner(firmware_platform &platform, unit_job job, unit_size size);

    // Starts rebuilding `disk` (the platform marked it rebuilding) over `units` units.
    void start(int disk, uint64_t units);
    // Whether member `disk`'s unit holds its data: optimal yes, failed no, rebuilding when the
    // cursor has passed it or its step is done ahead of the cursor.
    bool present(int disk, uint64_t unit) const;
    // The cursor of a member being rebuilt (nullptr: none).
    const rebuild_cursor *cursor(int disk) const;
    // After a power loss (the threads are gone): every rebuilding member from its checkpoint.
    // restart_all() = resume_all() then start_all(); a family that must judge its stripes by
    // the cursors before any rebuild step runs (a torn stripe the new drive has not reached:
    // raid_parity_resync.cpp) calls the two halves around that work.
    void restart_all();
    // The cursors of the rebuilding members taken from their NVRAM checkpoints (what the firmware
    // knows after a restart; the volatile cursor may be a step ahead), no thread started.
    void resume_all();
    // A thread for every rebuilding member, going on from its cursor.
    void start_all();

    const rebuild_statistics &statistics() const { return m_stats; }
    void reset_statistics() { m_stats = {}; }
    // firmware.rebuild in stats.json.
    void report(nlohmann::json &out) const;

private:
    // A member's rebuild: controller.rebuild_units_in_flight workers claiming units in order.
    void run(int disk, uint64_t generation);
    void work(int disk, uint64_t generation);
    // The member's cursor into its NVRAM checkpoint (timed; the calling thread waits).
    void checkpoint(int disk);

    firmware_platform &m_platform;
    unit_job m_job;
    unit_size m_size;
    struct member_rebuild {
        rebuild_cursor cursor;
        uint64_t generation = 0;  // a restart's thread replaces the one before
        uint64_t rebuild_number = 0;           // which rebuild of the member (its checkpoint's)
        int64_t checkpoint_address = -1;       // in NVRAM; -1: none
        uint64_t next_claim = 0;               // the next unit a worker takes
        std::set<uint64_t> done_ahead;         // units done above the cursor (several in flight)
        int workers = 0;                       // workers still running
    };
    std::map<int, member_rebuild> m_members;
    rebuild_statistics m_stats;
};

}  // namespace raidtlm::controller
