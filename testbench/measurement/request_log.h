// The per-request CSV (output.requests_csv): one line per completed request, warm-up included,
//   issue_ms,complete_ms,response_ms,op,lbn,sectors,measured,ok
// written through a large buffer. Plain C++.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace raidtlm::testbench {

class request_log {
public:
    // Throws std::runtime_error "PATH: cannot write (...)" when the file cannot be created.
    explicit request_log(const std::string &path);
    ~request_log();
    request_log(const request_log &) = delete;
    request_log &operator=(const request_log &) = delete;

    void add(double issue_ms, double complete_ms, bool read, uint64_t lbn, uint32_t sectors, bool measured, bool ok);
    // Flushes and closes; throws on a write error.
    void close();
    uint64_t lines() const { return m_lines; }

private:
    std::string m_path;
    std::FILE *m_file;
    uint64_t m_lines = 0;
};

}  // namespace raidtlm::testbench
