/* Member identity on the drives (the C firmware's side of controller/firmware_api/member_superblock.h: the
 * same words in the same place, so either side reads what the other wrote). Each RAID 5 member
 * keeps a superblock right after the array's data (DISK_SECTORS, md's v1.0 end reserve): magic,
 * array id, member index and count, event count, flags, the members' states, a check word, one
 * 64-bit word a sector. The firmware
 *   - at every boot, before its recovery, reads every member's superblock (timed SCSI reads, sent
 *     even to a slot the controller has failed: a new drive may sit there), judges them as md
 *     assembles an array (the freshest superblock of this array is the reference; a member is
 *     current when it is this member's with that event count or one behind, and the reference
 *     does not record it failed), posts one verdict a member and waits until the controller has
 *     failed those not current (they are rebuilt, never served);
 *   - on every change of the members' states (line RT_IRQ_MEMBERS) writes a superblock with the
 *     event count + 1 on every member it still serves, through the elevators beside the host's
 *     commands; changes during a round are folded into the next.
 * The array's creation before the run placed the first superblocks (event count 1). RAID 0 keeps
 * none: every member is current. */
#ifndef FW_MEMBERS_H
#define FW_MEMBERS_H
#include <stdint.h>

#include "array_map.h"

void members_init(const struct array_map *map, const uint8_t *channel_of);
/* At boot: the check above; returns once the controller applied the verdicts. `lines`: the
 * interrupt lines of the engines' completions. */
void members_check_at_boot(uint32_t channels, uint32_t lines);
/* Line RT_IRQ_MEMBERS in the main loop: the members' states changed. */
void members_events(void);
/* From requests.c's dispatch: the superblock writer's buffer and SCSI completions. */
void members_on_buffer(uint32_t handle);
void members_on_scsi(void);
#endif
