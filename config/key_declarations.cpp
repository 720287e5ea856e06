#include "config/key_declarations.h"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

namespace raidtlm::config {

namespace {

// Limits as people write them: 10^12 rather than 1000000000000 (from 10^9 up).
std::string integer_text(double v) {
    const int64_t i = int64_t(v);
    for (int e = 9; e <= 18; ++e)
        if (double(i) == std::pow(10.0, e)) return fmt::format("10^{}", e);
    return fmt::format("{}", i);
}

std::string number_text(double v) { return fmt::format("{}", v); }

}  // namespace

std::string range_form(const value_range &r) {
    if (r.integer) {
        // INT32_MAX is the limit of a 32-bit field: shown as the half-open [lo, 2^31).
        if (r.hi == double(INT32_MAX)) return fmt::format("an integer in [{}, 2^31)", integer_text(r.lo));
        return fmt::format("an integer in [{}, {}]", integer_text(r.lo), integer_text(r.hi));
    }
    if (std::isfinite(r.hi) && r.hi_shown)
        return fmt::format("a number in {}{}, {}{}", r.lo_open ? "(" : "[", number_text(r.lo), number_text(r.hi),
                           r.hi_open ? ")" : "]");
    if (std::isfinite(r.lo)) return fmt::format("a number {} {}", r.lo_open ? ">" : ">=", number_text(r.lo));
    return "a number";
}

std::string unit_from_name(const std::string &name) {
    // Longest suffixes first: "mb_per_s" before "s".
    static const std::pair<const char *, const char *> units[] = {
        {"mtransfers_per_s", "MT/s"}, {"bytes_per_cycle", "bytes/cycle"}, {"mb_per_s", "MB/s"},
        {"sectors", "sectors"},       {"entries", "entries"},             {"cycles", "cycles"},
        {"tracks", "tracks"},         {"bytes", "bytes"},                 {"bits", "bits"},
        {"iops", "IO/s"},             {"mhz", "MHz"},                     {"mib", "MiB"},
        {"kib", "KiB"},               {"ms", "ms"},                       {"us", "us"},
        {"ns", "ns"},                 {"s", "s"}};
    const std::string leaf = name.substr(name.rfind('.') + 1);
    for (const auto &[suffix, unit] : units) {
        const std::string s = suffix;
        if (leaf == s || (leaf.size() > s.size() && leaf.compare(leaf.size() - s.size() - 1, std::string::npos,
                                                                 "_" + s) == 0))
            return unit;
    }
    return "";
}

std::string expected_text(const std::string &form, const std::string &shown_unit, const std::string &note) {
    std::string bracket = shown_unit;
    if (!note.empty()) bracket += (bracket.empty() ? "" : "; ") + note;
    if (bracket.empty()) return form;
    return form + " (" + bracket + ")";
}

}  // namespace raidtlm::config
