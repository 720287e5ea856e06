/* lost_ranges.h: two small tables, empty in every run without such a loss, so the checks cost
 * two compares: [first, end) ranges of array sectors, and runs of one member's data units over
 * consecutive stripes. A write inside a range splits it when there is room, and otherwise leaves
 * it whole (its sectors then stay refused: never served wrong); a range that finds the table
 * full widens the nearest one over itself for the same reason. */
#include "lost_ranges.h"

#include "hw.h"

#define MAX_LOST 1024u
#define MAX_UNIT_RUNS 64u

static const struct array_map *map;
static uint32_t first[MAX_LOST], end[MAX_LOST];
static uint32_t used;
static struct {
    uint32_t first_stripe, end_stripe, disk;
} runs[MAX_UNIT_RUNS];
static uint32_t runs_used;

void lost_ranges_init(const struct array_map *m) { map = m; }

static void report(uint32_t lbn, uint32_t sectors) {
    REG(RT_SYS_BASE, RT_SYS_LOST_LBN) = lbn;
    REG(RT_SYS_BASE, RT_SYS_LOST_SECTORS) = sectors;
}

/* Into the range table without a report (already reported, or a part of a reported unit). */
static void keep(uint32_t lbn, uint32_t sectors) {
    const uint32_t e = lbn + sectors;
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] <= lbn && e <= end[i]) return;  /* already inside one */
    if (used < MAX_LOST) {
        first[used] = lbn;
        end[used] = e;
        ++used;
        return;
    }
    uint32_t nearest = 0, gap = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < used; ++i) {
        const uint32_t g = end[i] < lbn ? lbn - end[i] : e < first[i] ? first[i] - e : 0;
        if (g < gap) {
            gap = g;
            nearest = i;
        }
    }
    if (lbn < first[nearest]) first[nearest] = lbn;
    if (e > end[nearest]) end[nearest] = e;
}

void lost_add(uint32_t lbn, uint32_t sectors) {
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] == lbn && end[i] == lbn + sectors) return;  /* once each */
    keep(lbn, sectors);
    report(lbn, sectors);
}

/* The first array sector of `disk`'s unit in `stripe`; 0xFFFFFFFF: the disk holds its parity. */
static uint32_t unit_lbn(uint32_t stripe, uint32_t disk) {
    const uint32_t parity = array_parity_disk(map, stripe);
    if (disk == parity) return 0xFFFFFFFFu;
    return stripe * map->data_disks * map->unit + ((disk + map->disks - parity - 1) % map->disks) * map->unit;
}

static int in_runs(uint32_t stripe, uint32_t disk) {
    for (uint32_t i = 0; i < runs_used; ++i)
        if (runs[i].disk == disk && runs[i].first_stripe <= stripe && stripe < runs[i].end_stripe) return 1;
    return 0;
}

void lost_add_unit(uint32_t stripe, uint32_t disk) {
    const uint32_t lbn = unit_lbn(stripe, disk);
    if (lbn == 0xFFFFFFFFu || in_runs(stripe, disk)) return;
    for (uint32_t i = 0; i < runs_used; ++i)
        if (runs[i].disk == disk && runs[i].end_stripe == stripe) {
            ++runs[i].end_stripe;
            report(lbn, map->unit);
            return;
        }
    if (runs_used == MAX_UNIT_RUNS) {
        lost_add(lbn, map->unit);
        return;
    }
    runs[runs_used].first_stripe = stripe;
    runs[runs_used].end_stripe = stripe + 1;
    runs[runs_used].disk = disk;
    ++runs_used;
    report(lbn, map->unit);
}

/* Calls back for each lost unit of a run that [lbn, lbn + sectors) touches: its stripe and the
 * run's index; stops when `visit` returns 1 (and returns 1). */
static int each_touched_unit(uint32_t lbn, uint32_t sectors, int (*visit)(uint32_t run, uint32_t stripe, uint32_t ulbn,
                                                                         uint32_t lbn, uint32_t sectors)) {
    const uint32_t stripe_sectors = map->data_disks * map->unit;
    const uint32_t s0 = lbn / stripe_sectors, s1 = (lbn + sectors - 1) / stripe_sectors;
    for (uint32_t i = 0; i < runs_used; ++i)
        for (uint32_t s = s0 > runs[i].first_stripe ? s0 : runs[i].first_stripe; s <= s1 && s < runs[i].end_stripe;
             ++s) {
            const uint32_t u = unit_lbn(s, runs[i].disk);
            if (u != 0xFFFFFFFFu && u < lbn + sectors && lbn < u + map->unit && visit(i, s, u, lbn, sectors)) return 1;
        }
    return 0;
}

static int touched(uint32_t run, uint32_t stripe, uint32_t ulbn, uint32_t lbn, uint32_t sectors) {
    (void)run, (void)stripe, (void)ulbn, (void)lbn, (void)sectors;
    return 1;
}

int lost_overlaps(uint32_t lbn, uint32_t sectors) {
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] < lbn + sectors && lbn < end[i]) return 1;
    return runs_used && each_touched_unit(lbn, sectors, touched);
}

/* A write touches a lost unit of run `run`: the unit leaves the run (split in two when there is
 * room; else the run stays whole) and joins the range table, which the write then trims. */
static int take_out_of_run(uint32_t run, uint32_t stripe, uint32_t ulbn, uint32_t lbn, uint32_t sectors) {
    (void)lbn, (void)sectors;
    if (stripe + 1 < runs[run].end_stripe && stripe > runs[run].first_stripe) {
        if (runs_used == MAX_UNIT_RUNS || used == MAX_LOST) return 0;
        runs[runs_used] = runs[run];
        runs[runs_used].first_stripe = stripe + 1;
        ++runs_used;
        runs[run].end_stripe = stripe;
    } else if (used == MAX_LOST) {
        return 0;
    } else if (stripe == runs[run].first_stripe) {
        ++runs[run].first_stripe;
    } else {
        --runs[run].end_stripe;
    }
    keep(ulbn, map->unit);
    if (runs[run].first_stripe == runs[run].end_stripe) runs[run] = runs[--runs_used];
    return 1;  /* the runs changed: the caller looks again */
}

void lost_written(uint32_t lbn, uint32_t sectors) {
    while (runs_used && each_touched_unit(lbn, sectors, take_out_of_run)) {
    }
    const uint32_t w_end = lbn + sectors;
    for (uint32_t i = 0; i < used;) {
        if (!(first[i] < w_end && lbn < end[i])) {
            ++i;
            continue;
        }
        if (lbn <= first[i] && w_end >= end[i]) {  /* covered: drop it */
            first[i] = first[used - 1];
            end[i] = end[used - 1];
            --used;
            continue;
        }
        if (lbn <= first[i]) {
            first[i] = w_end;  /* the front is good again */
        } else if (w_end >= end[i]) {
            end[i] = lbn;  /* the back */
        } else if (used < MAX_LOST) {  /* the middle: two ranges */
            first[used] = w_end;
            end[used] = end[i];
            ++used;
            end[i] = lbn;
        }
        ++i;
    }
}
