#include "controller/kit/host_read_fence.h"

#include "controller/firmware_api/firmware_api.h"

namespace raidtlm::controller {

void host_read_fence::read_done(uint64_t ticket) {
    m_reads.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

void host_read_fence::wait_for_earlier_reads(firmware_platform &platform, int64_t lbn, int64_t sectors) {
    wait_behind(m_reads, platform, lbn, sectors);
}

void host_read_fence::write_done(uint64_t ticket) {
    m_writes.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

void host_read_fence::wait_for_earlier_writes(firmware_platform &platform, uint64_t ticket) {
    wait_turn(m_writes, ticket, platform);
}

void host_read_fence::wait_for_earlier_writes(firmware_platform &platform, int64_t lbn, int64_t sectors) {
    wait_behind(m_writes, platform, lbn, sectors);
}

// Enters [lbn, lbn + sectors) into `guard` behind what is there, waits for the overlapping earlier
// entries to leave, and leaves again.
void host_read_fence::wait_behind(write_order_guard &guard, firmware_platform &platform, int64_t lbn, int64_t sectors) {
    if (!guard.overlaps_any(0, lbn, sectors)) return;  // nothing earlier to wait for: no need to enter
    const uint64_t ticket = guard.enter(0, lbn, sectors);
    wait_turn(guard, ticket, platform);
    guard.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

// Until no earlier overlapping entry of `guard` is left (stops for good at a power loss).
void host_read_fence::wait_turn(write_order_guard &guard, uint64_t ticket, firmware_platform &platform) {
    const uint64_t epoch = platform.power_epoch();
    ++m_waiters;
    while (guard.must_wait(ticket)) {
        sc_core::wait(m_changed);
        platform.check_power(epoch);
    }
    --m_waiters;
}

}  // namespace raidtlm::controller
