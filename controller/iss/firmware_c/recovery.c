/* Power-loss recovery (recovery.h). Nothing else runs yet, so each step waits for its own
 * completions (sleeping between interrupts) instead of joining the request state machine:
 * per stripe, a scratch buffer, a read of every data unit (through the elevator), an XOR chain
 * into the parity, the parity written, the buffer freed. */
#include "recovery.h"

#include "elevator.h"
#include "hw.h"
#include "lost_ranges.h"
#include "rebuild.h"

#define RECOVERY_JOB 0u /* the elevator's job number for recovery commands (no host job exists yet) */

static uint32_t done_count, buffer_handle;
/* The members whose commands failed (drive gone) and those that answered MEDIUM ERROR in the
 * current step, one bit a drive. */
static uint32_t failed_members, medium_members;

static void on_scsi_done(const struct completion *c) {
    const uint32_t disk = elevator_disk(c->tag);
    elevator_completed(c->tag);
    if (c->status == RT_STATUS_MEDIUM_ERROR)
        medium_members |= 1u << disk;
    else if (c->status != RT_STATUS_OK)
        failed_members |= 1u << disk;
    ++done_count;
}

/* The engines (buffer, XOR) do not fail while the firmware's requests are well formed. */
static void on_engine_done(const struct completion *c) {
    if (c->status != RT_STATUS_OK) hw_panic(0x403);
    buffer_handle = c->result;
    ++done_count;
}

/* Sleeps and drains until `n` completions have come back. */
static void await(uint32_t n, uint32_t channels, uint32_t lines) {
    static const struct queue_handlers handlers = {on_scsi_done, on_engine_done, 0, on_engine_done, 0, 0};
    while (done_count < n) hw_serve(lines, channels, &handlers);
}

static uint32_t data_disk(const struct array_map *map, uint32_t stripe, uint32_t unit) {
    return (array_parity_disk(map, stripe) + 1 + unit) % map->disks;
}

/* The stripe's parity from its data units. Returns the members whose commands failed (a drive
 * lost during the resync; 0: resynchronised). A data unit that answers MEDIUM ERROR lived only in
 * the torn parity: it is lost (recorded), written as zeros (the drive reallocates the sectors) and
 * the parity made from the rest, so the stripe is consistent again and its other units stay safe
 * (a "punctured" stripe). Two or more such units are each lost the same way (beyond RAID 5's
 * promise; no unit of the stripe could be rebuilt from that parity anyway). */
static uint32_t resync_stripe(const struct array_map *map, uint32_t stripe, uint32_t channels, uint32_t lines) {
    const uint32_t unit = map->unit, data = map->data_disks;
    done_count = failed_members = medium_members = 0;
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, 0, (data + 1) * unit, 0, 0, 0, 0, 0);
    await(1, channels, lines);
    const uint32_t tmp = buffer_handle;
    done_count = 0;
    for (uint32_t u = 0; u < data; ++u)
        elevator_add(RECOVERY_JOB, data_disk(map, stripe, u), 0, stripe * unit, unit, RT_BUFFER_ADDRESS(tmp, u * unit));
    await(data, channels, lines);
    for (uint32_t u = 0; failed_members == 0 && u < data; ++u) {
        const uint32_t disk = data_disk(map, stripe, u);
        if (!(medium_members & (1u << disk))) continue;
        lost_add_unit(stripe, disk);
        const uint32_t zeros = RT_BUFFER_ADDRESS(tmp, u * unit);
        done_count = 0;
        hw_submit(RT_Q_XOR, RT_OP_XOR, 0, unit, zeros, zeros, zeros, 0, 0);  /* x ^ x */
        await(1, channels, lines);
        done_count = 0;
        elevator_add(RECOVERY_JOB, disk, 1, stripe * unit, unit, zeros);
        await(1, channels, lines);
    }
    const uint32_t parity = RT_BUFFER_ADDRESS(tmp, data * unit);
    /* parity = d0 ^ d1 ^ d2 ^ d3, then parity ^= the next three units, ... */
    for (uint32_t first = 0; failed_members == 0 && first < data;) {
        uint32_t in[RT_MAX_XOR_INPUTS] = {0, 0, 0, 0}, k = 0;
        if (first > 0) in[k++] = parity;
        while (first < data && k < RT_MAX_XOR_INPUTS) in[k++] = RT_BUFFER_ADDRESS(tmp, first++ * unit);
        done_count = 0;
        hw_submit(RT_Q_XOR, RT_OP_XOR, 0, unit, parity, in[0], in[1], in[2], in[3]);
        await(1, channels, lines);
    }
    if (failed_members == 0) {
        done_count = 0;
        elevator_add(RECOVERY_JOB, array_parity_disk(map, stripe), 1, stripe * unit, unit, parity);
        await(1, channels, lines);
    }
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, tmp, 0, 0, 0, 0, 0);
    return failed_members;
}

/* The stripes below which member `failed` holds its data: a member whose rebuild the power
 * interrupted holds them in the stripes its checkpoint says were rebuilt (resynchronised as in a
 * whole array); a member lost now, none. */
