// Host reads and writes of overlapping sectors complete in the order they began, as the
// scoreboard (and a host that orders its own requests) expects:
//   - a read waits for the overlapping writes that began before it (else the drive could serve
//     the read before the write's data command, and the read return the old data just after the
//     write's acknowledgement: found with the soak, a read begun 30 ms after a small write);
//   - a write starts only after the overlapping writes that began before it are done (a write
//     spanning two logical stripes takes each stripe's lock on its own, so two such writes could
//     land in opposite orders on the two stripes, and either acknowledgement leave half its
//     sectors older than the scoreboard expects);
//   - a write is not acknowledged while a host read of overlapping sectors that began before it is
// still in flight: otherwise the read, served piece by piece (one piece read early, another
// queued behind a busy disk), could return the sectors' previous data after the write's
// acknowledgement, which the scoreboard (and a host that orders its own requests) counts as
// wrong data. raid_firmware and floating_firmware apply the same rule with their own members;
// parity logging needs it always, not only degraded: its small write is acknowledged after one
// data write and an NVRAM append, so it overtakes a slow read often (EXPERIMENTS.md 9).
#pragma once

#include <cstdint>

#include <systemc>

#include "controller/kit/write_order_guard.h"

namespace raidtlm::controller {

class firmware_platform;

class host_read_fence {
public:
    // A host read of logical [lbn, lbn + sectors) begins; returns its ticket for read_done.
    uint64_t read_begins(int64_t lbn, int64_t sectors) { return m_reads.enter(0, lbn, sectors); }
    void read_done(uint64_t ticket);
    // Blocks a write of [lbn, lbn + sectors) until the overlapping reads that began before it are
    // done (stops for good, like every firmware thread, at a power loss).
    void wait_for_earlier_reads(firmware_platform &platform, int64_t lbn, int64_t sectors);
    // A host write of [lbn, lbn + sectors) begins / is done (acknowledged).
    uint64_t write_begins(int64_t lbn, int64_t sectors) { return m_writes.enter(0, lbn, sectors); }
    // Blocks the write of `ticket` until the overlapping writes that began before it are done.
    void wait_for_earlier_writes(firmware_platform &platform, uint64_t ticket);
    void write_done(uint64_t ticket);
    // Blocks a read until the overlapping writes that began before it are done.
    void wait_for_earlier_writes(firmware_platform &platform, int64_t lbn, int64_t sectors);
    // After a power loss: the requests in flight are gone.
    void clear() {
        m_reads.clear();
        m_writes.clear();
        m_waiters = 0;
    }

private:
    void wait_behind(write_order_guard &guard, firmware_platform &platform, int64_t lbn, int64_t sectors);
    void wait_turn(write_order_guard &guard, uint64_t ticket, firmware_platform &platform);
    write_order_guard m_reads;   // host reads in flight, by logical range (one "disk": 0)
    write_order_guard m_writes;  // host writes in flight, and reads waiting for them
    sc_core::sc_event m_changed;
    int m_waiters = 0;  // only requests inside a wait_for_* need m_changed
};

}  // namespace raidtlm::controller
