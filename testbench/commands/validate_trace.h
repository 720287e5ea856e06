// DiskSim "validate" traces: one request per line,
//   R|W FLAG LBN BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US
// FLAG (Hit, Miss, Doub, Trip, ...) is the measuring tool's note and is ignored. Blank lines and
// lines starting with '#' are skipped. Plain C++.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace raidtlm::testbench {

class trace_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct validate_record {
    bool read = true;
    uint64_t lbn = 0;
    uint32_t blocks = 0;
    double measured_service_ms = 0;
    double next_interarrival_ms = 0;  // from this request's completion to the next one's issue
    int line = 0;
};

// The physical ranges of a line's times, µs. A validation trace times one drive request after
// request: a measured service time beyond a host's SCSI command timeout (30-60 s) is a command
// that timed out, not a service time; an idle gap of over an hour between two requests of one
// timing experiment is a broken trace (1e300 once went through silently and wrapped the kernel's
// clock).
constexpr double max_validate_service_us = 60e6;        // 60 s
constexpr double max_validate_interarrival_us = 3600e6;  // 1 hour

// Throws trace_error "FILE:LINE: <problem>; expected <form>" for a malformed line, a time out of
// its range, an unreadable file or a trace without requests; also when the measured service and
// interarrival times add up beyond max_total_ms (the simulation's clock range) by some line.
std::vector<validate_record> load_validate_trace(const std::string &path,
                                                 double max_total_ms = std::numeric_limits<double>::infinity());

// Parses one line (already known not to be blank or a comment); `where` prefixes errors.
validate_record parse_validate_line(const std::string &text, const std::string &where);

}  // namespace raidtlm::testbench
