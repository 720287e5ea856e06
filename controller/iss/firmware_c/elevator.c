#include "elevator.h"

#include "hw.h"
#include "jobs.h"

#define MAX_OPS 1024
#define NONE 0xFFFFu

struct disk_op {
    uint16_t job, next;
    uint16_t drive;  /* the disk's drive_number when the command was planned */
    uint8_t disk, write;
    uint8_t refused; /* completed failed by the elevator itself, never sent (dispatch) */
    uint32_t lbn, sectors, address;
};

struct disk_queue {
    uint16_t waiting;  /* list head */
    uint16_t at_drive;
    uint8_t up;        /* the sweep's direction */
    uint32_t position; /* LBN after the last command sent */
    uint16_t drive_number; /* fresh drives the firmware took in this slot (elevator_new_drive) */
};

static struct disk_op ops[MAX_OPS];
static uint16_t free_ops;
/* Commands not sent (planned for a drive no longer in the slot), completed failed by
 * elevator_next_refused, oldest first. */
static uint16_t refused_head = NONE, refused_tail = NONE;
static uint8_t serving;
static struct disk_queue queues[RT_MAX_DISKS];
static uint32_t tags;
static const uint8_t *channels;

void elevator_init(uint32_t disks, uint32_t tags_per_disk, const uint8_t *channel_of) {
    for (uint32_t i = 0; i < MAX_OPS; ++i) ops[i].next = (uint16_t)(i + 1 < MAX_OPS ? i + 1 : NONE);
    free_ops = 0;
    for (uint32_t d = 0; d < disks; ++d) {
        queues[d].waiting = NONE;
        queues[d].at_drive = 0;
        queues[d].up = 1;
        queues[d].position = 0;
        queues[d].drive_number = 0;
    }
    refused_head = refused_tail = NONE;
    tags = tags_per_disk;
    channels = channel_of;
}

/* Takes the waiting command LOOK serves next off the disk's list. */
static uint16_t pick(struct disk_queue *q) {
    for (int turn = 0; turn < 2; ++turn) {
        uint16_t best = NONE, best_prev = NONE;
        for (uint16_t prev = NONE, i = q->waiting; i != NONE; prev = i, i = ops[i].next) {
            const uint32_t lbn = ops[i].lbn;
            const int ahead = q->up ? lbn >= q->position : lbn <= q->position;
            if (!ahead) continue;
            if (best == NONE || (q->up ? lbn < ops[best].lbn : lbn > ops[best].lbn)) {
                best = i;
                best_prev = prev;
            }
        }
        if (best != NONE) {
            if (best_prev == NONE) q->waiting = ops[best].next;
            else ops[best_prev].next = ops[best].next;
            return best;
        }
        q->up = !q->up;
    }
    return NONE;
}

static void dispatch(uint32_t disk) {
    struct disk_queue *q = &queues[disk];
    while (q->at_drive < tags && q->waiting != NONE) {
        const uint16_t i = pick(q);
        if (i == NONE) return;
        const struct disk_op *o = &ops[i];
        ++q->at_drive;  /* a refused command too: elevator_completed takes it back */
        /* Planned for the drive that was in the slot: the drive is gone (the controller fails the
         * member, or a fresh drive sits there not yet taken), or a fresh drive the firmware took
         * since. Sent, it would read a blank drive's sectors as the member's or write the new
         * drive outside its rebuild: it fails as a lost drive's command does, and the job goes
         * on degraded. */
        if (o->drive != q->drive_number ||
            (serving && (REG(RT_SYS_BASE, RT_SYS_FAILED_DISK) == disk || member_known_failed(disk)))) {
            ops[i].next = NONE;
            ops[i].refused = 1;
            if (refused_tail == NONE) refused_head = i;
            else ops[refused_tail].next = i;
            refused_tail = i;
            continue;
        }
        q->position = o->lbn;
        hw_submit(RT_Q_SCSI0 + channels[disk], o->write ? RT_OP_SCSI_WRITE : RT_OP_SCSI_READ, i, disk, o->lbn,
                  o->sectors, o->address, 0, 0);
    }
}

void elevator_add(uint32_t job, uint32_t disk, int write, uint32_t lbn, uint32_t sectors, uint32_t buffer_address) {
    if (free_ops == NONE) hw_panic(0x100);  /* more commands queued than the firmware's table holds */
    const uint16_t i = free_ops;
    free_ops = ops[i].next;
    struct disk_op *o = &ops[i];
    o->job = (uint16_t)job;
    o->disk = (uint8_t)disk;
    o->write = (uint8_t)(write != 0);
    o->lbn = lbn;
    o->sectors = sectors;
    o->address = buffer_address;
    o->refused = 0;
    o->drive = queues[disk].drive_number;
    o->next = queues[disk].waiting;
    queues[disk].waiting = i;
    dispatch(disk);
}

uint32_t elevator_disk(uint32_t tag) { return tag < MAX_OPS ? ops[tag].disk : 0xFFFFFFFFu; }

void elevator_command_of(uint32_t tag, struct elevator_command *out) {
    if (tag >= MAX_OPS) hw_panic(0x101);
    out->disk = ops[tag].disk;
    out->lbn = ops[tag].lbn;
    out->sectors = ops[tag].sectors;
    out->address = ops[tag].address;
    out->stale_drive = ops[tag].drive != queues[ops[tag].disk].drive_number;
    out->refused = ops[tag].refused;
}

uint32_t elevator_completed(uint32_t tag) {
    if (tag >= MAX_OPS) hw_panic(0x101);
    struct disk_op *o = &ops[tag];
    const uint32_t job = o->job, disk = o->disk;
    o->next = free_ops;
    free_ops = (uint16_t)tag;
    --queues[disk].at_drive;
    dispatch(disk);
    return job;
}

void elevator_new_drive(uint32_t disk) { ++queues[disk].drive_number; }

int elevator_next_refused(uint32_t *tag) {
    if (refused_head == NONE) return 0;
    *tag = refused_head;
    refused_head = ops[refused_head].next;
    if (refused_head == NONE) refused_tail = NONE;
    return 1;
}

void elevator_serving(void) { serving = 1; }
