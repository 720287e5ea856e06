#include "testbench/measurement/integrity_verdict.h"

#include <algorithm>

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {

std::string headline(const integrity_counts &c) {
    return fmt::format("DATA INTEGRITY FAILURE: {} of {} sector reads checked returned wrong data", c.errors,
                       c.reads_checked);
}

std::string read_text(const wrong_read &w) {
    return fmt::format("logical sector {}: expected token {:#x}{}, got {:#x}", w.lbn, w.expected,
                       w.expected == 0 ? " (never written)" : "", w.got);
}

}  // namespace

std::string integrity_failure_box(const integrity_counts &c, const std::string &stats_path) {
    std::vector<std::string> text = {headline(c),
                                     "The run's figures are not valid: the model lost or corrupted data.",
                                     fmt::format("First wrong reads ({} controller.first_integrity_errors):", stats_path)};
    constexpr size_t shown = 3;
    for (size_t i = 0; i < c.first.size() && i < shown; ++i) text.push_back("  " + read_text(c.first[i]));
    if (c.first.size() > shown) text.push_back(fmt::format("  ... {} more listed there", c.first.size() - shown));
    size_t width = 0;
    for (const auto &t : text) width = std::max(width, t.size());
    const std::string rule = "  " + std::string(width + 6, '#') + "\n";
    std::string out = rule;
    for (const auto &t : text) out += fmt::format("  ## {:<{}} ##\n", t, width);
    return out + rule;
}

std::string integrity_failure_line(const integrity_counts &c, const std::string &stats_path) {
    return fmt::format("{}{}; the run's figures are not valid; see {} controller.first_integrity_errors", headline(c),
                       c.first.empty() ? std::string() : " (first: " + read_text(c.first.front()) + ")", stats_path);
}

}  // namespace raidtlm::testbench
