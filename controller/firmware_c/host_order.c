/* host_order.h: a table by host slot; checks scan it (64 entries) only for a command that
 * overlaps something, which a uniform workload over a large array almost never does. */
#include "host_order.h"

struct entry {
    uint8_t active, write, started;
    uint32_t lbn, end, seq;
};

static struct entry entries[ORDER_SLOTS];

void order_arrive(uint32_t slot, int write, uint32_t lbn, uint32_t sectors, uint32_t seq) {
    struct entry *e = &entries[slot];
    e->active = 1;
    e->write = (uint8_t)(write != 0);
    e->started = 0;
    e->lbn = lbn;
    e->end = lbn + sectors;
    e->seq = seq;
}

static int overlaps(const struct entry *a, const struct entry *b) { return a->lbn < b->end && b->lbn < a->end; }

int order_may_start(uint32_t slot) {
    const struct entry *me = &entries[slot];
    for (uint32_t i = 0; i < ORDER_SLOTS; ++i) {
        const struct entry *o = &entries[i];
        if (o->active && o->write && o != me && o->seq < me->seq && overlaps(o, me)) return 0;
    }
    return 1;
}

void order_started(uint32_t slot) { entries[slot].started = 1; }

int order_may_acknowledge(uint32_t slot) {
    const struct entry *me = &entries[slot];
    for (uint32_t i = 0; i < ORDER_SLOTS; ++i) {
        const struct entry *o = &entries[i];
        if (o->active && !o->write && o->started && overlaps(o, me)) return 0;
    }
    return 1;
}

void order_leave(uint32_t slot) { entries[slot].active = 0; }
