/* rebuild.h. One stripe at a time: RB_LOCK (the stripe's lock, in arrival order) -> RB_READ
 * (the other members' units, through the elevators) -> RB_XOR (a chain into the lost unit) ->
 * RB_WRITE (onto the new drive) -> RB_PAUSE (the pacing's idle time, on the timer) -> the next
 * stripe. One scratch buffer for the whole rebuild: the disks - 1 survivors' units, then the
 * rebuilt unit. */
#include "rebuild.h"

#include "elevator.h"
#include "hw.h"
#include "jobs.h"
#include "lost_ranges.h"

#define SECTOR_BYTES 512u
#define CHECKPOINT_TAG 0x52420000u /* "RB" and the member: a checkpoint of this member's rebuild */

static struct {
    uint32_t disk;        /* the member being rebuilt, RT_NO_DISK: none */
    uint32_t done;        /* the member last rebuilt to the end */
    uint32_t next;        /* the first stripe not rebuilt */
    uint32_t stripes;     /* units per member */
    uint32_t tmp;         /* scratch buffer handle */
    uint32_t started_us;  /* the timer when the stripe's lock was taken */
    uint32_t share_permille, rate_kb_s;
    uint32_t checkpoint;  /* NVRAM offset */
    uint32_t gone_source; /* a survivor whose read of this stripe failed (not MEDIUM ERROR) */
} rb = {RT_NO_DISK, RT_NO_DISK, 0, 0, 0, 0, 1000, 0, 0, RT_NO_DISK};

static struct job *const job = &jobs[REBUILD_JOB];

/* The current stripe's rows a survivor answered MEDIUM ERROR for, single sectors merged into runs
 * of one disk; past MAX_BAD_RUNS a run is widened over the new rows (more is lost, never less). */
#define MAX_BAD_RUNS 32u
static struct {
    uint32_t disk, row, rows;
} bad[MAX_BAD_RUNS];
static uint32_t bad_runs;

static void note_bad_row(uint32_t disk, uint32_t row) {
    for (uint32_t i = 0; i < bad_runs; ++i) {
        if (bad[i].disk != disk) continue;
        if (row + 1 == bad[i].row) {
            --bad[i].row;
            ++bad[i].rows;
            return;
        }
        if (row == bad[i].row + bad[i].rows) {
            ++bad[i].rows;
            return;
        }
    }
    if (bad_runs < MAX_BAD_RUNS) {
        bad[bad_runs].disk = disk;
        bad[bad_runs].row = row;
        bad[bad_runs].rows = 1;
        ++bad_runs;
        return;
    }
    for (uint32_t i = 0; i < bad_runs; ++i) {
        if (bad[i].disk != disk && i + 1 < bad_runs) continue;
        const uint32_t first = row < bad[i].row ? row : bad[i].row;
        const uint32_t end = row + 1 > bad[i].row + bad[i].rows ? row + 1 : bad[i].row + bad[i].rows;
        if (bad[i].disk != disk) {  /* no run of this disk: the last run gives way to it */
            bad[i].disk = disk;
            bad[i].row = row;
            bad[i].rows = 1;
            return;
        }
        bad[i].row = first;
        bad[i].rows = end - first;
        return;
    }
}

/* Rows [row, row + rows) of `disk` in `stripe` recorded lost where the disk holds data there. */
static void lose_rows(uint32_t stripe, uint32_t disk, uint32_t row, uint32_t rows) {
    if (row == 0 && rows == map->unit) {
        lost_add_unit(stripe, disk);
        return;
    }
    const uint32_t parity = array_parity_disk(map, stripe);
    if (disk == parity) return;  /* the parity: no data lost */
    lost_add(stripe * map->data_disks * map->unit + ((disk + map->disks - parity - 1) % map->disks) * map->unit + row,
             rows);
}

/* The stripe's unreadable rows: the survivor's and the new drive's (`with_member`: the new
 * drive's were written from the XOR; without it, it failed and is lost as a whole anyway). */
static void lose_bad_rows(int with_member) {
    for (uint32_t i = 0; i < bad_runs; ++i) {
        lose_rows(job->stripe, bad[i].disk, bad[i].row, bad[i].rows);
        if (with_member) lose_rows(job->stripe, rb.disk, bad[i].row, bad[i].rows);
    }
    bad_runs = 0;
}

void rebuild_init(const struct array_map *m, uint32_t checkpoint_offset) {
    rb.stripes = m->capacity_sectors / (m->data_disks * m->unit);
    rb.checkpoint = checkpoint_offset;
    job->state = IDLE;
    job->lost = RT_NO_DISK;
    job->partial = 0;
}

uint32_t rebuild_checkpointed(uint32_t disk) {
    if (REG(RT_NVRAM_BASE, rb.checkpoint) != (CHECKPOINT_TAG | disk)) return 0;
    const uint32_t next = REG(RT_NVRAM_BASE, rb.checkpoint + 4);
    return next <= rb.stripes ? next : 0;
}

void rebuild_forget(uint32_t disk) {
    if (REG(RT_NVRAM_BASE, rb.checkpoint) == (CHECKPOINT_TAG | disk)) nvram_write_word(rb.checkpoint, 0);
}