static uint32_t present_below(uint32_t failed) {
    return failed != RT_NO_DISK ? rebuild_checkpointed(failed) : 0;
}

static uint32_t min_u32(uint32_t x, uint32_t y) { return x < y ? x : y; }
static uint32_t max_u32(uint32_t x, uint32_t y) { return x > y ? x : y; }

/* A torn write over array sectors [lbn, lbn + sectors) in a stripe missing member `failed`. A lost
 * parity member needs nothing. A lost data member's unit lives only in the parity: in a row the
 * write touched in another data unit, the parity may hold that unit's old or new rows and so
 * cannot give the missing unit back (lost); in a row the write touched only in the missing unit
 * (or not at all), the other units are as the parity was made, which gives the unit back old or
 * new, either of them the host's (a write not acknowledged). */
static void lose_ambiguous_rows(const struct array_map *map, uint32_t stripe, uint32_t failed, uint32_t lbn,
                                uint32_t sectors) {
    const uint32_t parity = array_parity_disk(map, stripe);
    if (failed == parity) return;
    const uint32_t unit = map->unit, stripe_lbn = stripe * map->data_disks * unit;
    const uint32_t missing = (failed + map->disks - parity - 1) % map->disks;  /* its data unit index */
    const uint32_t a = max_u32(lbn, stripe_lbn) - stripe_lbn;
    const uint32_t b = min_u32(lbn + sectors, stripe_lbn + map->data_disks * unit) - stripe_lbn;
    /* The rows touched elsewhere: a contiguous range covers a suffix of its first unit, every row
     * of those between, a prefix of its last; or a middle piece of a single unit. */
    uint32_t prefix_end = 0, suffix_start = unit, middle_first = unit, middle_end = 0;
    for (uint32_t u = a / unit; u <= (b - 1) / unit; ++u) {
        if (u == missing) continue;
        const uint32_t r0 = max_u32(a, u * unit) - u * unit, r1 = min_u32(b, (u + 1) * unit) - u * unit;
        if (r0 == 0) {
            prefix_end = max_u32(prefix_end, r1);
        } else if (r1 == unit) {
            suffix_start = min_u32(suffix_start, r0);
        } else {
            middle_first = r0;
            middle_end = r1;
        }
    }
    const uint32_t unit_lbn = stripe_lbn + missing * unit;
    if (prefix_end >= suffix_start) {
        lost_add(unit_lbn, unit);
        return;
    }
    if (prefix_end > 0) lost_add(unit_lbn, prefix_end);
    if (suffix_start < unit) lost_add(unit_lbn + suffix_start, unit - suffix_start);
    if (middle_first < middle_end) lost_add(unit_lbn + middle_first, middle_end - middle_first);
}

/* One stripe of the write-intent record [lbn, lbn + sectors); returns 1 when resynchronised. A
 * member lost during the resync (the controller reports it failed now: FAILED_DISK changed) is
 * planned again without; a command failing with no new member reported failed (a second drive
 * gone while one is already missing: beyond the promise) loses the stripe's units on the drives
 * that failed and on the missing one. */
static uint32_t recover_stripe(const struct array_map *map, uint32_t stripe, uint32_t lbn, uint32_t sectors,
                               uint32_t channels, uint32_t lines) {
    for (;;) {
        const uint32_t failed = REG(RT_SYS_BASE, RT_SYS_FAILED_DISK);
        if (failed != RT_NO_DISK && stripe >= present_below(failed)) {
            lose_ambiguous_rows(map, stripe, failed, lbn, sectors);
            return 0;
        }
        const uint32_t gone = resync_stripe(map, stripe, channels, lines);
        if (gone == 0) return 1;
        if (REG(RT_SYS_BASE, RT_SYS_FAILED_DISK) != failed) continue;
        for (uint32_t d = 0; d < map->disks; ++d)
            if (gone & (1u << d)) lost_add_unit(stripe, d);
        if (failed != RT_NO_DISK) lost_add_unit(stripe, failed);
        return 0;
    }
}

uint32_t recover_write_intents(const struct array_map *map, uint32_t host_slots, uint32_t channels, uint32_t lines) {
    if (map->layout != RT_LAYOUT_RAID5) return 0;
    const uint32_t stripe_sectors = map->data_disks * map->unit;
    uint32_t resynced = 0;
    for (uint32_t slot = 0; slot < host_slots; ++slot) {
        const uint32_t at = slot * INTENT_BYTES;
        if (REG(RT_NVRAM_BASE, at) != INTENT_VALID) continue;
        const uint32_t lbn = REG(RT_NVRAM_BASE, at + 4), sectors = REG(RT_NVRAM_BASE, at + 8);
        if (sectors == 0 || lbn + sectors > map->capacity_sectors) hw_panic(0x400);  /* a torn record */
        for (uint32_t s = lbn / stripe_sectors; s <= (lbn + sectors - 1) / stripe_sectors; ++s)
            resynced += recover_stripe(map, s, lbn, sectors, channels, lines);
        nvram_write_word(at, 0);
    }
    return resynced;
}
