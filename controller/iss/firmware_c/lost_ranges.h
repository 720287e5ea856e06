/* Array sectors the firmware knows are lost: a power loss tore a write in a stripe that had
 * already lost a data drive (that unit's only record, the parity, is uncertain); a rebuild source
 * could not give some rows (MEDIUM ERROR) or was lost too (beyond RAID 5's one missing member). A
 * read that touches them fails; a successful write over them makes its sectors good again. Each
 * range is also reported to the controller (RT_SYS_LOST_LBN, RT_SYS_LOST_SECTORS) for its
 * statistics, once. */
#ifndef FW_LOST_RANGES_H
#define FW_LOST_RANGES_H
#include <stdint.h>

#include "array_map.h"

/* The tables persist in NVRAM [nvram_offset, nvram_offset + nvram_bytes): a restart finds what
 * was lost before the power loss still lost. */
void lost_ranges_init(const struct array_map *map, uint32_t nvram_offset, uint32_t nvram_bytes);
void lost_add(uint32_t lbn, uint32_t sectors);
/* The whole unit of member `disk` in `stripe`, when it holds data there (a parity unit: nothing
 * lost). Consecutive stripes of one member are kept as one run (a rebuild that lost a second
 * member loses a unit or two of every stripe it has not reached). */
void lost_add_unit(uint32_t stripe, uint32_t disk);
/* Member `disk`'s units of stripes [first_stripe, end_stripe) at once, as one run (a member
 * that cannot be rebuilt from here on: a second member lost). */
void lost_add_units(uint32_t first_stripe, uint32_t end_stripe, uint32_t disk);
int lost_overlaps(uint32_t lbn, uint32_t sectors);
/* A count that every recording of a loss advances (RAM only). A write takes it when it plans a
 * stripe: what is recorded lost later (a second member lost while the write was in flight) may
 * have reached no drive, so that write does not make it good. */
uint32_t lost_epoch(void);
/* [lbn, lbn + sectors) written successfully by a write planned at `planned_epoch`: the parts of
 * entries recorded lost by then are good again; later entries stay. */
void lost_written(uint32_t lbn, uint32_t sectors, uint32_t planned_epoch);
#endif
