/* Power-loss recovery at boot: the RAID 5 stripes named by write-intent records left in NVRAM
 * get their parity recomputed from their data before the firmware takes host commands. */
#ifndef FW_RECOVERY_H
#define FW_RECOVERY_H
#include "array_map.h"

/* The write-intent records (requests.c writes them): one per host slot, INTENT_BYTES each at
 * slot * INTENT_BYTES in the NVRAM window: word 0 INTENT_VALID while the write is in flight
 * (set last, cleared first), then the write's array LBN, sectors and sequence number. */
#define INTENT_BYTES 16u
#define INTENT_VALID 0xA5A50001u

/* Replays every valid record (RAID 5), clears them and returns the stripes resynchronised.
 * `lines`: the interrupt lines enabled (the engines' completions wake the core). A stripe that
 * has lost a data member cannot be resynchronised: that unit is recorded lost (lost_ranges.h). */
uint32_t recover_write_intents(const struct array_map *map, uint32_t host_slots, uint32_t channels, uint32_t lines);
#endif
