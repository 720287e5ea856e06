// Reading one key's YAML value, with errors that name where it came from. Plain C++ (yaml-cpp).
//
// A value comes from a scenario file (its mark is FILE:LINE:COL) or from --set KEY=VALUE (the
// whole override is the place). The readers throw key_error:
//   WHERE: key 'KEY': PROBLEM; expected EXPECTED
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/key_error.h"

namespace raidtlm::config {

// A value to read, and where it came from.
struct value_ref {
    YAML::Node node;
    std::string where;      // "FILE:LINE:COL" or "--set key=value"
    bool from_set = false;
    std::string file;       // the scenario file, for the marks of list items (empty for --set)
};

// Where relative file paths are looked up.
struct file_context {
    std::filesystem::path scenario_dir;
    std::string repo_root;  // empty: not tried
};

// What a read knows about its key: the full dotted name, the accepted form, the files.
struct key_use {
    std::string key;
    std::string expected;
    const file_context *files = nullptr;
};

// An enumeration's names, in the order the help lists them.
template <class E>
using names = std::vector<std::pair<const char *, E>>;

std::string mark_str(const std::string &file, const YAML::Mark &m);
// What a YAML parse error says in words: yaml-cpp reports lists and maps nested beyond its
// recursion limit as "bad file"; this says it is the nesting, and the limit.
std::string yaml_problem(const YAML::ParserException &e);
// The nesting a scenario needs at most, for the "expected" of a nesting error.
constexpr const char *scenario_nesting_expected =
    "a scenario nested a few levels deep (the deepest value, faults: [{at_ms: [FROM, TO]}], nests 4)";
// "a map", "a list", "empty" or "a scalar".
const char *kind_of(const YAML::Node &n);

[[noreturn]] void fail_at(const std::string &where, const std::string &key, const std::string &problem,
                          const std::string &expected);
[[noreturn]] inline void fail(const value_ref &v, const key_use &k, const std::string &problem) {
    fail_at(v.where, k.key, problem, k.expected);
}

// A part of a list or map value as a value of its own: its own mark in a file, the whole value
// for --set.
value_ref part_of(const value_ref &v, const YAML::Node &part);

std::string read_scalar(const value_ref &v, const key_use &k);
// A number in [lo, hi], lo excluded when lo_open, hi excluded when hi_open.
double read_number(const value_ref &v, const key_use &k, double lo, bool lo_open, double hi, bool hi_open);
int64_t read_integer(const value_ref &v, const key_use &k, int64_t lo, int64_t hi);
uint64_t read_unsigned(const value_ref &v, const key_use &k);
bool read_bool(const value_ref &v, const key_use &k);
// A list value (an empty value is an empty list).
const YAML::Node &read_list(const value_ref &v, const key_use &k);
// An existing file: absolute, or tried against the current directory (--set only), the scenario's
// directory and the repository root.
std::string read_file_path(const std::string &given, const value_ref &v, const key_use &k);

template <class E>
E read_choice(const value_ref &v, const key_use &k, const names<E> &choices) {
    const std::string s = read_scalar(v, k);
    for (const auto &c : choices)
        if (s == c.first) return c.second;
    fail(v, k, "'" + s + "' is not a valid choice");
}

template <class E>
const char *name_of(const names<E> &table, E v) {
    for (const auto &n : table)
        if (n.second == v) return n.first;
    return "?";
}

// "a, b or c"
template <class E>
std::string one_of(const names<E> &table) {
    std::string s;
    for (size_t i = 0; i < table.size(); ++i)
        s += std::string(i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + table[i].first;
    return s;
}

}  // namespace raidtlm::config
