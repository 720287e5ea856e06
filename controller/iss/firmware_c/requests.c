#include "requests.h"

#include "elevator.h"
#include "jobs.h"
#include "rebuild.h"
#include "host_order.h"
#include "lost_ranges.h"
#include "media.h"
#include "members.h"
#include "recovery.h"

struct job jobs[ALL_JOBS];
const struct array_map *map;
static uint32_t next_seq;

void requests_init(const struct array_map *m, uint32_t host_slots, uint32_t nvram_bytes) {
    map = m;
    if (host_slots > MAX_JOBS || host_slots > ORDER_SLOTS) hw_panic(0x200);
    if (nvram_bytes < host_slots * INTENT_BYTES) hw_panic(0x201);
}

void allocate(struct job *j, uint32_t sectors, uint32_t which) {
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, (uint32_t)(j - jobs) | which, sectors, 0, 0, 0, 0, 0);
}

void release(uint32_t handle) { hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, handle, 0, 0, 0, 0, 0); }

void host_dma(struct job *j) { hw_submit(RT_Q_DMA, RT_OP_HOST_DMA, (uint32_t)(j - jobs), j->slot, j->buf, 0, 0, 0, 0); }

static void start(struct job *j);
static void finish(struct job *j);

void read_deliver(struct job *j) {
    /* Sectors recorded lost while the read waited or ran (a second member lost during a
     * rebuild, a rebuild source's unreadable rows): what it read there is a blank drive's or an
     * XOR of garbage, and the host gets an error instead. The check at arrival alone is not
     * enough: the read may have been planned before the loss was known. */
    if (lost_overlaps(j->lbn, j->sectors)) {
        j->status = RT_STATUS_ERROR;
        finish(j);
        return;
    }
    j->state = R_DMA;
    host_dma(j);
}

/* Jobs waiting in R_ORDER, W_ORDER or W_ACK (host_order.h): looked at when a command leaves. */
static uint32_t order_waiters;
static uint8_t waking, wake_again;

static void wake_order_waiters(void) {
    if (waking) {
        wake_again = 1;
        return;
    }
    waking = 1;
    do {
        wake_again = 0;
        for (uint32_t i = 0; i < MAX_JOBS && order_waiters; ++i) {
            struct job *o = &jobs[i];
            if ((o->state == R_ORDER || o->state == W_ORDER) && order_may_start(o->slot)) {
                --order_waiters;
                start(o);
            } else if (o->state == W_ACK && order_may_acknowledge(o->slot)) {
                --order_waiters;
                finish(o);
            }
        }
    } while (wake_again);
    waking = 0;
}

static void finish(struct job *j) {
    if (j->holds_lock) {  /* a degraded read's stripes */
        j->holds_lock = 0;
        unlock_stripes(j->lock_first, j->lock_last);
    }
    release(j->buf);
    hw_submit(RT_Q_HOST, RT_OP_HOST_COMPLETE, 0, j->slot, j->status, 0, 0, 0, 0);
    j->state = IDLE;
    order_leave(j->slot);
    if (order_waiters) wake_order_waiters();
}

/* A write's data and parity are on the drives: acknowledged once the reads before it are done. */
static void acknowledge_write(struct job *j) {
    /* RAID 5 makes its sectors good stripe by stripe (stripe_done). */
    if (j->status == RT_STATUS_OK && map->layout != RT_LAYOUT_RAID5) lost_written(j->lbn, j->sectors, j->lost_epoch);
    if (order_may_acknowledge(j->slot)) {
        finish(j);
        return;
    }
    j->state = W_ACK;
    ++order_waiters;
}

/* One SCSI command per stripe-unit piece of the command's range, data in the host buffer. */
static void disk_pieces(struct job *j, int write) {
    const uint32_t end = j->lbn + j->sectors;
    uint32_t scratch = j->sectors;
    j->reconstructs = 0;
    for (uint32_t at = j->lbn; at < end;) {
        uint32_t n = map->unit - at % map->unit;
        if (n > end - at) n = end - at;
        const struct place p = array_data_place(map, at);
        if (disk_lost_in(j, p.disk, at / (map->data_disks * map->unit))) {
            /* Every other member of the stripe, same drive rows: the lost data is their XOR. */
            j->reconstructs = 1;
            for (uint32_t d = 0; d < map->disks; ++d) {
                if (d == j->lost) continue;
                ++j->pending;
                elevator_add((uint32_t)(j - jobs), d, 0, p.lbn, n, RT_BUFFER_ADDRESS(j->buf, scratch));
                scratch += n;
            }
            at += n;
            continue;
        }
        ++j->pending;
        elevator_add((uint32_t)(j - jobs), p.disk, write, p.lbn, n, RT_BUFFER_ADDRESS(j->buf, at - j->lbn));
        at += n;
    }
}

