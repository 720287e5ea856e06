/* media.h. A repairing job keeps the drive in j->lost (partial 0) while it serves it as lost;
 * the repair of a stripe uses a scratch buffer of its own (REPAIR_BUFFER): the other members'
 * rows, then the rebuilt rows. */
#include "media.h"

#include "elevator.h"

static int repair_state(const struct job *j) {
    return j->state == R_REPAIR || j->state == W5_REPAIR_READ || j->state == W5_REPAIR_WRITE;
}

/* The job planned around the member being rebuilt, and the rebuild had passed every stripe this
 * phase touches: the member holds its data there, so a MEDIUM ERROR is the stripes' one fault. */
static int phase_rebuilt(const struct job *j) {
    if (!j->partial) return 0;
    const uint32_t last = j->state == W5_READ ? j->stripe : (j->lbn + j->sectors - 1) / (map->data_disks * map->unit);
    return last < j->lost_from;
}

int media_error_taken(struct job *j, uint32_t disk, uint32_t status) {
    if (repair_state(j)) {  /* the rows stay unreadable; the data are served from the others */
        j->repair_failed = 1;
        return 1;
    }
    if (status != RT_STATUS_MEDIUM_ERROR || map->layout != RT_LAYOUT_RAID5 ||
        (j->lost != RT_NO_DISK && !phase_rebuilt(j)) ||
        (j->state != R_DISK && j->state != W5_READ) || (j->media_disk != RT_NO_DISK && j->media_disk != disk))
        return 0;
    j->media_disk = disk;
    return 1;
}

void media_error_continue(struct job *j) {
    j->lost = j->media_disk;
    j->partial = 0;
    j->media_disk = RT_NO_DISK;
    j->repairing = 1;
    j->repair_failed = 0;
    if (j->state == R_DISK) {
        /* Again with room to rebuild every piece of the drive (on_buffer takes the range's locks). */
        release(j->buf);
        j->state = R_ALLOC;
        allocate(j, j->sectors + (map->disks - 1) * j->sectors, 0);
        return;
    }
    release(j->tmp);
    stripe_begin(j);  /* the stripe's lock is still held: planned again around the drive */
}

int media_rewrite_pieces(struct job *j) {
    const uint32_t end = j->lbn + j->sectors;
    uint32_t sectors = 0;
    j->state = R_REPAIR;
    for (uint32_t at = j->lbn; at < end;) {
        uint32_t n = map->unit - at % map->unit;
        if (n > end - at) n = end - at;
        const struct place p = array_data_place(map, at);
        if (p.disk == j->lost) {
            ++j->pending;
            elevator_add((uint32_t)(j - jobs), p.disk, 1, p.lbn, n, RT_BUFFER_ADDRESS(j->buf, at - j->lbn));
            sectors += n;
        }
        at += n;
    }
    j->repair_buf = sectors;  /* a read's repair needs no buffer: the count for REPAIRED */
    return sectors > 0;
}

void media_repair_stripe(struct job *j) {
    j->state = W5_REPAIR_ALLOC;
    allocate(j, map->disks * (j->row1 - j->row0), REPAIR_BUFFER);
}

void media_on_buffer(struct job *j, uint32_t handle) {
    j->repair_buf = handle;
    j->state = W5_REPAIR_READ;
    member_rows_read(j);
}

void media_on_xor(struct job *j) {
    if (member_rows_xor(j)) return;
    j->state = W5_REPAIR_WRITE;
    member_rows_write(j);
}

static void repair_over(struct job *j) {
    j->repairing = 0;
    j->lost = RT_NO_DISK;  /* only a job that knew no lost drive repairs */
    j->partial = 0;
}

void media_on_scsi_done(struct job *j) {
    switch (j->state) {
    case R_REPAIR:
        if (!j->repair_failed) REG(RT_SYS_BASE, RT_SYS_REPAIRED) = j->repair_buf;
        j->repairing = 0;  /* the range's locks stay until finish (j->lost names the drive) */
        read_deliver(j);
        return;
    case W5_REPAIR_READ:
        if (!j->repair_failed) {
            j->state = W5_REPAIR_XOR;
            j->xor_step = 0;
            media_on_xor(j);
            return;
        }
        break;
    case W5_REPAIR_WRITE:
        if (!j->repair_failed) REG(RT_SYS_BASE, RT_SYS_REPAIRED) = j->row1 - j->row0;
        break;
    default: hw_panic(0x205);
    }
    release(j->repair_buf);
    repair_over(j);
    stripe_done(j);
}
