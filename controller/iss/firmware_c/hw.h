/* The firmware's access to the register-level controller: registers, queues, NVRAM. */
#ifndef FW_HW_H
#define FW_HW_H
#include <stdint.h>

#include "raidtlm_regs.h"

#define REG(base, offset) (*(volatile uint32_t *)((base) + (offset)))

/* One completion as an engine posted it. */
struct completion {
    uint32_t tag, status, result, time_us;
};

/* Writes one 8-word descriptor into queue q's submission ring and rings its doorbell. */
void hw_submit(unsigned q, uint32_t op, uint32_t tag, uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e,
               uint32_t f);
/* Calls handle() for every completion queue q has posted, then tells the engine how far it read. */
void hw_drain(unsigned q, void (*handle)(const struct completion *));
/* What serves each engine's completions (0: the queue is not expected to post any). */
struct queue_handlers {
    void (*scsi)(const struct completion *);
    void (*xor_done)(const struct completion *);
    void (*host_dma)(const struct completion *);
    void (*buffer)(const struct completion *);
    void (*host)(const struct completion *);
    void (*events)(uint32_t pending);  /* lines RT_IRQ_MEMBERS, RT_IRQ_REBUILD and RT_IRQ_TIMER */
};
/* One turn of the interrupt-driven loop: sleeps (WFI) when none of `lines` is pending, else
 * drains every pending queue, completions first (they free tags and buffers), new host commands
 * last. */
void hw_serve(uint32_t lines, uint32_t channels, const struct queue_handlers *h);
/* Line `line` ignored (mask 1: not served, and the core not woken by it) or served again. */
void hw_mask(uint32_t line, int mask);
void hw_putc(char c);
void hw_puts(const char *s);
void hw_panic(uint32_t code);
void nvram_write_word(uint32_t offset, uint32_t value);

#endif
