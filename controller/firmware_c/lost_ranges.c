/* lost_ranges.h: a small table of [first, end) ranges; empty in every run without such a loss,
 * so the checks cost one compare. A write inside a range splits it when there is room, and
 * otherwise leaves it whole (its sectors then stay refused: never served wrong). */
#include "lost_ranges.h"

#include "hw.h"

#define MAX_LOST 64u

static uint32_t first[MAX_LOST], end[MAX_LOST];
static uint32_t used;

void lost_add(uint32_t lbn, uint32_t sectors) {
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] == lbn && end[i] == lbn + sectors) return;  /* once each */
    if (used == MAX_LOST) hw_panic(0x500);  /* more torn stripes than a power loss can leave */
    first[used] = lbn;
    end[used] = lbn + sectors;
    ++used;
    REG(RT_SYS_BASE, RT_SYS_LOST_LBN) = lbn;
    REG(RT_SYS_BASE, RT_SYS_LOST_SECTORS) = sectors;
}

int lost_overlaps(uint32_t lbn, uint32_t sectors) {
    for (uint32_t i = 0; i < used; ++i)
        if (first[i] < lbn + sectors && lbn < end[i]) return 1;
    return 0;
}

void lost_written(uint32_t lbn, uint32_t sectors) {
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
