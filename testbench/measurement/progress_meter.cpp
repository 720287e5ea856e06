#include "testbench/measurement/progress_meter.h"

#include <fmt/format.h>

namespace raidtlm::testbench {

progress_meter::progress_meter(bool enabled, std::FILE *out, bool lines)
    : m_enabled(enabled), m_out(out), m_lines(lines),
      m_start(std::chrono::steady_clock::now()), m_last(m_start) {}

std::string progress_meter::text(double sim_ms, uint64_t completed, double wall_s) const {
    std::string line = fmt::format("  sim {:.3f} s | {} requests done | {:.0f} req/s wall", sim_ms / 1000.0, completed,
                                   wall_s > 0 ? static_cast<double>(completed) / wall_s : 0.0);
    if (m_detail) line += " | " + m_detail();
    return line;
}

void progress_meter::update(double sim_ms, uint64_t completed) {
    const auto now = std::chrono::steady_clock::now();
    const double wall_s = std::chrono::duration<double>(now - m_start).count();
    const double since = std::chrono::duration<double>(now - m_last).count();
    if (wall_s < 1.0 || since < (m_lines ? 1.0 : 0.25)) return;
    m_last = now;
    const std::string line = text(sim_ms, completed, wall_s);
    if (m_lines)
        std::fprintf(m_out, "%s\n", line.c_str());
    else
        std::fprintf(m_out, "\r%s \033[K", line.c_str());
    std::fflush(m_out);
    m_shown = true;
}

void progress_meter::finish(double sim_ms, uint64_t completed) {
    if (!m_enabled || m_finished) return;
    if (m_lines) {
        if (sim_ms < 0) return;
        const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
        std::fprintf(m_out, "%s\n", text(sim_ms, completed, wall_s).c_str());
        m_finished = true;
    } else if (m_shown) {
        std::fprintf(m_out, "\r\033[K");
        m_shown = false;
    }
    std::fflush(m_out);
}

}  // namespace raidtlm::testbench
