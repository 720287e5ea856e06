/* lost_ranges.h: two small tables, empty in every run without such a loss, so the checks cost
 * two compares: [first, end) ranges of array sectors, and runs of one member's data units over
 * consecutive stripes. A write inside a range splits it when there is room, and otherwise leaves
 * it whole (its sectors then stay refused: never served wrong); a range that finds the table
 * full widens the nearest one over itself for the same reason. */
#include "lost_ranges.h"

#include "hw.h"

#define MAX_LOST 1024u
#define MAX_UNIT_RUNS 64u

/* The tables live in RAM for the checks and are written through to the NVRAM, which keeps them
 * across a power loss: a real controller keeps its bad-block list (md's bad-block log, a DDF
 * controller's) where a restart finds it. Forgotten at a restart, a unit lost to a torn stripe
 * would be served again from parity that does not hold it (and rebuilt from it onto a fresh
 * drive). NVRAM layout at `nv_base`: the tag word, the two counts, `range_capacity` (first, end)
 * pairs, then `run_capacity` (first stripe, end stripe, disk) triples. Every change writes the
 * entry before the count that makes it count, so a power cut mid-update leaves an entry too
 * many (a sector refused, never one served wrong). */
#define NV_TAG 0x4C4F5354u /* "LOST" */
#define NV_HEADER_BYTES 12u
#define NV_RUN_BYTES 12u

static const struct array_map *map;
static uint32_t first[MAX_LOST], end[MAX_LOST];
static uint32_t used;
static struct {
    uint32_t first_stripe, end_stripe, disk;
    uint32_t epoch;
} runs[MAX_UNIT_RUNS];
/* When each entry was (last) recorded lost, in RAM only (lost_ranges.h: lost_written): a restart
 * finds no write in flight, so what it reads back counts as recorded at epoch 0. */
static uint32_t range_epoch[MAX_LOST];
static uint32_t epoch_now;
static uint32_t runs_used;
static uint32_t nv_base, range_capacity, run_capacity;

static uint32_t nv_range(uint32_t i) { return nv_base + NV_HEADER_BYTES + 8 * i; }
static uint32_t nv_run(uint32_t i) { return nv_base + NV_HEADER_BYTES + 8 * range_capacity + NV_RUN_BYTES * i; }

uint32_t lost_epoch(void) { return epoch_now; }

static void set_range(uint32_t i, uint32_t f, uint32_t e) {
    first[i] = f;
    end[i] = e;
    nvram_write_word(nv_range(i), f);
    nvram_write_word(nv_range(i) + 4, e);
}

static void set_used(uint32_t n) {
    used = n;
    nvram_write_word(nv_base + 4, n);
}

static void save_run(uint32_t i) {
    nvram_write_word(nv_run(i), runs[i].first_stripe);
    nvram_write_word(nv_run(i) + 4, runs[i].end_stripe);
    nvram_write_word(nv_run(i) + 8, runs[i].disk);
}

static void set_runs_used(uint32_t n) {
    runs_used = n;
    nvram_write_word(nv_base + 8, n);
}

