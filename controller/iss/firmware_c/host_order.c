/* host_order.h: a table by host slot, bit masks of the slots holding writes and started reads,
 * and per-bucket counts of them (a bucket: 4096 sectors of the array, folded onto 256 counters)
 * so a command whose buckets hold nothing of the other kind is passed at once; only a command
 * near another one looks at the slots themselves. */
#include "host_order.h"

#define BUCKET_SHIFT 12u
#define BUCKETS 256u

struct entry {
    uint32_t lbn, end, seq;
};

static struct entry entries[ORDER_SLOTS];
/* Bit masks by slot, two 32-bit words (the core's own width: a 64-bit count of trailing zeros
 * would be a libgcc call): the slots holding an unacknowledged write, and a started read. */
static uint32_t writes[2];
static uint32_t started_reads[2];
static uint8_t write_count[BUCKETS], read_count[BUCKETS];

static int overlaps(const struct entry *a, const struct entry *b) { return a->lbn < b->end && b->lbn < a->end; }

static void set_bit(uint32_t *mask, uint32_t slot) { mask[slot >> 5] |= 1u << (slot & 31u); }
static void clear_bit(uint32_t *mask, uint32_t slot) { mask[slot >> 5] &= ~(1u << (slot & 31u)); }
static int has_bit(const uint32_t *mask, uint32_t slot) { return (mask[slot >> 5] >> (slot & 31u)) & 1u; }

/* Adds `delta` to the counts of the entry's buckets (every bucket once, even for a range that
 * wraps around all of them). */
static void count(uint8_t *counts, const struct entry *e, int delta) {
    const uint32_t first = e->lbn >> BUCKET_SHIFT, last = (e->end - 1) >> BUCKET_SHIFT;
    const uint32_t n = last - first + 1 < BUCKETS ? last - first + 1 : BUCKETS;
    for (uint32_t k = 0; k < n; ++k) counts[(first + k) % BUCKETS] = (uint8_t)(counts[(first + k) % BUCKETS] + delta);
}

/* Whether the entry's buckets hold more than `own` (1: the entry is counted there itself). */
static int near_any(const uint8_t *counts, const struct entry *e, uint32_t own) {
    const uint32_t first = e->lbn >> BUCKET_SHIFT, last = (e->end - 1) >> BUCKET_SHIFT;
    const uint32_t n = last - first + 1 < BUCKETS ? last - first + 1 : BUCKETS;
    for (uint32_t k = 0; k < n; ++k)
        if (counts[(first + k) % BUCKETS] > own) return 1;
    return 0;
}

/* Whether some slot in `mask` other than `slot` overlaps it (and, with `older`, arrived first). */
static int any_overlap(const uint32_t *mask, uint32_t slot, int older) {
    const struct entry *me = &entries[slot];
    for (uint32_t w = 0; w < 2; ++w) {
        uint32_t m = mask[w];
        if (w == slot >> 5) m &= ~(1u << (slot & 31u));
        while (m) {
            const struct entry *o = &entries[w * 32u + (uint32_t)__builtin_ctz(m)];
            m &= m - 1;
            if ((!older || o->seq < me->seq) && overlaps(o, me)) return 1;
        }
    }
    return 0;
}

void order_arrive(uint32_t slot, int write, uint32_t lbn, uint32_t sectors, uint32_t seq) {
    struct entry *e = &entries[slot];
    e->lbn = lbn;
    e->end = lbn + sectors;
    e->seq = seq;
    if (write) {
        set_bit(writes, slot);
        count(write_count, e, 1);
    }
}

int order_may_start(uint32_t slot) {
    const struct entry *e = &entries[slot];
    if (!near_any(write_count, e, has_bit(writes, slot))) return 1;  /* a write is counted there itself */
    return !any_overlap(writes, slot, 1);
}

void order_started(uint32_t slot) {
    if (has_bit(writes, slot)) return;
    set_bit(started_reads, slot);
    count(read_count, &entries[slot], 1);
}

int order_may_acknowledge(uint32_t slot) {
    if (!near_any(read_count, &entries[slot], 0)) return 1;
    return !any_overlap(started_reads, slot, 0);
}

void order_leave(uint32_t slot) {
    if (has_bit(writes, slot)) count(write_count, &entries[slot], -1);
    if (has_bit(started_reads, slot)) count(read_count, &entries[slot], -1);
    clear_bit(writes, slot);
    clear_bit(started_reads, slot);
}