uint32_t rebuild_member(void) { return rb.disk; }

uint32_t rebuild_cursor(uint32_t disk) {
    if (disk == rb.disk) return rb.next;
    return disk == rb.done ? 0xFFFFFFFFu : 0;
}

static uint32_t now_us(void) { return REG(RT_TIMER_BASE, RT_TIMER_NOW_US); }

static void lock_next(void) {
    job->lock_first = job->lock_last = job->stripe = rb.next;
    job->seq = next_sequence();
    lock_stripes(job, RB_LOCK);
}

static void start(uint32_t disk) {
    REG(RT_SYS_BASE, RT_SYS_REBUILD_DISK) = disk;  /* taken: the line falls */
    if (map->layout != RT_LAYOUT_RAID5) hw_panic(0x600);
    rb.disk = disk;
    member_taken(disk);        /* served again where the rebuild's cursor has passed */
    elevator_new_drive(disk);  /* nothing planned for the drive that was there reaches this one */
    rb.share_permille = REG(RT_SYS_BASE, RT_SYS_REBUILD_SHARE);
    rb.rate_kb_s = REG(RT_SYS_BASE, RT_SYS_REBUILD_RATE);
    if (rb.share_permille == 0 || rb.share_permille > 1000) hw_panic(0x601);
    /* A checkpoint of this member's rebuild (a power loss interrupted it): go on from there. */
    rb.next = rebuild_checkpointed(disk);
    job->state = RB_ALLOC;
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, REBUILD_JOB, map->disks * map->unit, 0, 0, 0, 0, 0);
}

static void finish(void) {
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, rb.tmp, 0, 0, 0, 0, 0);
    nvram_write_word(rb.checkpoint, 0);
    job->state = IDLE;
    rb.done = rb.disk;
    REG(RT_SYS_BASE, RT_SYS_REBUILD_DONE) = rb.disk;
    rb.disk = RT_NO_DISK;
    hw_mask(RT_IRQ_REBUILD, 0);  /* another fresh drive waiting is taken now */
}

/* The new drive failed as well: the member is failed again, host commands see it lost everywhere. */
static void stop(void) {
    if (job->holds_lock) {
        job->holds_lock = 0;
        unlock_stripes(job->stripe, job->stripe);
    }
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, rb.tmp, 0, 0, 0, 0, 0);
    nvram_write_word(rb.checkpoint, 0);
    job->state = IDLE;
    const uint32_t failed = rb.disk;
    rb.disk = RT_NO_DISK;
    rb.done = RT_NO_DISK;
    member_failed(failed);  /* lost everywhere again */
    hw_mask(RT_IRQ_REBUILD, 0);
}

void rebuild_on_buffer(uint32_t handle) {
    rb.tmp = handle;
    if (rb.next >= rb.stripes) {
        finish();
        return;
    }
    lock_next();
}

/* A second member (`other`) is missing from here on: no stripe not yet rebuilt can be, nor can
 * `other`'s unit there be served from it. Both units of each are recorded lost where they hold
 * data and the rebuild ends (the member is served where it was rebuilt, and the other member's
 * fresh drive can then be rebuilt from it). */
static void lose_the_rest(uint32_t other) {
    /* Out of RB_LOCK first: the unlock below must not hand the stripe to this job again (it
     * would end the rebuild twice: REBUILD_DONE for a member no longer rebuilding, its buffer
     * freed twice). */
    job->state = IDLE;
    job->holds_lock = 0;
    unlock_stripes(job->stripe, job->stripe);
    lost_add_units(rb.next, rb.stripes, rb.disk);
    lost_add_units(rb.next, rb.stripes, other);
    rb.next = rb.stripes;
    REG(RT_SYS_BASE, RT_SYS_REBUILD_PROGRESS) = rb.next;
    finish();
}

void rebuild_locked(struct job *j) {
    rb.started_us = now_us();
    rb.gone_source = RT_NO_DISK;
    bad_runs = 0;
    /* A second member missing (lost, or a fresh drive in its slot not yet taken: beyond RAID 5's
     * one): this stripe's unit cannot be rebuilt, nor that member's served from it. */
    const uint32_t reported = REG(RT_SYS_BASE, RT_SYS_FAILED_DISK);
    uint32_t other = reported != rb.disk && reported < map->disks ? reported : RT_NO_DISK;
    for (uint32_t d = 0; d < map->disks && other == RT_NO_DISK; ++d)
        if (d != rb.disk && member_known_failed(d)) other = d;
    if (other != RT_NO_DISK) {
        lose_the_rest(other);
        return;
    }
    j->state = RB_READ;
    j->pending = 0;
    j->status = RT_STATUS_OK;
    /* The whole unit of the member (jobs.h: member_rows_*). */
    j->lost = rb.disk;
    j->row0 = 0;
    j->row1 = map->unit;
    j->repair_buf = rb.tmp;
    member_rows_read(j);
}

void rebuild_on_xor(void) {
    if (member_rows_xor(job)) return;
    job->state = RB_WRITE;
    member_rows_write(job);
}