void lost_ranges_init(const struct array_map *m, uint32_t nvram_offset, uint32_t nvram_bytes) {
    map = m;
    nv_base = nvram_offset;
    if (nvram_bytes < NV_HEADER_BYTES + 8 + NV_RUN_BYTES) hw_panic(0x500);
    /* The ranges take what the runs leave; both at most their RAM tables. */
    const uint32_t room = nvram_bytes - NV_HEADER_BYTES;
    run_capacity = room / 4 / NV_RUN_BYTES;
    if (run_capacity > MAX_UNIT_RUNS) run_capacity = MAX_UNIT_RUNS;
    if (run_capacity == 0) run_capacity = 1;
    range_capacity = (room - run_capacity * NV_RUN_BYTES) / 8;
    if (range_capacity > MAX_LOST) range_capacity = MAX_LOST;
    used = runs_used = 0;
    epoch_now = 0;
    for (uint32_t i = 0; i < MAX_LOST; ++i) range_epoch[i] = 0;
    for (uint32_t i = 0; i < MAX_UNIT_RUNS; ++i) runs[i].epoch = 0;
    if (REG(RT_NVRAM_BASE, nv_base) == NV_TAG) {  /* a restart: what was lost before stays lost */
        used = REG(RT_NVRAM_BASE, nv_base + 4);
        runs_used = REG(RT_NVRAM_BASE, nv_base + 8);
        if (used > range_capacity || runs_used > run_capacity) hw_panic(0x501);
        for (uint32_t i = 0; i < used; ++i) {
            first[i] = REG(RT_NVRAM_BASE, nv_range(i));
            end[i] = REG(RT_NVRAM_BASE, nv_range(i) + 4);
        }
        for (uint32_t i = 0; i < runs_used; ++i) {
            runs[i].first_stripe = REG(RT_NVRAM_BASE, nv_run(i));
            runs[i].end_stripe = REG(RT_NVRAM_BASE, nv_run(i) + 4);
            runs[i].disk = REG(RT_NVRAM_BASE, nv_run(i) + 8);
        }
        return;
    }
    set_used(0);
    set_runs_used(0);
    nvram_write_word(nv_base, NV_TAG);
}

static void report(uint32_t lbn, uint32_t sectors) {
    REG(RT_SYS_BASE, RT_SYS_LOST_LBN) = lbn;
    REG(RT_SYS_BASE, RT_SYS_LOST_SECTORS) = sectors;
}

static uint32_t max_epoch(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* Into the range table without a report (already reported, or a part of a reported unit), as
 * recorded at `epoch`. */
static void keep(uint32_t lbn, uint32_t sectors, uint32_t epoch) {
    const uint32_t e = lbn + sectors;
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] <= lbn && e <= end[i]) {  /* already inside one: lost again as of now */
            range_epoch[i] = max_epoch(range_epoch[i], epoch);
            return;
        }
    if (used < range_capacity) {
        range_epoch[used] = epoch;
        set_range(used, lbn, e);
        set_used(used + 1);
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
    range_epoch[nearest] = max_epoch(range_epoch[nearest], epoch);
    set_range(nearest, lbn < first[nearest] ? lbn : first[nearest], e > end[nearest] ? e : end[nearest]);
}

void lost_add(uint32_t lbn, uint32_t sectors) {
    ++epoch_now;
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] == lbn && end[i] == lbn + sectors) {  /* reported once each; lost again as of now */
            range_epoch[i] = epoch_now;
            return;
        }
    keep(lbn, sectors, epoch_now);
    report(lbn, sectors);
}

/* The first array sector of `disk`'s unit in `stripe`; 0xFFFFFFFF: the disk holds its parity. */
static uint32_t unit_lbn(uint32_t stripe, uint32_t disk) {
    const uint32_t parity = array_parity_disk(map, stripe);
    if (disk == parity) return 0xFFFFFFFFu;
    return stripe * map->data_disks * map->unit + ((disk + map->disks - parity - 1) % map->disks) * map->unit;
}

/* Whether a run holds `disk`'s unit of `stripe`; if so, it is lost again as of now. */
static int in_runs(uint32_t stripe, uint32_t disk) {
    for (uint32_t i = 0; i < runs_used; ++i)
        if (runs[i].disk == disk && runs[i].first_stripe <= stripe && stripe < runs[i].end_stripe) {
            runs[i].epoch = epoch_now;
            return 1;
        }
    return 0;
}

void lost_add_unit(uint32_t stripe, uint32_t disk) {
    const uint32_t lbn = unit_lbn(stripe, disk);
    if (lbn == 0xFFFFFFFFu) return;
    ++epoch_now;
    if (in_runs(stripe, disk)) return;
    for (uint32_t i = 0; i < runs_used; ++i)
        if (runs[i].disk == disk && runs[i].end_stripe == stripe) {
            runs[i].epoch = epoch_now;
            ++runs[i].end_stripe;
            save_run(i);
            report(lbn, map->unit);
            return;
        }
    if (runs_used == run_capacity) {
        lost_add(lbn, map->unit);
        return;
    }
    runs[runs_used].first_stripe = stripe;
    runs[runs_used].end_stripe = stripe + 1;
    runs[runs_used].disk = disk;
    runs[runs_used].epoch = epoch_now;
    save_run(runs_used);
    set_runs_used(runs_used + 1);
    report(lbn, map->unit);
}

