/* Reset: the Cortex-M vector table (initial stack pointer, reset handler) and the jump to main.
 * The simulator loads the ELF's segments with .bss already zero; the loop clears it anyway so
 * the image also starts from a loader that does not. */
#include <stdint.h>

extern uint32_t __bss_start, __bss_end, __stack_top;
int main(void);

void reset_handler(void) {
    for (uint32_t *p = &__bss_start; p < &__bss_end; ++p) *p = 0;
    main();
    for (;;) {
    }
}

__attribute__((section(".vectors"), used)) static const void *const vectors[2] = {&__stack_top, (void *)reset_handler};
