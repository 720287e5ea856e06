#include "controller/host_read_fence.h"

#include "controller/firmware_api.h"

namespace raidtlm::controller {

void host_read_fence::read_done(uint64_t ticket) {
    m_reads.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

void host_read_fence::wait_for_earlier_reads(firmware_platform &platform, int64_t lbn, int64_t sectors) {
    const uint64_t epoch = platform.power_epoch();
    const uint64_t ticket = m_reads.enter(0, lbn, sectors);
    ++m_waiters;
    while (m_reads.must_wait(ticket)) {
        sc_core::wait(m_changed);
        platform.check_power(epoch);
    }
    --m_waiters;
    m_reads.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

void host_read_fence::write_done(uint64_t ticket) {
    m_writes.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

void host_read_fence::wait_for_earlier_writes(firmware_platform &platform, uint64_t ticket) {
    const uint64_t epoch = platform.power_epoch();
    ++m_waiters;
    while (m_writes.must_wait(ticket)) {
        sc_core::wait(m_changed);
        platform.check_power(epoch);
    }
    --m_waiters;
}

void host_read_fence::wait_for_earlier_writes(firmware_platform &platform, int64_t lbn, int64_t sectors) {
    const uint64_t epoch = platform.power_epoch();
    const uint64_t ticket = m_writes.enter(0, lbn, sectors);
    ++m_waiters;
    while (m_writes.must_wait(ticket)) {
        sc_core::wait(m_changed);
        platform.check_power(epoch);
    }
    --m_waiters;
    m_writes.leave(ticket);
    if (m_waiters > 0) m_changed.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace raidtlm::controller