void lost_add_units(uint32_t first_stripe, uint32_t end_stripe, uint32_t disk) {
    if (first_stripe >= end_stripe) return;
    ++epoch_now;
    for (uint32_t i = 0; i < runs_used; ++i)
        if (runs[i].disk == disk && runs[i].first_stripe <= first_stripe && end_stripe <= runs[i].end_stripe) {
            runs[i].epoch = epoch_now;  /* recorded (and reported) already: lost again as of now */
            return;
        }
    /* One run over the whole span, whatever runs or ranges of the member it covers already (an
     * entry too many refuses nothing more). A full run table: unit by unit into the ranges. */
    if (runs_used == run_capacity) {
        for (uint32_t s = first_stripe; s < end_stripe; ++s) lost_add_unit(s, disk);
        return;
    }
    runs[runs_used].first_stripe = first_stripe;
    runs[runs_used].end_stripe = end_stripe;
    runs[runs_used].disk = disk;
    runs[runs_used].epoch = epoch_now;
    save_run(runs_used);
    set_runs_used(runs_used + 1);
    /* The controller's statistics count array sectors: one report a data unit. */
    for (uint32_t s = first_stripe; s < end_stripe; ++s) {
        const uint32_t lbn = unit_lbn(s, disk);
        if (lbn != 0xFFFFFFFFu) report(lbn, map->unit);
    }
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
static uint32_t written_epoch; /* lost_written's: entries recorded after it stay */

static int take_out_of_run(uint32_t run, uint32_t stripe, uint32_t ulbn, uint32_t lbn, uint32_t sectors) {
    (void)lbn, (void)sectors;
    if (runs[run].epoch > written_epoch) return 0;
    /* The unit joins the range table first: a power cut between the steps leaves it in both. */
    if (stripe + 1 < runs[run].end_stripe && stripe > runs[run].first_stripe) {
        if (runs_used == run_capacity || used == range_capacity) return 0;
        keep(ulbn, map->unit, runs[run].epoch);
        runs[runs_used] = runs[run];
        runs[runs_used].first_stripe = stripe + 1;
        save_run(runs_used);
        set_runs_used(runs_used + 1);
        runs[run].end_stripe = stripe;
    } else if (used == range_capacity) {
        return 0;
    } else {
        keep(ulbn, map->unit, runs[run].epoch);
        if (stripe == runs[run].first_stripe)
            ++runs[run].first_stripe;
        else
            --runs[run].end_stripe;
    }
    save_run(run);
    if (runs[run].first_stripe == runs[run].end_stripe) {
        runs[run] = runs[runs_used - 1];
        save_run(run);
        set_runs_used(runs_used - 1);
    }
    return 1;  /* the runs changed: the caller looks again */
}

void lost_written(uint32_t lbn, uint32_t sectors, uint32_t planned_epoch) {
    written_epoch = planned_epoch;
    while (runs_used && each_touched_unit(lbn, sectors, take_out_of_run)) {
    }
    const uint32_t w_end = lbn + sectors;
    for (uint32_t i = 0; i < used;) {
        if (!(first[i] < w_end && lbn < end[i]) || range_epoch[i] > planned_epoch) {
            ++i;
            continue;
        }
        if (lbn <= first[i] && w_end >= end[i]) {  /* covered: drop it */
            range_epoch[i] = range_epoch[used - 1];
            set_range(i, first[used - 1], end[used - 1]);
            set_used(used - 1);
            continue;
        }
        if (lbn <= first[i]) {
            set_range(i, w_end, end[i]);  /* the front is good again */
        } else if (w_end >= end[i]) {
            set_range(i, first[i], lbn);  /* the back */
        } else if (used < range_capacity) {  /* the middle: two ranges */
            range_epoch[used] = range_epoch[i];
            set_range(used, w_end, end[i]);
            set_used(used + 1);
            set_range(i, first[i], lbn);
        }
        ++i;
    }
}
