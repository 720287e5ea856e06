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

static uint32_t done_count, failures, buffer_handle;
/* The drive of the last MEDIUM ERROR and how many there were (one unreadable data unit can be
 * punctured; two cannot be told apart from the parity). */
static uint32_t medium_disk, medium_errors;

static void on_scsi_done(const struct completion *c) {
    const uint32_t disk = elevator_disk(c->tag);
    elevator_completed(c->tag);
    if (c->status == RT_STATUS_MEDIUM_ERROR) {
        medium_disk = disk;
        ++medium_errors;
    } else if (c->status != RT_STATUS_OK) {
        ++failures;
    }
    ++done_count;
}

static void on_engine_done(const struct completion *c) {
    if (c->status != RT_STATUS_OK) ++failures;
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

/* The stripe's parity from its data units; 0 when a command failed (the parity stays as it was).
 * A data unit that answers MEDIUM ERROR lived only in the torn parity: it is lost (recorded),
 * written as zeros (the drive reallocates the sectors) and the parity made from the rest, so the
 * stripe is consistent again and its other units stay safe (a "punctured" stripe). */
static int resync_stripe(const struct array_map *map, uint32_t stripe, uint32_t channels, uint32_t lines) {
    const uint32_t unit = map->unit, data = map->data_disks;
    done_count = failures = medium_errors = 0;
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_ALLOC, 0, (data + 1) * unit, 0, 0, 0, 0, 0);
    await(1, channels, lines);
    const uint32_t tmp = buffer_handle;
    done_count = 0;
    for (uint32_t u = 0; u < data; ++u)
        elevator_add(RECOVERY_JOB, data_disk(map, stripe, u), 0, stripe * unit, unit, RT_BUFFER_ADDRESS(tmp, u * unit));
    await(data, channels, lines);
    int ok = failures == 0 && medium_errors <= 1;
    if (ok && medium_errors == 1) {
        uint32_t u = 0;
        while (data_disk(map, stripe, u) != medium_disk) ++u;
        lost_add(stripe * data * unit + u * unit, unit);
        const uint32_t zeros = RT_BUFFER_ADDRESS(tmp, u * unit);
        done_count = 0;
        hw_submit(RT_Q_XOR, RT_OP_XOR, 0, unit, zeros, zeros, zeros, 0, 0);  /* x ^ x */
        await(1, channels, lines);
        done_count = 0;
        elevator_add(RECOVERY_JOB, medium_disk, 1, stripe * unit, unit, zeros);
        await(1, channels, lines);
        ok = failures == 0;
    }
    const uint32_t parity = RT_BUFFER_ADDRESS(tmp, data * unit);
    /* parity = d0 ^ d1 ^ d2 ^ d3, then parity ^= the next three units, ... */
    for (uint32_t first = 0; ok && first < data;) {
        uint32_t in[RT_MAX_XOR_INPUTS] = {0, 0, 0, 0}, k = 0;
        if (first > 0) in[k++] = parity;
        while (first < data && k < RT_MAX_XOR_INPUTS) in[k++] = RT_BUFFER_ADDRESS(tmp, first++ * unit);
        done_count = 0;
        hw_submit(RT_Q_XOR, RT_OP_XOR, 0, unit, parity, in[0], in[1], in[2], in[3]);
        await(1, channels, lines);
        ok = failures == 0;
    }
    if (ok) {
        done_count = 0;
        elevator_add(RECOVERY_JOB, array_parity_disk(map, stripe), 1, stripe * unit, unit, parity);
        await(1, channels, lines);
        ok = failures == 0;
    }
    hw_submit(RT_Q_BUFFER, RT_OP_BUF_FREE, 0, tmp, 0, 0, 0, 0, 0);
    return ok;
}

uint32_t recover_write_intents(const struct array_map *map, uint32_t host_slots, uint32_t channels, uint32_t lines) {
    if (map->layout != RT_LAYOUT_RAID5) return 0;
    const uint32_t failed = REG(RT_SYS_BASE, RT_SYS_FAILED_DISK);
    /* A member whose rebuild the power interrupted holds its data in the stripes the checkpoint
     * says were rebuilt: those are resynchronised as in a whole array. */
    const uint32_t present_below = failed != RT_NO_DISK ? rebuild_checkpointed(failed) : 0;
    const uint32_t stripe_sectors = map->data_disks * map->unit;
    uint32_t resynced = 0;
    for (uint32_t slot = 0; slot < host_slots; ++slot) {
        const uint32_t at = slot * INTENT_BYTES;
        if (REG(RT_NVRAM_BASE, at) != INTENT_VALID) continue;
        const uint32_t lbn = REG(RT_NVRAM_BASE, at + 4), sectors = REG(RT_NVRAM_BASE, at + 8);
        if (sectors == 0 || lbn + sectors > map->capacity_sectors) hw_panic(0x400);  /* a torn record */
        for (uint32_t s = lbn / stripe_sectors; s <= (lbn + sectors - 1) / stripe_sectors; ++s) {
            if (failed != RT_NO_DISK && s >= present_below) {
                /* A lost parity member needs nothing. A lost data member's unit lives only in the
                 * parity, which the torn write left uncertain: the unit is lost (the other units
                 * are on their drives). */
                const uint32_t parity = array_parity_disk(map, s);
                if (failed != parity)
                    lost_add(s * stripe_sectors + ((failed + map->disks - parity - 1) % map->disks) * map->unit,
                             map->unit);
                continue;
            }
            if (!resync_stripe(map, s, channels, lines)) hw_panic(0x402);
            ++resynced;
        }
        nvram_write_word(at, 0);
    }
    return resynced;
}
