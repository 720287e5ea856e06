/* MEDIUM ERRORs on a whole RAID 5 (SCSI CHECK CONDITION, sense key MEDIUM ERROR: some sectors of
 * a drive cannot be read; the drive reallocates them when they are written). The firmware serves
 * the drive as lost for the command that met it, then writes back what it rebuilt, as RAID
 * controllers repair a bad block from redundancy (and the C++ firmwares: media_repairs):
 *   read             starts again with the drive lost (its pieces rebuilt from the other members
 *                    under the range's stripe locks), rewrites those pieces, then the host DMA
 *   stripe of write  planned again with the drive lost (a degraded write: the parity carries a
 *                    lost data unit, a lost parity is skipped), then the drive's rows of the
 *                    stripe rebuilt from the other members and written, before the lock goes
 * With a drive already lost, or being rebuilt and not yet rebuilt in the command's stripes, a
 * MEDIUM ERROR is a second fault: the command fails as before. In stripes the rebuild has passed
 * the new drive is a member like the others, and the error is repaired from them (explorer case
 * 161:654: before, it failed reads and writes within RAID 5's promise). */
#ifndef FW_MEDIA_H
#define FW_MEDIA_H
#include "jobs.h"

/* A SCSI error from `disk` for job j: 1 when it is a MEDIUM ERROR this file takes (noted in
 * j->media_disk, or, in a repair phase, the repair given up), 0 when it is the host's error. */
int media_error_taken(struct job *j, uint32_t disk, uint32_t status);
/* The phase is back and j->media_disk answered MEDIUM ERROR: go on as above. */
void media_error_continue(struct job *j);
/* A repairing read's pieces are rebuilt: 1 when their rewrite started (R_REPAIR). */
int media_rewrite_pieces(struct job *j);
/* A repairing write's stripe is written: rebuild and rewrite the drive's rows (W5_REPAIR_*). */
void media_repair_stripe(struct job *j);
void media_on_buffer(struct job *j, uint32_t handle);
void media_on_xor(struct job *j);
/* A repair phase's SCSI commands are all back. */
void media_on_scsi_done(struct job *j);
#endif
