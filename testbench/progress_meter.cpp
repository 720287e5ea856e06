#include "testbench/progress_meter.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

progress_meter::progress_meter(bool enabled, uint64_t target_requests, std::FILE *out)
    : m_enabled(enabled), m_target(target_requests), m_out(out),
      m_start(std::chrono::steady_clock::now()), m_last(m_start) {}

void progress_meter::update(double sim_ms, uint64_t completed) {
    const auto now = std::chrono::steady_clock::now();
    const double wall_s = std::chrono::duration<double>(now - m_start).count();
    if (wall_s < 1.0 || std::chrono::duration<double>(now - m_last).count() < 0.25) return;
    m_last = now;
    const std::string line =
        fmt::format("  sim {:.3f} s | {} / {} requests | {:.0f} req/s wall ", sim_ms / 1000.0, completed, m_target,
                    static_cast<double>(completed) / wall_s);
    std::fprintf(m_out, "\r%s\033[K", line.c_str());
    std::fflush(m_out);
    m_shown = true;
}

void progress_meter::finish() {
    if (m_shown) {
        std::fprintf(m_out, "\r\033[K");
        std::fflush(m_out);
        m_shown = false;
    }
}

}  // namespace raidtlm::testbench
