// Which rows of a parity stripe writes torn by a power loss may have left with their data and
// checks disagreeing, and so which sectors of a member missing from such a stripe are lost
// (plain C++; raid_parity_resync.cpp, raid6_firmware.cpp).
//
// A write-intent record names a host range the power may have cut mid-write: in each stripe it
// wrote, in the rows it touched, every data unit written and every check is either old or new,
// independently. A member missing from the stripe (a lost disk, or a new drive its rebuild has
// not reached) is known only as the checks' sum over the others, so in a row:
//   - only the missing unit itself was written: the check gives its old or its new data, each
//     acceptable for a write never acknowledged: nothing is lost;
//   - another data unit was written: that unit and the check may be one old, one new: the
//     missing unit's row is lost (RAID 6: unless two checks agree on it, checked per sector);
//   - two or more data units missing: any written row is lost for each of them.
// With read-rotate-write (controller.rmw), the first rule does not hold: the model's check command
// writes a stand-in that the firmware replaces with the new check once every command is back
// (raid_parity_paths.cpp), so a power loss between the two leaves the check rows holding neither
// the old nor the new check, and the missing unit's own written rows are lost too (before: the
// stand-in was taken for a check and served as data: explorer case 71:197).
// Rows no torn write touched keep their checks consistent: nothing there is lost, however
// wide the missing unit (before, the whole unit was recorded lost, or, for a member being
// rebuilt, the checks were recomputed from the new drive's blank rows: EXPERIMENTS 19.10).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "controller/layouts/parity_stripe_layout.h"
#include "controller/kit/unreadable_sectors.h"

namespace raidtlm::controller {

class torn_stripe_rows {
public:
    // `checks_may_hold_stand_ins`: the writes were (or may have been) read-rotate-writes.
    explicit torn_stripe_rows(const parity_stripe_layout &layout, bool checks_may_hold_stand_ins = false)
        : m_layout(layout), m_checks_may_hold_stand_ins(checks_may_hold_stand_ins) {}

    // A torn write of logical [lbn, lbn + sectors) (a write-intent record's range).
    void add_write(int64_t lbn, int64_t sectors);
    // The stripes the torn writes touched, ascending.
    std::vector<int64_t> stripes() const;
    // Rows (offsets within the unit, ascending runs) of data unit `unit` of `stripe` written.
    std::vector<sector_run> written(int64_t stripe, int unit) const;
    // Rows of each data unit in `missing` (data unit indices of `stripe`) that the stripe's
    // checks cannot give after the torn writes (the rules above), ascending runs.
    std::vector<sector_run> rows_lost(int64_t stripe, const std::vector<int> &missing) const;

private:
    const parity_stripe_layout &m_layout;
    bool m_checks_may_hold_stand_ins;
    std::map<int64_t, std::map<int, std::vector<sector_run>>> m_written;  // stripe -> unit -> runs
};

// Adds [first, first + count) to ascending, merged `runs`.
void add_run(std::vector<sector_run> &runs, uint64_t first, uint64_t count);

}  // namespace raidtlm::controller
