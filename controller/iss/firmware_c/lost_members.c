/* jobs.h: which members a job serves as lost. The firmware keeps its own set of failed members,
 * as real firmware does: FAILED_DISK names one member only (the controller's latest), so a second
 * member lost before the first one's fresh drive is taken would otherwise be read (its blank
 * drive served as data, or a stripe planned around one missing member read from the other). A
 * member joins the set on evidence: a command its drive failed (not MEDIUM ERROR, not one the
 * elevator refused itself), a superblock at boot that is not current (members.c), a fresh drive
 * offered in its slot while another rebuild runs (rebuild.c), its rebuild's new drive failing;
 * it leaves the set when the rebuild takes its fresh drive, from where the rebuild's cursor says
 * which stripes hold it. FAILED_DISK counts as well while it names a member (the controller's
 * report, read again each time). */
#include "elevator.h"
#include "jobs.h"
#include "lost_ranges.h"
#include "rebuild.h"

static uint32_t failed_members; /* bit d: member d's drive is failed (a fresh one not yet taken) */

static uint32_t stripes(void) { return map->capacity_sectors / (map->data_disks * map->unit); }

int member_known_failed(uint32_t disk) { return disk < 32 && (failed_members >> disk & 1u); }

/* The member FAILED_DISK names, if it is one not being rebuilt (RT_NO_DISK: none). */
static uint32_t reported_failed;

/* A failed member other than `except` (RT_NO_DISK: none): the reported one first. */
static uint32_t failed_other_than(uint32_t except) {
    if (reported_failed != RT_NO_DISK && reported_failed != except) return reported_failed;
    if (!(failed_members & ~(except < 32 ? 1u << except : 0u))) return RT_NO_DISK;  /* the usual case */
    for (uint32_t d = 0; d < map->disks; ++d)
        if (d != except && member_known_failed(d)) return d;
    return RT_NO_DISK;
}

/* FAILED_DISK as it reads now: a member not being rebuilt, or RT_NO_DISK. */
static uint32_t read_reported(void) {
    const uint32_t reported = REG(RT_SYS_BASE, RT_SYS_FAILED_DISK);
    return reported < map->disks && reported != rebuild_member() ? reported : RT_NO_DISK;
}

void member_failed(uint32_t disk) {
    if (map->layout != RT_LAYOUT_RAID5 || disk >= map->disks || member_known_failed(disk)) return;
    /* A member being rebuilt keeps its place (rebuild.c stops its rebuild when its own command to
     * the new drive fails); the others: a second member missing beyond RAID 5's one. */
    if (disk == rebuild_member()) return;
    uint32_t other = RT_NO_DISK;
    for (uint32_t d = 0; d < map->disks && other == RT_NO_DISK; ++d)
        if (d != disk && member_known_failed(d)) other = d;
    if (other == RT_NO_DISK) {
        other = read_reported();
        if (other == disk) other = RT_NO_DISK;
        if (other != RT_NO_DISK) failed_members |= 1u << other;  /* two missing: both for good */
    }
    failed_members |= 1u << disk;
    if (other == RT_NO_DISK) return;
    /* Two members missing in every stripe: their data units cannot be rebuilt from anything, and
     * are recorded lost, each member's as one run (lost_ranges.h); reads of them fail. */
    lost_add_units(0, stripes(), disk);
    lost_add_units(0, stripes(), other);
}

void member_taken(uint32_t disk) {
    if (disk < 32) failed_members &= ~(1u << disk);
}

/* FAILED_DISK read again. Naming a member while the set holds another: two missing, a second
 * member lost for good (member_failed records what is lost). */
static void note_reported_failure(void) {
    reported_failed = RT_NO_DISK;
    if (map->layout != RT_LAYOUT_RAID5) return;
    const uint32_t reported = read_reported();
    if (reported == RT_NO_DISK) return;
    if (failed_members & ~(1u << reported)) member_failed(reported);
    reported_failed = reported;
}

/* The drive the job serves as lost: a failed member, else the member being rebuilt, lost in the
 * stripes the rebuild has not reached. */
void take_lost(struct job *j) {
    note_reported_failure();
    j->lost = map->layout == RT_LAYOUT_RAID5 ? failed_other_than(RT_NO_DISK) : RT_NO_DISK;
    j->partial = 0;
    if (j->lost == RT_NO_DISK && map->layout == RT_LAYOUT_RAID5 && rebuild_member() != RT_NO_DISK) {
        j->lost = rebuild_member();
        j->partial = 1;
        j->lost_from = rebuild_cursor(j->lost);
    }
}

/* Beyond RAID 5's promise: two members missing in `stripe`: two failed members, or one failed
 * member while another is rebuilt and the rebuild has not reached the stripe. */
static int two_missing(uint32_t stripe) {
    const uint32_t failed = failed_other_than(RT_NO_DISK);
    if (failed == RT_NO_DISK) return 0;
    if (failed_other_than(failed) != RT_NO_DISK) return 1;
    const uint32_t rebuilding = rebuild_member();
    return rebuilding != RT_NO_DISK && rebuilding != failed && stripe >= rebuild_cursor(rebuilding);
}

int drive_lost_under(const struct job *j, const struct elevator_command *command, uint32_t status) {
    if (map->layout != RT_LAYOUT_RAID5) return 0;
    const uint32_t disk = command->disk;
    /* A drive that stopped answering (not MEDIUM ERROR; neither a command the elevator refused
     * nor one sent to a drive since replaced): its member is failed, whatever FAILED_DISK names. */
    const int member_gone = status == RT_STATUS_ERROR && !command->stale_drive && !command->refused;
    if (member_gone) member_failed(disk);
    /* A failure from a drive the job did not know was lost (the failed-drive register names one
     * now): RAID 5 survives one lost drive. */
    if (REG(RT_SYS_BASE, RT_SYS_FAILED_DISK) != RT_NO_DISK && (j->lost == RT_NO_DISK || j->partial)) return 1;
    /* A second member the job did not plan around: planned again (and failed when two are
     * missing in its stripes: continue_degraded). */
    if (member_gone && disk != j->lost && member_known_failed(disk)) return 1;
    /* Lost and already replaced: the member is being rebuilt onto a fresh drive now. */
    return status == RT_STATUS_ERROR && j->lost == RT_NO_DISK && disk == rebuild_member();
}

/* FAILED_DISK as take_lost, just before, read it. A command that touches such a stripe fails (what is lost there is recorded: rebuild.h, above). */
int two_missing_in(uint32_t stripe) {
    /* No member in the set and none being rebuilt: FAILED_DISK alone names one member at most. */
    if (map->layout != RT_LAYOUT_RAID5 || (!failed_members && rebuild_member() == RT_NO_DISK)) return 0;
    note_reported_failure();
    return two_missing(stripe);
}

int beyond_redundancy(const struct job *j) {
    if (map->layout != RT_LAYOUT_RAID5) return 0;
    if (!failed_members && reported_failed == RT_NO_DISK) return 0;
    const uint32_t stripe_sectors = map->data_disks * map->unit;
    for (uint32_t s = j->lbn / stripe_sectors; s <= (j->lbn + j->sectors - 1) / stripe_sectors; ++s)
        if (two_missing(s)) return 1;
    return 0;
}
