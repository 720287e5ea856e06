/* The job table the firmware's state machines share (requests.c: host commands; rebuild.c: the
 * rebuild of a member onto a fresh drive), with the stripe locks and XOR chains both use. A job
 * moves on when an engine posts the completion of one of its descriptors. */
#ifndef FW_JOBS_H
#define FW_JOBS_H
#include "array_map.h"
#include "hw.h"

#define MAX_JOBS 64u
#define TMP_BUFFER 0x100u    /* buffer tag bit: the RAID 5 scratch buffer, not the host data's */
#define REPAIR_BUFFER 0x200u /* buffer tag bit: a stripe repair's scratch (media.c) */

#define REBUILD_JOB MAX_JOBS /* the rebuild's job, after the host slots' */
#define ALL_JOBS (MAX_JOBS + 1u)
/* The member superblock writer's number in the elevators and buffer tags (members.h): past the
 * job table, it keeps no job of its own. */
#define MEMBERS_JOB ALL_JOBS

enum state { IDLE, R_ORDER, R_ALLOC, R_LOCK, R_DISK, R_XOR, R_DMA, W_ORDER, W_ALLOC, W_DMA, W0_DISK, W5_LOCK, W5_ALLOC,
             W5_READ, W5_XOR, W5_WRITE, W_ACK, RB_ALLOC, RB_LOCK, RB_READ, RB_XOR, RB_WRITE, RB_PAUSE, R_REPAIR,
             W5_REPAIR_ALLOC, W5_REPAIR_READ, W5_REPAIR_XOR, W5_REPAIR_WRITE };

struct job {
    uint8_t state, write, holds_lock, full;
    uint32_t slot, lbn, sectors, seq;
    uint32_t buf, tmp;   /* buffer handles */
    uint32_t pending;    /* SCSI commands outstanding */
    uint32_t status;
    /* RAID 5: the stripe being written and its part [a, b) of the command */
    uint32_t stripe, last_stripe, a, b;
    /* The stripes whose lock the job holds or waits for: a write's current stripe; a degraded
     * read's whole range while it rebuilds from the parity (no write may change a row under it). */
    uint32_t lock_first, lock_last;
    uint32_t row0, row1; /* parity rows the part touches */
    uint32_t xor_step;
    /* Degraded RAID 5 (a failed drive): the drive, as read when the command arrived; a read
     * reconstructs its pieces from the survivors (scratch after the host data in the same
     * buffer); a write's stripe knows the lost drive's role in it. `partial`: the drive is the
     * member being rebuilt, lost only in the stripes the rebuild has not reached (rebuild.h). */
    uint32_t lost;
    uint8_t partial;
    /* `partial`: the rebuild's cursor when the job planned its pieces (under its stripes' locks):
     * the pieces it reconstructs stay those it planned even if the rebuild ends or stops meanwhile
     * (a second member lost: rebuild.c), so its XOR chain folds the reads it made. */
    uint32_t lost_from;
    /* A MEDIUM ERROR (media.h): the drive that answered it in this phase, RT_NO_DISK none; while
     * `repairing`, the job serves that drive as lost and then rewrites what it rebuilt. */
    uint32_t media_disk;
    uint8_t repairing, repair_failed;
    uint32_t repair_buf;  /* member_rows_* scratch (a stripe repair, the rebuild); a read repair: sectors rewritten */
    uint8_t reconstructs;  /* read: some piece is on the lost drive */
    uint8_t lost_role;     /* write stripe: LOST_NONE, LOST_PARITY, LOST_DATA (untouched or full), LOST_REBUILD */
    uint8_t drive_lost;    /* a command of this phase failed because its drive was lost meanwhile */
    uint32_t lost_unit, lost_row, lost_rows, lost_offset;
    uint32_t lost_epoch;   /* lost_ranges.h: when the job (a write: its stripe) was planned */
};

enum { LOST_NONE, LOST_PARITY, LOST_DATA, LOST_REBUILD };

extern struct job jobs[ALL_JOBS];
extern const struct array_map *map;

void allocate(struct job *j, uint32_t sectors, uint32_t which);
void release(uint32_t handle);
/* The host DMA of the job's buffer (in for a write, out for a read). */
void host_dma(struct job *j);
/* A read's data are in its buffer: sent to the host (host_dma), or an error when some of its
 * sectors are recorded lost by now (lost_ranges.h). */
void read_deliver(struct job *j);
/* A RAID 5 write's stripe: planned (under its lock) and written; done: lock released, next. */
void stripe_begin(struct job *j);
void stripe_done(struct job *j);

/* Takes the lock of the job's stripes [lock_first, lock_last], or waits for it in
 * `waiting_state` (W5_LOCK, R_LOCK, RB_LOCK: older waiters first); the job goes on when it has it. */
void lock_stripes(struct job *j, uint8_t waiting_state);
void unlock_stripes(uint32_t first, uint32_t last);
/* A read that holds its stripes' locks goes on (requests.c). */
void read_locked(struct job *j);
/* A sequence number after every job's so far (the locks' arrival order). */
uint32_t next_sequence(void);
/* The members the firmware knows are failed (lost_members.c): from FAILED_DISK, from commands
 * that failed (not MEDIUM ERROR) on a drive, from the boot's superblock check; a member leaves
 * the set when the rebuild takes its fresh drive. A second failed member records both members'
 * units lost (beyond RAID 5's one). */
void member_failed(uint32_t disk);
void member_taken(uint32_t disk);
int member_known_failed(uint32_t disk);
/* The drive the job serves as lost: a failed member, else the member being rebuilt, lost in the
 * stripes the rebuild has not reached. */
void take_lost(struct job *j);
/* A failed SCSI command of job j (status not OK): whether its drive is lost (the job goes on
 * degraded: continue_degraded) rather than the host's error; a drive that stopped answering
 * joins the failed members. */
struct elevator_command;
int drive_lost_under(const struct job *j, const struct elevator_command *command, uint32_t status);
/* Two members missing in `stripe` (two failed, or one failed while another is rebuilt and the
 * rebuild has not reached the stripe): beyond RAID 5's one. */
int two_missing_in(uint32_t stripe);
/* The job's range touches such a stripe (FAILED_DISK as the take_lost just before read it): the
 * job fails. */
int beyond_redundancy(const struct job *j);
/* Whether `disk` is lost to job j in `stripe`: the job's lost drive, everywhere or, for the
 * member being rebuilt, in the stripes the rebuild had not reached when the job planned
 * (j->lost_from). */
int disk_lost_in(const struct job *j, uint32_t disk, uint32_t stripe);
/* XOR step `step` of a chain folding `inputs` equal-sized blocks at input(j, i) into `out`; 0
 * when the chain has fewer steps. */
int chain_xor(uint32_t tag, uint32_t step, uint32_t sectors, uint32_t out, uint32_t inputs,
              uint32_t (*input)(const struct job *, uint32_t), const struct job *j);
/* Rows [row0, row1) of drive j->lost in stripe j->stripe rebuilt from every other member
 * (member_rows.c), in three steps: the reads (into j->repair_buf), the XOR chain (step
 * j->xor_step; 0 when done), the write. */
void member_rows_read(struct job *j);
int member_rows_xor(struct job *j);
void member_rows_write(struct job *j);
#endif