/* XOR step `step` of a chain folding `inputs` equal-sized blocks at input(i) into `out`: the
 * first step takes up to four inputs, each later one the running result and three more. Returns
 * 0 when the chain has fewer steps. */
int chain_xor(uint32_t tag, uint32_t step, uint32_t sectors, uint32_t out, uint32_t inputs,
              uint32_t (*input)(const struct job *, uint32_t), const struct job *j) {
    const uint32_t first = step == 0 ? 0 : RT_MAX_XOR_INPUTS + (step - 1) * (RT_MAX_XOR_INPUTS - 1);
    if (first >= inputs) return 0;
    uint32_t in[RT_MAX_XOR_INPUTS] = {0, 0, 0, 0};
    uint32_t k = 0;
    if (step > 0) in[k++] = out;
    for (uint32_t i = first; i < inputs && k < RT_MAX_XOR_INPUTS; ++i) in[k++] = input(j, i);
    hw_submit(RT_Q_XOR, RT_OP_XOR, tag, sectors, out, in[0], in[1], in[2], in[3]);
    return 1;
}

static uint32_t chain_steps(uint32_t inputs) {
    return inputs <= RT_MAX_XOR_INPUTS ? 1 : 1 + (inputs - 2) / (RT_MAX_XOR_INPUTS - 1);
}

/* Degraded read: the survivors' blocks of the lost piece being rebuilt (set by read_xor). */
static uint32_t survivor_base, survivor_rows;
static uint32_t survivor_input(const struct job *j, uint32_t i) {
    return RT_BUFFER_ADDRESS(j->buf, survivor_base + i * survivor_rows);
}

/* Issues the degraded read's XOR step j->xor_step; 0 when every lost piece is rebuilt. */
static int read_xor(struct job *j) {
    uint32_t step = j->xor_step++, scratch = j->sectors;
    const uint32_t inputs = map->disks - 1, end = j->lbn + j->sectors;
    for (uint32_t at = j->lbn; at < end;) {
        uint32_t n = map->unit - at % map->unit;
        if (n > end - at) n = end - at;
        if (disk_lost_in(j, array_data_place(map, at).disk, at / (map->data_disks * map->unit))) {
            if (step < chain_steps(inputs)) {
                survivor_base = scratch;
                survivor_rows = n;
                return chain_xor((uint32_t)(j - jobs), step, n, RT_BUFFER_ADDRESS(j->buf, at - j->lbn), inputs,
                                 survivor_input, j);
            }
            step -= chain_steps(inputs);
            scratch += inputs * n;
        }
        at += n;
    }
    return 0;
}

/* ---- RAID 5 writes ------------------------------------------------------------------------ */

static uint32_t stripe_start(uint32_t stripe) { return stripe * map->data_disks * map->unit; }
static uint32_t data_disk(uint32_t stripe, uint32_t unit) {
    return (array_parity_disk(map, stripe) + 1 + unit) % map->disks;
}
static uint32_t min_u32(uint32_t x, uint32_t y) { return x < y ? x : y; }
static uint32_t max_u32(uint32_t x, uint32_t y) { return x > y ? x : y; }

/* Calls piece(j, unit, first row, rows, offset in the part) for each data unit the part touches. */
#define FOR_EACH_PIECE(j, BODY)                                                                    \
    do {                                                                                           \
        const uint32_t s0_ = stripe_start((j)->stripe);                                            \
        for (uint32_t u_ = 0; u_ < map->data_disks; ++u_) {                                        \
            const uint32_t lo_ = max_u32((j)->a, s0_ + u_ * map->unit);                            \
            const uint32_t hi_ = min_u32((j)->b, s0_ + (u_ + 1) * map->unit);                      \
            if (lo_ >= hi_) continue;                                                              \
            const uint32_t unit = u_, row = lo_ - (s0_ + u_ * map->unit), rows = hi_ - lo_;        \
            const uint32_t offset = lo_ - (j)->a;                                                  \
            (void)unit; (void)row; (void)rows; (void)offset;                                       \
            BODY                                                                                   \
        }                                                                                          \
    } while (0)

