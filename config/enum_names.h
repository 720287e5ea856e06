// Names for enumerations, both ways, from one table: to_string and a parser whose error lists
// every accepted name ("unknown scheduling policy 'scan'; expected one of fcfs, sstf, ...").
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace raidtlm::config {

template <class E>
using enum_name = std::pair<E, const char *>;

template <class E, size_t N>
std::string name_of(const enum_name<E> (&names)[N], E value) {
    for (const auto &[v, name] : names)
        if (v == value) return name;
    return "?";
}

// Throws Error("unknown <what> '<text>'; expected one of <names>").
template <class Error, class E, size_t N>
E parse_name(const enum_name<E> (&names)[N], const std::string &text, const std::string &what) {
    std::string accepted;
    for (const auto &[v, name] : names) {
        if (text == name) return v;
        accepted += std::string(accepted.empty() ? "" : ", ") + name;
    }
    throw Error("unknown " + what + " '" + text + "'; expected one of " + accepted);
}

}  // namespace raidtlm::config
