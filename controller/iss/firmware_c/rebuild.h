/* Rebuild of a RAID 5 member onto a fresh drive (line RT_IRQ_REBUILD, register REBUILD_DISK):
 * stripe by stripe in order, each under its stripe lock (one job, REBUILD_JOB, in the locks'
 * arrival order with the host commands): every other member's unit read, XORed into the lost
 * unit, written to the new drive. Host commands treat the member as lost in the stripes the
 * rebuild has not reached and as present in those it has (jobs.h: disk_lost_in). Paced like the
 * C++ firmwares' rebuild (controller.rebuild_share, rebuild_rate_mb_s from REBUILD_SHARE and
 * REBUILD_RATE) with the firmware's own timer; the cursor is checkpointed in NVRAM after each
 * stripe, so a power loss resumes the rebuild where it was.
 * A survivor that answers MEDIUM ERROR is read again in halves, and each half that fails in
 * halves again down to single sectors, as firmware finds which sectors a drive cannot give
 * (controller/kit/unreadable_sectors.h): its readable rows are rebuilt as usual; a row it cannot give
 * leaves the new drive's row unknown and the survivor's without its only other copy, so both are
 * recorded lost where they hold data (lost_ranges.h: reads of them fail until the host writes
 * them) and the rebuild goes on. */
#ifndef FW_REBUILD_H
#define FW_REBUILD_H
#include <stdint.h>

#include "array_map.h"

/* NVRAM: the checkpoint's two words after the write-intent records. */
#define REBUILD_CHECKPOINT_BYTES 8u

void rebuild_init(const struct array_map *map, uint32_t checkpoint_offset);
/* At boot, after a power loss: the stripes of `disk` its interrupted rebuild had finished (from
 * the NVRAM checkpoint; 0: none). */
uint32_t rebuild_checkpointed(uint32_t disk);
/* At boot: `disk` is not the drive the rebuild wrote (members.h): its checkpoint is void. */
void rebuild_forget(uint32_t disk);
/* The member being rebuilt (RT_NO_DISK: none). */
uint32_t rebuild_member(void);
/* The first stripe of `disk` not rebuilt: the cursor while it is being rebuilt, past the end once
 * it has been, 0 when its rebuild stopped (its new drive failed too). */
uint32_t rebuild_cursor(uint32_t disk);
/* Lines RT_IRQ_REBUILD and RT_IRQ_TIMER (`pending`): take a rebuild, or go on after a pause. */
void rebuild_events(uint32_t pending);

/* From requests.c's dispatch (jobs.h): the rebuild job's lock, buffer, XOR and SCSI completions. */
struct job;
void rebuild_locked(struct job *j);
void rebuild_on_buffer(uint32_t handle);
void rebuild_on_xor(void);
struct elevator_command;
void rebuild_on_scsi(const struct elevator_command *command, uint32_t status);
#endif
