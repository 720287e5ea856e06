/* Host commands from arrival to completion: reads, RAID 0 writes, RAID 5 writes
 * (read-modify-write or full stripe through the XOR engine, under a stripe lock, with a
 * write-intent record in NVRAM). Every step is a descriptor to an engine; the engine's
 * completion moves the command on. */
#ifndef FW_REQUESTS_H
#define FW_REQUESTS_H
#include "array_map.h"
#include "hw.h"

void requests_init(const struct array_map *map, uint32_t host_slots, uint32_t nvram_bytes);
void on_host_command(const struct completion *c);
void on_buffer(const struct completion *c);
void on_host_dma(const struct completion *c);
void on_xor(const struct completion *c);
void on_scsi(const struct completion *c);
#endif