uint32_t next_sequence(void) { return next_seq++; }

static void stripe_enter(struct job *j, uint32_t stripe) {
    j->stripe = stripe;
    j->lock_first = j->lock_last = stripe;
    const uint32_t s0 = stripe_start(stripe), s1 = s0 + map->data_disks * map->unit;
    j->a = max_u32(j->lbn, s0);
    j->b = min_u32(j->lbn + j->sectors, s1);
    j->full = j->a == s0 && j->b == s1;
    lock_stripes(j, W5_LOCK);
}

void stripe_begin(struct job *j) {
    /* Which member is lost now, not when the command arrived: a member lost and replaced since
     * then has a blank drive in its slot, which only the rebuild's cursor makes present. */
    if (!j->repairing) take_lost(j);
    j->lost_epoch = lost_epoch();
    if (j->full) {
        j->row0 = 0;
        j->row1 = map->unit;
    } else {
        j->row0 = map->unit;
        j->row1 = 0;
        FOR_EACH_PIECE(j, {
            j->row0 = min_u32(j->row0, row);
            j->row1 = max_u32(j->row1, row + rows);
        });
    }
    j->lost_role = LOST_NONE;
    if (j->lost != RT_NO_DISK && disk_lost_in(j, j->lost, j->stripe)) {
        const uint32_t parity = array_parity_disk(map, j->stripe);
        if (j->lost == parity) {
            j->lost_role = LOST_PARITY;
        } else {
            j->lost_unit = (j->lost + map->disks - parity - 1) % map->disks;
            j->lost_role = LOST_DATA;
            if (!j->full)
                FOR_EACH_PIECE(j, {
                    if (unit == j->lost_unit) {
                        j->lost_role = LOST_REBUILD;
                        j->lost_row = row;
                        j->lost_rows = rows;
                        j->lost_offset = offset;
                    }
                });
        }
    }
    /* Scratch: the old data of the part (read-modify-write), then the parity rows, then (a
     * touched piece on the lost drive) the other data units' rows that rebuild its old data. */
    j->state = W5_ALLOC;
    allocate(j, (j->full ? 0 : j->b - j->a) + (j->row1 - j->row0) +
                    (j->lost_role == LOST_REBUILD ? (map->data_disks - 1) * j->lost_rows : 0),
             TMP_BUFFER);
}

static uint32_t parity_offset(const struct job *j) { return j->full ? 0 : j->b - j->a; }
static uint32_t rebuild_offset(const struct job *j) { return parity_offset(j) + j->row1 - j->row0; }

/* Rebuilding the lost piece's old data: the old parity of its rows, then each other data unit's. */
static uint32_t rebuild_input(const struct job *j, uint32_t i) {
    if (i == 0) return RT_BUFFER_ADDRESS(j->tmp, parity_offset(j) + j->lost_row - j->row0);
    return RT_BUFFER_ADDRESS(j->tmp, rebuild_offset(j) + (i - 1) * j->lost_rows);
}

static void stripe_reads(struct job *j) {
    j->state = W5_READ;
    if (j->lost_role == LOST_REBUILD) {
        uint32_t k = 0;
        for (uint32_t u = 0; u < map->data_disks; ++u) {
            if (u == j->lost_unit) continue;
            ++j->pending;
            elevator_add((uint32_t)(j - jobs), data_disk(j->stripe, u), 0, j->stripe * map->unit + j->lost_row,
                         j->lost_rows, RT_BUFFER_ADDRESS(j->tmp, rebuild_offset(j) + k++ * j->lost_rows));
        }
    }
    FOR_EACH_PIECE(j, {
        if (j->lost_role >= LOST_DATA && unit == j->lost_unit) continue;  /* rebuilt from the others */
        ++j->pending;
        elevator_add((uint32_t)(j - jobs), data_disk(j->stripe, unit), 0, j->stripe * map->unit + row, rows,
                     RT_BUFFER_ADDRESS(j->tmp, offset));
    });
    ++j->pending;
    elevator_add((uint32_t)(j - jobs), array_parity_disk(map, j->stripe), 0, j->stripe * map->unit + j->row0,
                 j->row1 - j->row0, RT_BUFFER_ADDRESS(j->tmp, parity_offset(j)));
}

