/* jobs.h: a drive's rows of a stripe rebuilt from every other member (the rebuild's stripe
 * units, a MEDIUM ERROR repair's rows). Scratch j->repair_buf: one slot of row1 - row0 sectors
 * per other member, in disk order, then the rebuilt rows. */
#include "elevator.h"
#include "jobs.h"

static uint32_t slot(const struct job *j, uint32_t i) { return RT_BUFFER_ADDRESS(j->repair_buf, i * (j->row1 - j->row0)); }

static uint32_t drive_lbn(const struct job *j) { return j->stripe * map->unit + j->row0; }

void member_rows_read(struct job *j) {
    uint32_t k = 0;
    for (uint32_t d = 0; d < map->disks; ++d) {
        if (d == j->lost) continue;
        ++j->pending;
        elevator_add((uint32_t)(j - jobs), d, 0, drive_lbn(j), j->row1 - j->row0, slot(j, k++));
    }
}

int member_rows_xor(struct job *j) {
    return chain_xor((uint32_t)(j - jobs), j->xor_step++, j->row1 - j->row0, slot(j, map->disks - 1), map->disks - 1,
                     slot, j);
}

void member_rows_write(struct job *j) {
    ++j->pending;
    elevator_add((uint32_t)(j - jobs), j->lost, 1, drive_lbn(j), j->row1 - j->row0, slot(j, map->disks - 1));
}
