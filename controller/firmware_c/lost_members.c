/* jobs.h: which members a job serves as lost, from what the controller reports (FAILED_DISK)
 * and the rebuild's cursor. */
#include "jobs.h"
#include "rebuild.h"

/* The drive the job serves as lost: the failed one (FAILED_DISK), else the member being rebuilt,
 * lost in the stripes the rebuild has not reached. */
void take_lost(struct job *j) {
    j->lost = map->layout == RT_LAYOUT_RAID5 ? REG(RT_SYS_BASE, RT_SYS_FAILED_DISK) : RT_NO_DISK;
    j->partial = 0;
    if (j->lost == RT_NO_DISK && map->layout == RT_LAYOUT_RAID5 && rebuild_member() != RT_NO_DISK) {
        j->lost = rebuild_member();
        j->partial = 1;
    }
}

/* Beyond RAID 5's promise: a member missing (FAILED_DISK) while another is rebuilt. In the
 * stripes the rebuild has not reached two units of every stripe are missing; a command that
 * touches them fails (the rebuild records what is lost there: rebuild.h). */
int beyond_redundancy(const struct job *j) {
    const uint32_t rebuilding = map->layout == RT_LAYOUT_RAID5 ? rebuild_member() : RT_NO_DISK;
    if (rebuilding == RT_NO_DISK) return 0;
    const uint32_t failed = REG(RT_SYS_BASE, RT_SYS_FAILED_DISK);
    if (failed == RT_NO_DISK || failed == rebuilding) return 0;
    return (j->lbn + j->sectors - 1) / (map->data_disks * map->unit) >= rebuild_cursor(rebuilding);
}
