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
// Rows no torn write touched keep their checks consistent: nothing there is lost, however
// wide the missing unit (before, the whole unit was recorded lost, or, for a member being
// rebuilt, the checks were recomputed from the new drive's blank rows: EXPERIMENTS 19.10).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "controller/parity_stripe_layout.h"
#include "controller/unreadable_sectors.h"

namespace raidtlm::controller {

class torn_stripe_rows {
public:
    explicit torn_stripe_rows(const parity_stripe_layout &layout) : m_layout(layout) {}

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
    std::map<int64_t, std::map<int, std::vector<sector_run>>> m_written;  // stripe -> unit -> runs
};

// Adds [first, first + count) to ascending, merged `runs`.
void add_run(std::vector<sector_run> &runs, uint64_t first, uint64_t count);

}  // namespace raidtlm::controller
