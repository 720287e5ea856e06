/* Where the array's logical sectors live: RAID 0 striping and RAID 5 left-symmetric. The same
 * arithmetic as the C++ layouts (controller/layouts/raid10_layout.cpp, parity_layout.cpp). */
#ifndef FW_ARRAY_MAP_H
#define FW_ARRAY_MAP_H
#include <stdint.h>

struct array_map {
    uint32_t disks, unit, layout;
    uint32_t data_disks;        /* per stripe */
    uint32_t capacity_sectors;
};

/* A logical sector's place: drive and drive LBN. */
struct place {
    uint32_t disk, lbn;
};

void array_map_init(struct array_map *m, uint32_t disks, uint32_t unit, uint32_t layout, uint32_t disk_sectors);
struct place array_data_place(const struct array_map *m, uint32_t lbn);
/* RAID 5: the disk holding stripe s's parity. */
uint32_t array_parity_disk(const struct array_map *m, uint32_t stripe);
#endif
