// The progress line on stderr during long runs: simulated time, requests done and the rate,
// rewritten in place with '\r'. Plain C++. It shows nothing during the first second of wall time,
// and nothing at all when disabled (stderr not a terminal, or --quiet). The wall clock is read
// only every 1024 ticks, so a tick costs almost nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace raidtlm::testbench {

class progress_meter {
public:
    progress_meter(bool enabled, uint64_t target_requests, std::FILE *out = stderr);
    ~progress_meter() { finish(); }

    // One completed request (warm-up included).
    void tick(double sim_ms, uint64_t completed) {
        if (m_enabled && (++m_ticks & 1023) == 0) update(sim_ms, completed);
    }
    // Clears the line if one was shown.
    void finish();

private:
    void update(double sim_ms, uint64_t completed);

    bool m_enabled;
    uint64_t m_target;
    std::FILE *m_out;
    uint64_t m_ticks = 0;
    bool m_shown = false;
    std::chrono::steady_clock::time_point m_start, m_last;
};

}  // namespace raidtlm::testbench
