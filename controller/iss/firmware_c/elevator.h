/* Per-disk command queues ordered by an elevator (LOOK): each disk serves its queued commands
 * in one direction of LBN until none is left that way, then turns. At most tags_per_disk
 * commands are at a drive at once; the rest wait here. */
#ifndef FW_ELEVATOR_H
#define FW_ELEVATOR_H
#include <stdint.h>

void elevator_init(uint32_t disks, uint32_t tags_per_disk, const uint8_t *channel_of);
/* Queues one SCSI command for `job` (sent at once when the drive has a free tag). */
void elevator_add(uint32_t job, uint32_t disk, int write, uint32_t lbn, uint32_t sectors, uint32_t buffer_address);
/* A SCSI completion: frees its command, sends the disk's next, returns the command's job. */
uint32_t elevator_completed(uint32_t tag);
/* The disk of a command not yet completed. */
uint32_t elevator_disk(uint32_t tag);
/* A command not yet completed, as it was queued. */
struct elevator_command {
    uint32_t disk, lbn, sectors, address;
    uint32_t stale_drive; /* planned for a drive since replaced (elevator_new_drive): its failure
                           * says nothing of the drive in the slot now */
    uint32_t refused;     /* never sent: the elevator failed it (below), the drive said nothing */
};
void elevator_command_of(uint32_t tag, struct elevator_command *out);
/* The firmware took a fresh drive in `disk`'s slot (rebuild.c): commands planned before, for
 * the drive that was there, are not sent to it. Neither is any command while the controller
 * reports the member failed (FAILED_DISK) or the firmware knows it failed (jobs.h:
 * member_known_failed; a fresh drive not yet taken holds nothing of the member's). Such a command
 * completes failed instead. */
void elevator_new_drive(uint32_t disk);
/* The boot is over: from now on FAILED_DISK refuses commands too. Before, the power-loss
 * recovery writes a member whose interrupted rebuild its NVRAM checkpoint vouches for, which the
 * controller reports failed until the rebuild is taken again. */
void elevator_serving(void);
/* A command refused so: its tag, to be completed with RT_STATUS_ERROR (hw_serve); 0 when none. */
int elevator_next_refused(uint32_t *tag);
#endif
