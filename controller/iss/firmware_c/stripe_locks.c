/* jobs.h: the stripe locks. A job holds the stripes [lock_first, lock_last] while it reads
 * and writes them, so a read never XORs rows a write has replaced only in part and the rebuild
 * never passes a stripe a write holds; waiters go oldest first (sequence numbers), so no job
 * waits forever behind younger ones. */
#include "jobs.h"
#include "rebuild.h"

/* The states that wait for a stripe lock, as a bit mask: one test in the scans of every job. */
#define LOCK_WAITING_STATES ((1u << W5_LOCK) | (1u << R_LOCK) | (1u << RB_LOCK))
static int waits_for_lock(const struct job *o) { return (LOCK_WAITING_STATES >> o->state) & 1u; }

static int stripe_free_for(const struct job *me) {
    for (uint32_t i = 0; i < ALL_JOBS; ++i) {
        const struct job *o = &jobs[i];
        if (o == me || o->state == IDLE || o->lock_last < me->lock_first || o->lock_first > me->lock_last) continue;
        if (o->holds_lock) return 0;
        if (waits_for_lock(o) && o->seq < me->seq) return 0;  /* older ones first */
    }
    return 1;
}

void lock_stripes(struct job *j, uint8_t waiting_state) {
    j->state = waiting_state;
    if (!stripe_free_for(j)) return;
    j->holds_lock = 1;
    /* A job that took the member now being rebuilt for lost sees it as the rebuild does: the
     * rebuild cannot pass the stripes this job holds. */
    if (j->lost != RT_NO_DISK && j->lost == rebuild_member()) j->partial = 1;
    if (j->partial) j->lost_from = rebuild_cursor(j->lost);
    if (waiting_state == W5_LOCK)
        stripe_begin(j);
    else if (waiting_state == RB_LOCK)
        rebuild_locked(j);
    else
        read_locked(j);
}

int disk_lost_in(const struct job *j, uint32_t disk, uint32_t stripe) {
    return disk == j->lost && (!j->partial || stripe >= j->lost_from);
}

void unlock_stripes(uint32_t first, uint32_t last) {
    /* The oldest job waiting for one of them goes next, then the next oldest if it can. */
    uint32_t after = 0;
    int any = 1;
    while (any) {
        struct job *oldest = 0;
        any = 0;
        for (uint32_t i = 0; i < ALL_JOBS; ++i) {
            struct job *o = &jobs[i];
            if (!waits_for_lock(o) || o->lock_last < first || o->lock_first > last || o->seq < after) continue;
            if (!oldest || o->seq < oldest->seq) oldest = o;
        }
        if (!oldest) return;
        after = oldest->seq + 1;
        any = 1;
        lock_stripes(oldest, oldest->state);
    }
}
