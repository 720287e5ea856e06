// A piece of input as an error message shows it: at most max_chars characters, control
// characters as '?', and the length of what was left out, so that a 100 MB bad value never
// reaches stderr whole (issue 13).
#pragma once

#include <string>
#include <string_view>

namespace raidtlm::config {

inline std::string shown_text(std::string_view s, size_t max_chars = 60) {
    std::string out;
    for (char c : s.substr(0, max_chars)) out += (static_cast<unsigned char>(c) < 32 || c == 127) ? '?' : c;
    if (s.size() > max_chars) out += "... (" + std::to_string(s.size()) + " characters)";
    return out;
}

// A whole message kept readable: beyond max_chars the middle is cut out (the file:line prefix
// and the "expected ..." end stay).
inline std::string elided_middle(std::string_view s, size_t max_chars = 600) {
    if (s.size() <= max_chars) return std::string(s);
    const size_t keep = max_chars / 2;
    return std::string(s.substr(0, keep)) + " [... " + std::to_string(s.size() - 2 * keep) + " characters ...] " +
           std::string(s.substr(s.size() - keep));
}

// An error message as one line: a key or value quoted from a file may hold a line break.
inline std::string one_line_message(std::string_view s, size_t max_chars = 2000) {
    std::string line = elided_middle(s, max_chars);
    for (char &c : line)
        if (c == '\n' || c == '\r') c = ' ';
    return line;
}

}  // namespace raidtlm::config