/* Issues XOR step j->xor_step; 0 when there is none left. */
static int stripe_xor(struct job *j) {
    const uint32_t tag = (uint32_t)(j - jobs);
    uint32_t step = j->xor_step++;
    const uint32_t parity = RT_BUFFER_ADDRESS(j->tmp, 0);
    uint32_t in[RT_MAX_XOR_INPUTS] = {0, 0, 0, 0};
    if (j->full) {
        /* parity = d0 ^ d1 ^ d2 ^ d3, then parity ^= the next three units, ... */
        const uint32_t first = step == 0 ? 0 : RT_MAX_XOR_INPUTS + (step - 1) * (RT_MAX_XOR_INPUTS - 1);
        if (first >= map->data_disks) return 0;
        uint32_t k = 0;
        if (step > 0) in[k++] = parity;
        for (uint32_t u = first; u < map->data_disks && k < RT_MAX_XOR_INPUTS; ++u)
            in[k++] = RT_BUFFER_ADDRESS(j->buf, j->a - j->lbn + u * map->unit);
        hw_submit(RT_Q_XOR, RT_OP_XOR, tag, map->unit, parity, in[0], in[1], in[2], in[3]);
        return 1;
    }
    /* A touched piece on the lost drive: first its old data from the parity and the other units. */
    if (j->lost_role == LOST_REBUILD) {
        if (step < chain_steps(map->data_disks))
            return chain_xor(tag, step, j->lost_rows, RT_BUFFER_ADDRESS(j->tmp, j->lost_offset), map->data_disks,
                             rebuild_input, j);
        step -= chain_steps(map->data_disks);
    }
    /* Read-modify-write, one piece per step: parity rows ^= old data ^ new data. */
    uint32_t n = 0;
    FOR_EACH_PIECE(j, {
        if (n++ == step) {
            const uint32_t p = RT_BUFFER_ADDRESS(j->tmp, parity_offset(j) + row - j->row0);
            hw_submit(RT_Q_XOR, RT_OP_XOR, tag, rows, p, p, RT_BUFFER_ADDRESS(j->tmp, offset),
                      RT_BUFFER_ADDRESS(j->buf, j->a - j->lbn + offset), 0);
            return 1;
        }
    });
    return 0;
}

static void stripe_writes(struct job *j) {
    j->state = W5_WRITE;
    FOR_EACH_PIECE(j, {
        if (j->lost_role >= LOST_DATA && unit == j->lost_unit) continue;  /* the parity carries it */
        ++j->pending;
        elevator_add((uint32_t)(j - jobs), data_disk(j->stripe, unit), 1, j->stripe * map->unit + row, rows,
                     RT_BUFFER_ADDRESS(j->buf, j->a - j->lbn + offset));
    });
    if (j->lost_role == LOST_PARITY) {
        if (!j->pending) stripe_done(j);  /* nothing to write: cannot happen for a non-empty part */
        return;
    }
    ++j->pending;
    elevator_add((uint32_t)(j - jobs), array_parity_disk(map, j->stripe), 1, j->stripe * map->unit + j->row0,
                 j->row1 - j->row0, RT_BUFFER_ADDRESS(j->tmp, parity_offset(j)));
}

static void intent(const struct job *j, int valid) {
    const uint32_t at = j->slot * INTENT_BYTES;
    if (valid) {
        nvram_write_word(at + 4, j->lbn);
        nvram_write_word(at + 8, j->sectors);
        nvram_write_word(at + 12, j->seq);
    }
    nvram_write_word(at, valid ? INTENT_VALID : 0);  /* the record counts once this word is set */
}

void stripe_done(struct job *j) {
    if (j->repairing) {  /* written around a MEDIUM ERROR: the drive's rows first (media.h) */
        media_repair_stripe(j);
        return;
    }
    release(j->tmp);
    /* The stripe's part is on the drives (or in the parity for a member missing as planned):
     * sectors recorded lost before the plan are good again. Not those recorded since (a second
     * member lost meanwhile: the part's data may be on no drive), nor after a failed read. */
    if (j->status == RT_STATUS_OK) lost_written(j->a, j->b - j->a, j->lost_epoch);
    j->holds_lock = 0;
    const uint32_t stripe = j->stripe;
    j->lock_first = j->lock_last = 0xFFFFFFFFu;  /* out of the way of its own next stripe's waiters */
    unlock_stripes(stripe, stripe);
    if (stripe < j->last_stripe) {
        stripe_enter(j, stripe + 1);
        return;
    }
    intent(j, 0);
    acknowledge_write(j);
}

