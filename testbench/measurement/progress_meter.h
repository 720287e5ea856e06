// The progress line on stderr during long runs: simulated time, requests done, the rate and a
// detail the command supplies (requests measured, the current width of the confidence interval),
// rewritten in place
// with '\r'. Plain C++. It shows nothing during the first second of wall time, and nothing at all
// when disabled (stderr not a terminal, or --quiet). In `lines` mode (--progress on a pipe) each
// update is a line of its own and finish() prints a final one. The wall clock is read only every
// 1024 ticks, so a tick costs almost nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace raidtlm::testbench {

class progress_meter {
public:
    progress_meter(bool enabled, std::FILE *out = stderr, bool lines = false);
    ~progress_meter() { finish(); }

    // Appended to the line, e.g. "2000 / 20000 measured | CI +-3.1% (target 5%)".
    void set_detail(std::function<std::string()> fn) { m_detail = std::move(fn); }

    // One completed request (warm-up included).
    void tick(double sim_ms, uint64_t completed) {
        if (m_enabled && (++m_ticks & 1023) == 0) update(sim_ms, completed);
    }
    // Clears the line if one was shown; in lines mode, prints the final state when given.
    void finish(double sim_ms = -1, uint64_t completed = 0);

private:
    void update(double sim_ms, uint64_t completed);
    std::string text(double sim_ms, uint64_t completed, double wall_s) const;

    bool m_enabled;
    std::FILE *m_out;
    bool m_lines;
    uint64_t m_ticks = 0;
    bool m_shown = false;
    bool m_finished = false;
    std::chrono::steady_clock::time_point m_start, m_last;
    std::function<std::string()> m_detail;
};

}  // namespace raidtlm::testbench
