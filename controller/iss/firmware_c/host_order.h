/* Overlapping host commands are served in the order they began, the rules of the C++ firmware's
 * host_read_fence (controller/kit/host_read_fence.h): a read or a write starts only after the
 * overlapping writes that began before it are acknowledged (else a read could return what an
 * earlier write replaces, and two writes land in opposite orders on two stripes); a write is
 * acknowledged only when no overlapping read that started before it is still in flight (a read
 * served piece by piece could otherwise return old data after the acknowledgement). */
#ifndef FW_HOST_ORDER_H
#define FW_HOST_ORDER_H
#include <stdint.h>

#define ORDER_SLOTS 64u

/* A host command in slot `slot` arrived (seq: its arrival order). */
void order_arrive(uint32_t slot, int write, uint32_t lbn, uint32_t sectors, uint32_t seq);
/* No overlapping write that arrived before it is still unacknowledged. */
int order_may_start(uint32_t slot);
void order_started(uint32_t slot);
/* A write: no overlapping read that started is still in flight. */
int order_may_acknowledge(uint32_t slot);
/* The command is acknowledged: it leaves the order. */
void order_leave(uint32_t slot);
#endif
