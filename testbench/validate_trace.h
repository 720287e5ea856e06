// DiskSim "validate" traces: one request per line,
//   R|W FLAG LBN BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US
// FLAG (Hit, Miss, Doub, Trip, ...) is the measuring tool's note and is ignored. Blank lines and
// lines starting with '#' are skipped. Plain C++.
#pragma once

#include <cstdint>
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

// Throws trace_error "FILE:LINE: <problem>; expected <form>" for a malformed line, an unreadable
// file or a trace without requests.
std::vector<validate_record> load_validate_trace(const std::string &path);

// Parses one line (already known not to be blank or a comment); `where` prefixes errors.
validate_record parse_validate_line(const std::string &text, const std::string &where);

}  // namespace raidtlm::testbench