/* The pacing (rebuild_pacing.h of the C++ firmwares): busy at most `share` of the time, and at
 * most `rate` kB of the member per second. */
static uint32_t pause_us(uint32_t busy_us) {
    uint32_t idle = (uint32_t)((uint64_t)busy_us * (1000u - rb.share_permille) / rb.share_permille);
    if (rb.rate_kb_s) {
        const uint32_t least_us = (uint32_t)((uint64_t)map->unit * SECTOR_BYTES * 1000u / rb.rate_kb_s);
        if (least_us > busy_us && least_us - busy_us > idle) idle = least_us - busy_us;
    }
    return idle;
}

static void stripe_rebuilt(void) {
    lose_bad_rows(1);
    /* The cursor first: the jobs the unlock lets in see the stripe rebuilt. */
    ++rb.next;
    job->holds_lock = 0;
    unlock_stripes(job->stripe, job->stripe);
    nvram_write_word(rb.checkpoint + 4, rb.next);
    nvram_write_word(rb.checkpoint, CHECKPOINT_TAG | rb.disk);
    REG(RT_SYS_BASE, RT_SYS_REBUILD_PROGRESS) = rb.next;
    if (rb.next >= rb.stripes) {
        finish();
        return;
    }
    const uint32_t idle = pause_us(now_us() - rb.started_us);
    if (idle == 0) {
        lock_next();
        return;
    }
    job->state = RB_PAUSE;
    REG(RT_TIMER_BASE, RT_TIMER_COMPARE_US) = now_us() + idle;
    REG(RT_TIMER_BASE, RT_TIMER_CONTROL) = 1;
}

/* A survivor's read answered MEDIUM ERROR: its halves are read again into the same places. */
static void narrow_unreadable(const struct elevator_command *c) {
    if (c->sectors == 1) {
        note_bad_row(c->disk, c->lbn - job->stripe * map->unit);
        return;
    }
    const uint32_t half = c->sectors / 2;
    job->pending += 2;
    elevator_add(REBUILD_JOB, c->disk, 0, c->lbn, half, c->address);
    elevator_add(REBUILD_JOB, c->disk, 0, c->lbn + half, c->sectors - half, c->address + half);
}

void rebuild_on_scsi(const struct elevator_command *command, uint32_t status) {
    if (status == RT_STATUS_MEDIUM_ERROR && job->state == RB_READ && command->disk != rb.disk)
        narrow_unreadable(command);
    else if (status != RT_STATUS_OK) {
        job->status = status;
        if (job->state == RB_READ && command->disk != rb.disk) rb.gone_source = command->disk;
        /* A survivor that stopped answering is failed (not a command the elevator refused, nor
         * one planned for a drive since replaced: elevator.h). */
        if (status == RT_STATUS_ERROR && command->disk != rb.disk && !command->stale_drive &&
            !command->refused) member_failed(command->disk);
    }
    if (--job->pending) return;
    if (job->state == RB_READ) {
        if (job->status == RT_STATUS_OK) {
            job->state = RB_XOR;
            job->xor_step = 0;
            member_rows_xor(job);
            return;
        }
        if (REG(RT_SYS_BASE, RT_SYS_FAILED_DISK) == rb.disk) {
            stop();
            return;
        }
        /* A survivor is gone (a second lost drive): the member's unit of this stripe cannot be
         * rebuilt, nor the gone survivor's served from it. Both are recorded lost where they
         * hold data; a parity unit is left stale (its data are lost or on their drives). */
        lose_bad_rows(0);
        lose_rows(job->stripe, rb.disk, 0, map->unit);
        if (rb.gone_source != RT_NO_DISK) lose_rows(job->stripe, rb.gone_source, 0, map->unit);
        stripe_rebuilt();
        return;
    }
    if (job->status != RT_STATUS_OK) {  /* the write to the new drive */
        lose_bad_rows(0);
        stop();
        return;
    }
    stripe_rebuilt();
}

void rebuild_events(uint32_t pending) {
    if (pending & (1u << RT_IRQ_REBUILD)) {
        /* One rebuild at a time: a second fresh drive (a second member lost and replaced during
         * this rebuild, beyond RAID 5's one) waits, its line ignored, until this one ends. */
        if (rb.disk != RT_NO_DISK) {
            /* The fresh drive holds nothing of its member's until a rebuild takes it. */
            member_failed(REG(RT_SYS_BASE, RT_SYS_REBUILD_DISK));
            hw_mask(RT_IRQ_REBUILD, 1);
        } else {
            const uint32_t disk = REG(RT_SYS_BASE, RT_SYS_REBUILD_DISK);
            if (disk != RT_NO_DISK) start(disk);
            else REG(RT_SYS_BASE, RT_SYS_REBUILD_DISK) = disk;
        }
    }
    if (pending & (1u << RT_IRQ_TIMER)) {
        REG(RT_TIMER_BASE, RT_TIMER_CONTROL) = 0;  /* disarmed, the line cleared */
        if (job->state == RB_PAUSE) lock_next();
    }
}
