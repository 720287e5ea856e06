/* Array sectors the firmware knows are lost (a power loss tore a write in a stripe that had
 * already lost a data drive: that unit's only record, the parity, is uncertain). A read that
 * touches them fails; a successful write over them makes its sectors good again. Each range is
 * also reported to the controller (RT_SYS_LOST_LBN, RT_SYS_LOST_SECTORS) for its statistics. */
#ifndef FW_LOST_RANGES_H
#define FW_LOST_RANGES_H
#include <stdint.h>

void lost_add(uint32_t lbn, uint32_t sectors);
int lost_overlaps(uint32_t lbn, uint32_t sectors);
void lost_written(uint32_t lbn, uint32_t sectors);
#endif
