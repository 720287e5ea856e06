#include "config/value_reader.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include "config/shown_text.h"

namespace raidtlm::config {

namespace fs = std::filesystem;

std::string yaml_problem(const YAML::ParserException &e) {
    if (const auto *deep = dynamic_cast<const YAML::DeepRecursion *>(&e))
        return fmt::format("lists and maps nested {} levels deep, the YAML parser's limit", deep->depth());
    return e.msg;
}

std::string mark_str(const std::string &file, const YAML::Mark &m) {
    if (m.is_null()) return file + ":1:1";
    return fmt::format("{}:{}:{}", file, m.line + 1, m.column + 1);
}

const char *kind_of(const YAML::Node &n) {
    switch (n.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "empty";
    default: return "a scalar";
    }
}

void fail_at(const std::string &where, const std::string &key, const std::string &problem,
             const std::string &expected) {
    throw key_error(one_line_message(fmt::format("{}: key '{}': {}; expected {}", where, key, problem, expected)));
}

value_ref part_of(const value_ref &v, const YAML::Node &part) {
    const bool own_mark = !v.from_set && !v.file.empty() && !part.Mark().is_null();
    return {part, own_mark ? mark_str(v.file, part.Mark()) : v.where, v.from_set, v.file};
}

std::string read_scalar(const value_ref &v, const key_use &k) {
    if (v.node.IsNull()) fail(v, k, "missing value");
    if (!v.node.IsScalar()) fail(v, k, fmt::format("value is {}", kind_of(v.node)));
    return v.node.Scalar();
}

double read_number(const value_ref &v, const key_use &k, double lo, bool lo_open, double hi, bool hi_open) {
    const std::string s = read_scalar(v, k);
    char *end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(d))
        fail(v, k, fmt::format("'{}' is not a number", shown_text(s)));
    if (d < lo || (lo_open && d == lo) || d > hi || (hi_open && d == hi))
        fail(v, k, fmt::format("{} is out of range", shown_text(s)));
    return d;
}

int64_t read_integer(const value_ref &v, const key_use &k, int64_t lo, int64_t hi) {
    const std::string s = read_scalar(v, k);
    char *end = nullptr;
    errno = 0;
    const long long i = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, k, fmt::format("'{}' is not an integer", shown_text(s)));
    if (i < lo || i > hi) fail(v, k, fmt::format("{} is out of range", shown_text(s)));
    return i;
}

uint64_t read_unsigned(const value_ref &v, const key_use &k) {
    const std::string s = read_scalar(v, k);
    char *end = nullptr;
    errno = 0;
    const unsigned long long i = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || s[0] == '-' || s[0] == '+' || end != s.c_str() + s.size() || errno == ERANGE)
        fail(v, k, fmt::format("'{}' is not a non-negative integer", shown_text(s)));
    return i;
}

bool read_bool(const value_ref &v, const key_use &k) {
    const std::string s = read_scalar(v, k);
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    fail(v, k, fmt::format("'{}' is not a boolean", shown_text(s)));
}

const YAML::Node &read_list(const value_ref &v, const key_use &k) {
    if (!v.node.IsNull() && !v.node.IsSequence()) fail(v, k, fmt::format("value is {}", kind_of(v.node)));
    return v.node;
}

std::string read_file_path(const std::string &given, const value_ref &v, const key_use &k) {
    const fs::path p(given);
    std::vector<fs::path> tries;
    if (p.is_absolute()) {
        tries.push_back(p);
    } else {
        if (v.from_set) tries.push_back(fs::current_path() / p);
        if (k.files) {
            tries.push_back(k.files->scenario_dir / p);
            if (!k.files->repo_root.empty()) tries.push_back(fs::path(k.files->repo_root) / p);
        }
    }
    std::string tried, directory;
    std::set<std::string> seen;
    for (const auto &t : tries) {
        std::error_code ec;
        const std::string norm = t.lexically_normal().string();
        if (fs::is_regular_file(t, ec)) return norm;
        if (directory.empty() && fs::is_directory(t, ec)) directory = norm;
        if (seen.insert(norm).second) tried += (tried.empty() ? "" : ", ") + norm;
    }
    // A directory where a file belongs is its own mistake, not a missing file.
    if (!directory.empty())
        fail(v, k, fmt::format("'{}' is a directory ({}), not a file", shown_text(given, 200),
                               elided_middle(directory)));
    fail(v, k, fmt::format("file '{}' not found (tried {})", shown_text(given, 200), elided_middle(tried)));
}

}  // namespace raidtlm::config