/* ---- engine completions -------------------------------------------------------------------- */

void on_host_command(const struct completion *c) {
    if (c->tag >= MAX_JOBS) hw_panic(0x202);
    struct job *j = &jobs[c->tag];
    j->slot = c->tag;
    j->write = (c->status & RT_HOST_WRITE) != 0;
    j->lbn = c->result;
    j->sectors = c->time_us;
    j->seq = next_seq++;
    j->pending = 0;
    j->status = RT_STATUS_OK;
    j->holds_lock = 0;
    j->drive_lost = 0;
    j->media_disk = RT_NO_DISK;
    j->repairing = 0;
    j->stripe = 0xFFFFFFFFu;
    j->lock_first = j->lock_last = 0xFFFFFFFFu;
    order_arrive(j->slot, j->write, j->lbn, j->sectors, j->seq);
    if (order_may_start(j->slot)) {
        start(j);
        return;
    }
    j->state = j->write ? W_ORDER : R_ORDER;
    ++order_waiters;
}

static void start(struct job *j) {
    order_started(j->slot);
    take_lost(j);
    if ((!j->write && lost_overlaps(j->lbn, j->sectors)) || beyond_redundancy(j)) {
        /* Sectors the firmware lost: the host gets an error, never data it cannot vouch for. */
        hw_submit(RT_Q_HOST, RT_OP_HOST_COMPLETE, 0, j->slot, RT_STATUS_ERROR, 0, 0, 0, 0);
        j->state = IDLE;
        order_leave(j->slot);
        if (order_waiters) wake_order_waiters();
        return;
    }
    j->state = j->write ? W_ALLOC : R_ALLOC;
    j->lost_epoch = lost_epoch();
    /* A degraded read may rebuild up to all its sectors from the other disks - 1 members. */
    allocate(j, j->sectors + (!j->write && j->lost != RT_NO_DISK ? (map->disks - 1) * j->sectors : 0), 0);
}

void on_buffer(const struct completion *c) {
    if ((c->tag & 0xFF) == MEMBERS_JOB) {
        members_on_buffer(c->result);
        return;
    }
    struct job *j = &jobs[c->tag & 0xFF];
    if (j == &jobs[REBUILD_JOB]) {
        rebuild_on_buffer(c->result);
        return;
    }
    if (c->tag & REPAIR_BUFFER) {
        media_on_buffer(j, c->result);
        return;
    }
    if (c->tag & TMP_BUFFER) {
        j->tmp = c->result;
        j->xor_step = 0;
        if (!j->repairing && two_missing_in(j->stripe)) {
            /* Two members missing in the stripe by now (beyond RAID 5's one): planned around
             * one, its parity would be made from the other's blank or absent drive. Nothing is
             * written; the write fails (the members' units are recorded lost: jobs.h). */
            j->status = RT_STATUS_ERROR;
            stripe_done(j);
            return;
        }
        if (j->full) {
            j->state = W5_XOR;
            stripe_xor(j);
        } else if (j->lost_role == LOST_PARITY) {
            stripe_writes(j);  /* no parity to keep: write the data alone */
        } else {
            stripe_reads(j);
        }
        return;
    }
    j->buf = c->result;
    if (j->write) {
        j->state = W_DMA;
        host_dma(j);
        return;
    }
    /* The buffer may have waited for room: the read is planned with the members lost now (a
     * member lost and replaced meanwhile has a blank drive in its slot), again with room to
     * rebuild when it was allocated without. */
    const uint32_t lost_at_allocation = j->lost;
    if (!j->repairing) take_lost(j);
    if (!j->repairing && beyond_redundancy(j)) {  /* two members missing under it by now */
        j->status = RT_STATUS_ERROR;
        finish(j);
        return;
    }
    if (lost_at_allocation == RT_NO_DISK && j->lost != RT_NO_DISK) {
        release(j->buf);
        allocate(j, j->sectors + (map->disks - 1) * j->sectors, 0);
        return;
    }
    if (j->lost != RT_NO_DISK) {
        /* Degraded: rebuilt pieces read whole rows, so no write may be half done in them. */
        const uint32_t stripe_sectors = map->data_disks * map->unit;
        j->lock_first = j->lbn / stripe_sectors;
        j->lock_last = (j->lbn + j->sectors - 1) / stripe_sectors;
        lock_stripes(j, R_LOCK);
    } else {
        read_locked(j);
    }
}

