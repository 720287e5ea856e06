/* raidtlm's reference controller firmware: bare-metal C for the Cortex-M4 core of the
 * register-level controller (raidtlm_regs.h, docs/REGISTER_MAP.md). Boot: read the array's
 * facts, check the timer's interrupt, announce the capacity, check which drives are the members
 * it wrote (members.h), replay the write-intent records a power loss left (recovery.h); then an
 * interrupt-driven loop: sleep (WFI) until a line is pending, serve every pending engine's
 * completions, and a rebuild onto a
 * fresh drive (rebuild.h). */
#include "array_map.h"
#include "elevator.h"
#include "hw.h"
#include "lost_ranges.h"
#include "members.h"
#include "rebuild.h"
#include "recovery.h"
#include "requests.h"

static struct array_map map;
static uint8_t channel_of[RT_MAX_DISKS];

static void put_number(uint32_t n) {
    char digits[11];
    int k = 0;
    do {
        digits[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k) hw_putc(digits[--k]);
}

/* Arms the timer a few microseconds ahead and sleeps until its line wakes the core. */
static void check_timer(void) {
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = 1u << RT_IRQ_TIMER;
    REG(RT_TIMER_BASE, RT_TIMER_COMPARE_US) = REG(RT_TIMER_BASE, RT_TIMER_NOW_US) + 5;
    REG(RT_TIMER_BASE, RT_TIMER_CONTROL) = 1;
    while (!(REG(RT_IRQ_BASE, RT_IRQ_PENDING) & (1u << RT_IRQ_TIMER))) REG(RT_IRQ_BASE, RT_IRQ_WFI) = 1;
    REG(RT_TIMER_BASE, RT_TIMER_CONTROL) = 0;
    if (REG(RT_IRQ_BASE, RT_IRQ_PENDING) & (1u << RT_IRQ_TIMER)) hw_panic(0x300);
}

/* Lines RT_IRQ_MEMBERS, RT_IRQ_REBUILD, RT_IRQ_TIMER: the superblocks first (a rebuild taken
 * now is a change they record). */
static void on_events(uint32_t pending) {
    if (pending & (1u << RT_IRQ_MEMBERS)) members_events();
    if (pending & ((1u << RT_IRQ_REBUILD) | (1u << RT_IRQ_TIMER))) rebuild_events(pending);
}

/* Not inlined into reset_handler nor cloned (noipa) by the whole-program build: `main` stays a function of its own
 * for GDB's `break main`, the waves' function names and the cycle profile. */
__attribute__((noipa)) int main(void) {
    if (REG(RT_SYS_BASE, RT_SYS_ID) != RT_ID_VALUE) hw_panic(1);
    const uint32_t disks = REG(RT_SYS_BASE, RT_SYS_DISKS);
    const uint32_t channels = REG(RT_SYS_BASE, RT_SYS_CHANNELS);
    if (disks == 0 || disks > RT_MAX_DISKS || channels == 0 || channels > RT_MAX_CHANNELS) hw_panic(2);
    for (uint32_t d = 0; d < disks; ++d) channel_of[d] = (uint8_t)REG(RT_SYS_BASE, RT_SYS_CHANNEL_OF + 4 * d);
    array_map_init(&map, disks, REG(RT_SYS_BASE, RT_SYS_STRIPE_UNIT), REG(RT_SYS_BASE, RT_SYS_LAYOUT),
                   REG(RT_SYS_BASE, RT_SYS_DISK_SECTORS));
    elevator_init(disks, REG(RT_SYS_BASE, RT_SYS_TAGS_PER_DISK), channel_of);
    const uint32_t host_slots = REG(RT_SYS_BASE, RT_SYS_HOST_SLOTS);
    const uint32_t nvram_bytes = REG(RT_SYS_BASE, RT_SYS_NVRAM_BYTES);
    if (nvram_bytes < REBUILD_CHECKPOINT_BYTES) hw_panic(3);
    requests_init(&map, host_slots, nvram_bytes - REBUILD_CHECKPOINT_BYTES);
    /* NVRAM: the write-intent records, the rebuild checkpoint, then the lost-range tables. */
    rebuild_init(&map, host_slots * INTENT_BYTES);
    members_init(&map, channel_of);
    const uint32_t lost_at = host_slots * INTENT_BYTES + REBUILD_CHECKPOINT_BYTES;
    lost_ranges_init(&map, lost_at, nvram_bytes - lost_at);
    check_timer();

    hw_puts(map.layout == RT_LAYOUT_RAID5 ? "RAID 5, " : "RAID 0, ");
    put_number(disks);
    hw_puts(" disks, ");
    put_number(map.capacity_sectors);
    hw_puts(" sectors\n");
    REG(RT_SYS_BASE, RT_SYS_ARRAY_SECTORS) = map.capacity_sectors;  /* the register block checks it */

    uint32_t lines = (1u << RT_Q_HOST) | (1u << RT_Q_BUFFER) | (1u << RT_Q_DMA) | (1u << RT_Q_XOR);
    for (uint32_t c = 0; c < channels; ++c) lines |= 1u << (RT_Q_SCSI0 + c);
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = lines;
    /* Which drives are the members it wrote, before anything is read from them (members.h). */
    members_check_at_boot(channels, lines);
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = lines;
    /* After a power loss: the stripes of the writes that were in flight, before any host command. */
    REG(RT_SYS_BASE, RT_SYS_RECOVERED) = recover_write_intents(&map, host_slots, channels, lines);
    /* Then a rebuild onto a fresh drive (again, after a power loss during one) and its pacing,
     * and the members' superblocks rewritten on every change of their states. */
    lines |= (1u << RT_IRQ_REBUILD) | (1u << RT_IRQ_TIMER) | (1u << RT_IRQ_MEMBERS);
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = lines;
    elevator_serving();
    REG(RT_SYS_BASE, RT_SYS_READY) = 1;

    static const struct queue_handlers handlers = {on_scsi, on_xor, on_host_dma, on_buffer, on_host_command,
                                                   on_events};
    for (;;) hw_serve(lines, channels, &handlers);
}
