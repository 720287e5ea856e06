#include "testbench/measurement/request_log.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::testbench {

request_log::request_log(const std::string &path) : m_path(path), m_file(std::fopen(path.c_str(), "w")) {
    if (!m_file) throw std::runtime_error(fmt::format("{}: cannot write ({})", path, std::strerror(errno)));
    std::setvbuf(m_file, nullptr, _IOFBF, 1 << 20);
    std::fputs("issue_ms,complete_ms,response_ms,op,lbn,sectors,measured,ok\n", m_file);
}

request_log::~request_log() {
    if (m_file) std::fclose(m_file);
}

void request_log::add(double issue_ms, double complete_ms, bool read, uint64_t lbn, uint32_t sectors, bool measured,
                      bool ok) {
    fmt::print(m_file, "{:.6f},{:.6f},{:.6f},{},{},{},{},{}\n", issue_ms, complete_ms, complete_ms - issue_ms,
               read ? 'R' : 'W', lbn, sectors, measured ? 1 : 0, ok ? 1 : 0);
    ++m_lines;
}

void request_log::close() {
    if (!m_file) return;
    const bool bad = std::ferror(m_file) != 0;
    const int rc = std::fclose(m_file);
    m_file = nullptr;
    if (bad || rc != 0) throw std::runtime_error(fmt::format("{}: write error", m_path));
}

}  // namespace raidtlm::testbench
