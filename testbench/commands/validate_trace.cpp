#include "testbench/commands/validate_trace.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {

constexpr const char *line_form = "'R|W FLAG LBN BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US'";

[[noreturn]] void bad(const std::string &where, const std::string &problem) {
    throw trace_error(fmt::format("{}: {}; expected {}", where, problem, line_form));
}

// A time in µs within [0, max_us].
double to_time_us(const std::string &s, const std::string &where, const char *field, double max_us,
                  const char *why) {
    char *end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(d))
        bad(where, fmt::format("{} '{}' is not a number", field, s));
    if (d < 0) bad(where, fmt::format("{} '{}' is negative", field, s));
    if (d > max_us)
        throw trace_error(fmt::format("{}: {} '{}' us is out of range; expected 0 to {:g} us ({})", where, field, s,
                                      max_us, why));
    return d;
}

uint64_t to_uint(const std::string &s, const std::string &where, const char *field, uint64_t max) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || s[0] == '+' || end != s.c_str() + s.size() || errno == ERANGE || v > max)
        bad(where, fmt::format("{} '{}' is not a non-negative integer", field, s));
    return v;
}

}  // namespace

validate_record parse_validate_line(const std::string &text, const std::string &where) {
    std::istringstream in(text);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    if (f.size() != 6) bad(where, fmt::format("{} fields", f.size()));
    validate_record r;
    if (f[0] == "R" || f[0] == "r")
        r.read = true;
    else if (f[0] == "W" || f[0] == "w")
        r.read = false;
    else
        bad(where, fmt::format("direction '{}' is not R or W", f[0]));
    r.lbn = to_uint(f[2], where, "lbn", UINT64_MAX);
    r.blocks = static_cast<uint32_t>(to_uint(f[3], where, "blocks", UINT32_MAX));
    if (r.blocks == 0) bad(where, "blocks is 0");
    r.measured_service_ms = to_time_us(f[4], where, "measured service time", max_validate_service_us,
                                       "60 s: a host's SCSI command timeout; a longer command timed out") /
                            1000.0;
    r.next_interarrival_ms = to_time_us(f[5], where, "interarrival time", max_validate_interarrival_us,
                                        "1 hour: a longer idle gap between two requests of one timing "
                                        "experiment is a broken trace") /
                             1000.0;
    return r;
}

std::vector<validate_record> load_validate_trace(const std::string &path, double max_total_ms) {
    std::ifstream in(path);
    if (!in) throw trace_error(fmt::format("{}: cannot open the trace; expected a readable DiskSim validate trace", path));
    std::vector<validate_record> out;
    std::string text;
    int line = 0;
    double total_ms = 0;
    while (std::getline(in, text)) {
        ++line;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        const auto first = text.find_first_not_of(" \t");
        if (first == std::string::npos || text[first] == '#') continue;
        validate_record r = parse_validate_line(text, fmt::format("{}:{}", path, line));
        r.line = line;
        total_ms += r.measured_service_ms + r.next_interarrival_ms;
        if (total_ms > max_total_ms)
            throw trace_error(fmt::format("{}:{}: the trace's service and interarrival times add up to {:g} ms by "
                                          "this line, beyond the {:g} ms the simulation's clock can represent; "
                                          "expected a shorter trace (split it)",
                                          path, line, total_ms, max_total_ms));
        out.push_back(r);
    }
    if (in.bad()) throw trace_error(fmt::format("{}: read error; expected a readable DiskSim validate trace", path));
    if (out.empty())
        throw trace_error(fmt::format("{}:{}: the trace has no requests; expected lines of the form {}", path,
                                      std::max(line, 1), line_form));
    return out;
}

}  // namespace raidtlm::testbench
