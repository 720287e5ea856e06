#include "array_map.h"

#include "raidtlm_regs.h"

void array_map_init(struct array_map *m, uint32_t disks, uint32_t unit, uint32_t layout, uint32_t disk_sectors) {
    m->disks = disks;
    m->unit = unit;
    m->layout = layout;
    m->data_disks = layout == RT_LAYOUT_RAID5 ? disks - 1 : disks;
    /* Whole stripe units of the smallest drive, on every data disk. */
    m->capacity_sectors = (disk_sectors / unit) * unit * m->data_disks;
}

uint32_t array_parity_disk(const struct array_map *m, uint32_t stripe) { return m->disks - 1 - stripe % m->disks; }

struct place array_data_place(const struct array_map *m, uint32_t lbn) {
    const uint32_t u = lbn / m->unit, offset = lbn % m->unit;
    struct place p;
    if (m->layout == RT_LAYOUT_RAID5) {
        const uint32_t stripe = u / m->data_disks, j = u % m->data_disks;
        p.disk = (array_parity_disk(m, stripe) + 1 + j) % m->disks;
        p.lbn = stripe * m->unit + offset;
    } else {
        p.disk = u % m->disks;
        p.lbn = (u / m->disks) * m->unit + offset;
    }
    return p;
}