void read_locked(struct job *j) {
    j->state = R_DISK;
    disk_pieces(j, 0);
}

void on_host_dma(const struct completion *c) {
    struct job *j = &jobs[c->tag];
    if (c->status != RT_STATUS_OK) j->status = c->status;
    if (!j->write) {
        finish(j);
        return;
    }
    if (map->layout == RT_LAYOUT_RAID5) {
        intent(j, 1);
        const uint32_t stripe_sectors = map->data_disks * map->unit;
        j->last_stripe = (j->lbn + j->sectors - 1) / stripe_sectors;
        stripe_enter(j, j->lbn / stripe_sectors);
    } else {
        j->state = W0_DISK;
        disk_pieces(j, 1);
    }
}

void on_xor(const struct completion *c) {
    struct job *j = &jobs[c->tag];
    if (j == &jobs[REBUILD_JOB]) {
        rebuild_on_xor();
        return;
    }
    if (j->state == R_XOR) {
        if (!read_xor(j) && !(j->repairing && media_rewrite_pieces(j))) read_deliver(j);
        return;
    }
    if (j->state == W5_REPAIR_XOR) {
        media_on_xor(j);
        return;
    }
    if (!stripe_xor(j)) stripe_writes(j);
}

/* The phase's commands are all back and one failed because a drive was lost after the job
 * planned them: go on as a degraded job. A read starts again with room to rebuild; a stripe's
 * reads are planned again around the lost drive; a stripe's writes are done, since what reached
 * the survivors is what degraded mode keeps (the parity carries a lost data unit, a lost parity
 * is not needed). */
static void continue_degraded(struct job *j) {
    j->drive_lost = 0;
    j->media_disk = RT_NO_DISK;
    take_lost(j);
    if (!j->write && beyond_redundancy(j)) {  /* no member left to rebuild its pieces from */
        j->status = RT_STATUS_ERROR;
        finish(j);
        return;
    }
    switch (j->state) {
    case R_DISK:
        release(j->buf);
        j->state = R_ALLOC;
        allocate(j, j->sectors + (map->disks - 1) * j->sectors, 0);
        break;
    case W5_READ:
        release(j->tmp);
        stripe_begin(j);
        break;
    case W5_WRITE: stripe_done(j); break;
    default: hw_panic(0x204);
    }
}

void on_scsi(const struct completion *c) {
    struct elevator_command command;
    elevator_command_of(c->tag, &command);
    const uint32_t disk = command.disk;
    const uint32_t job_index = elevator_completed(c->tag);
    if (job_index == MEMBERS_JOB) {
        members_on_scsi();
        return;
    }
    struct job *j = &jobs[job_index];
    if (j == &jobs[REBUILD_JOB]) {
        rebuild_on_scsi(&command, c->status);
        return;
    }
    if (c->status != RT_STATUS_OK) {
        if (drive_lost_under(j, &command, c->status))
            j->drive_lost = 1;
        else if (!media_error_taken(j, disk, c->status))
            j->status = c->status;
    }
    if (--j->pending) return;
    if (j->drive_lost) {
        continue_degraded(j);
        return;
    }
    if (j->media_disk != RT_NO_DISK) {
        media_error_continue(j);
        return;
    }
    switch (j->state) {
    case R_DISK:
        if (j->reconstructs) {
            j->state = R_XOR;
            j->xor_step = 0;
            if (!read_xor(j)) hw_panic(0x205);  /* planned pieces to rebuild, none found: a stall */
            break;
        }
        read_deliver(j);
        break;
    case W0_DISK: acknowledge_write(j); break;
    case W5_READ:
        if (j->status != RT_STATUS_OK && !j->repairing) {
            /* A read the stripe's new parity needs failed with no way around it (a MEDIUM ERROR
             * while a member is missing: beyond RAID 5's one). Nothing is written: a parity made
             * from the failed read's buffer would turn the missing member's rows into garbage,
             * served later as its data or rebuilt onto its new drive. The write fails; the
             * stripe keeps its old, consistent contents. */
            stripe_done(j);
            break;
        }
        j->state = W5_XOR;
        stripe_xor(j);
        break;
    case W5_WRITE: stripe_done(j); break;
    case R_REPAIR:
    case W5_REPAIR_READ:
    case W5_REPAIR_WRITE: media_on_scsi_done(j); break;
    default: hw_panic(0x203);
    }
}
