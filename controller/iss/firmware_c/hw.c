#include "hw.h"

#include "elevator.h"

static uint32_t sq_tail[RT_QUEUES];
static uint32_t cq_head[RT_QUEUES];

void hw_submit(unsigned q, uint32_t op, uint32_t tag, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e,
               uint32_t f) {
    const uint32_t base = RT_QUEUE_BASE(q);
    const uint32_t t = sq_tail[q];
    const uint32_t next = (t + 1) % RT_QUEUE_DEPTH;
    /* The engine takes descriptors when the doorbell rings, so the ring is never full for long. */
    while (next == REG(base, RT_Q_SQ_HEAD)) {
    }
    const uint32_t entry = RT_Q_SQ_ENTRY(t);
    REG(base, entry + 0) = op;
    REG(base, entry + 4) = tag;
    REG(base, entry + 8) = a;
    REG(base, entry + 12) = b;
    REG(base, entry + 16) = c;
    REG(base, entry + 20) = d;
    REG(base, entry + 24) = e;
    REG(base, entry + 28) = f;
    sq_tail[q] = next;
    REG(base, RT_Q_SQ_TAIL) = next;
}

void hw_drain(unsigned q, void (*handle)(const struct completion *)) {
    const uint32_t base = RT_QUEUE_BASE(q);
    uint32_t head = cq_head[q];
    uint32_t tail = REG(base, RT_Q_CQ_TAIL);
    while (head != tail) {
        while (head != tail) {
            struct completion c;
            const uint32_t entry = RT_Q_CQ_ENTRY(head);
            c.tag = REG(base, entry + 0);
            c.status = REG(base, entry + 4);
            c.result = REG(base, entry + 8);
            c.time_us = REG(base, entry + 12);
            head = (head + 1) % RT_QUEUE_DEPTH;
            handle(&c);
        }
        cq_head[q] = head;
        REG(base, RT_Q_CQ_HEAD) = head;  /* may let waiting completions in */
        tail = REG(base, RT_Q_CQ_TAIL);
    }
}

static uint32_t masked;

void hw_mask(uint32_t line, int mask) {
    const uint32_t bit = 1u << line;
    if (mask == ((masked & bit) != 0)) return;
    masked ^= bit;
    REG(RT_IRQ_BASE, RT_IRQ_ENABLE) = mask ? REG(RT_IRQ_BASE, RT_IRQ_ENABLE) & ~bit : REG(RT_IRQ_BASE, RT_IRQ_ENABLE) | bit;
}

void hw_serve(uint32_t lines, uint32_t channels, const struct queue_handlers *h) {
    const uint32_t pending = REG(RT_IRQ_BASE, RT_IRQ_PENDING) & lines & ~masked;
    if (!pending) {
        REG(RT_IRQ_BASE, RT_IRQ_WFI) = 1;
        return;
    }
    for (uint32_t c = 0; c < channels; ++c)
        if (pending & (1u << (RT_Q_SCSI0 + c))) hw_drain(RT_Q_SCSI0 + c, h->scsi);
    if ((pending & (1u << RT_Q_XOR)) && h->xor_done) hw_drain(RT_Q_XOR, h->xor_done);
    if ((pending & (1u << RT_Q_DMA)) && h->host_dma) hw_drain(RT_Q_DMA, h->host_dma);
    if ((pending & (1u << RT_Q_BUFFER)) && h->buffer) hw_drain(RT_Q_BUFFER, h->buffer);
    if ((pending & ((1u << RT_IRQ_MEMBERS) | (1u << RT_IRQ_REBUILD) | (1u << RT_IRQ_TIMER))) && h->events)
        h->events(pending);
    if ((pending & (1u << RT_Q_HOST)) && h->host) hw_drain(RT_Q_HOST, h->host);
    /* The commands the elevator would not send this turn (elevator.h), as failed completions. */
    uint32_t tag;
    while (h->scsi && elevator_next_refused(&tag)) {
        const struct completion c = {tag, RT_STATUS_ERROR, 0, REG(RT_TIMER_BASE, RT_TIMER_NOW_US)};
        h->scsi(&c);
    }
}

void hw_putc(char c) { REG(RT_SYS_BASE, RT_SYS_CONSOLE) = (uint32_t)c; }

void hw_puts(const char *s) {
    while (*s) hw_putc(*s++);
}

void hw_panic(uint32_t code) {
    for (;;) REG(RT_SYS_BASE, RT_SYS_PANIC) = code;
}

void nvram_write_word(uint32_t offset, uint32_t value) { REG(RT_NVRAM_BASE, offset) = value; }
