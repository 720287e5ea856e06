#include "config/key_loader.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "config/shown_text.h"

namespace raidtlm::config {

namespace {

// Keys quoted from the file may hold line breaks; the error stays one line.
key_error one_line_error(const std::string &message) { return key_error(one_line_message(message)); }

}  // namespace

namespace {

const key_info *find_key(const std::vector<key_info> &keys, const std::string &key) {
    for (const auto &k : keys)
        if (k.key == key) return &k;
    return nullptr;
}

// The names of the keys under a dotted prefix, relative to it.
std::vector<std::string> keys_under(const std::vector<key_info> &keys, const std::string &prefix) {
    std::vector<std::string> out;
    for (const auto &k : keys)
        if (k.key.compare(0, prefix.size() + 1, prefix + ".") == 0) out.push_back(k.key.substr(prefix.size() + 1));
    return out;
}

// A dotted prefix under which keys live (a section or a group such as controller.cpu).
bool is_group(const std::vector<key_info> &keys, const std::string &prefix) {
    for (const auto &k : keys)
        if (k.key.compare(0, prefix.size() + 1, prefix + ".") == 0) return true;
    return false;
}

// The mark of a value, or of its key when the value carries none (an empty value).
std::string where_of(const std::string &file, const YAML::Node &key, const YAML::Node &value) {
    const YAML::Mark m = value.Mark();
    return mark_str(file, m.is_null() ? key.Mark() : m);
}

}  // namespace

std::vector<std::string> sections_of(const std::vector<key_info> &keys) {
    std::vector<std::string> out;
    for (const auto &k : keys) {
        const std::string sec = k.key.substr(0, k.key.find('.'));
        if (std::find(out.begin(), out.end(), sec) == out.end()) out.push_back(sec);
    }
    return out;
}

std::string join(const std::vector<std::string> &v, const char *sep) {
    std::string s;
    for (const auto &x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

given_values collect_values(const std::vector<key_info> &keys, const YAML::Node &root, const std::string &file,
                            const std::vector<key_override> &overrides) {
    given_values given;
    auto &found = given.values;
    const auto known_sections = sections_of(keys);
    for (const auto &sec_it : root) {
        const YAML::Node &sk = sec_it.first;
        const YAML::Node &sv = sec_it.second;
        const std::string sec = sk.IsScalar() ? sk.Scalar() : std::string("?");
        const std::string sec_where = mark_str(file, sk.Mark());
        if (std::find(known_sections.begin(), known_sections.end(), sec) == known_sections.end())
            throw one_line_error(fmt::format("{}: key '{}': unknown section; expected one of: {}", sec_where, sec,
                                        join(known_sections)));
        if (given.section_where.count(sec))
            throw one_line_error(fmt::format("{}: key '{}': section given twice (first at {}); expected it once", sec_where,
                                        sec, given.section_where[sec]));
        given.section_where[sec] = sec_where;
        if (find_key(keys, sec)) {  // a top-level key of its own (e.g. the `faults` list), not a section
            found[sec] = value_ref{sv, where_of(file, sk, sv), false, file};
            continue;
        }
        if (!sv.IsMap())
            throw one_line_error(fmt::format("{}: key '{}': section is {}; expected a map of keys: {}",
                                        where_of(file, sk, sv), sec, kind_of(sv), join(keys_under(keys, sec))));
        std::function<void(const YAML::Node &, const std::string &)> collect = [&](const YAML::Node &map,
                                                                                  const std::string &prefix) {
            for (const auto &it : map) {
                const std::string name = it.first.IsScalar() ? it.first.Scalar() : std::string("?");
                const std::string dotted = prefix + "." + name;
                const std::string key_where = mark_str(file, it.first.Mark());
                const bool is_key = find_key(keys, dotted) != nullptr;
                if (!is_key && is_group(keys, dotted)) {
                    if (!it.second.IsMap())
                        throw one_line_error(fmt::format("{}: key '{}': group is {}; expected a map of keys: {}",
                                                    where_of(file, it.first, it.second), dotted, kind_of(it.second),
                                                    join(keys_under(keys, dotted))));
                    collect(it.second, dotted);
                    continue;
                }
                if (!is_key)
                    throw one_line_error(fmt::format("{}: key '{}': unknown key; expected one of: {}", key_where, dotted,
                                                join(keys_under(keys, prefix))));
                if (found.count(dotted))
                    throw one_line_error(fmt::format("{}: key '{}': given twice (first at {}); expected it once", key_where,
                                                dotted, found[dotted].where));
                found[dotted] = value_ref{it.second, where_of(file, it.first, it.second), false, file};
            }
        };
        collect(sv, sec);
    }

    for (const auto &o : overrides) {
        const std::string where = fmt::format("--set {}={}", o.key, o.value);
        const key_info *k = find_key(keys, o.key);
        if (!k) {
            std::vector<std::string> all;
            for (const auto &d : keys) all.push_back(d.key);
            const bool is_section =
                std::find(known_sections.begin(), known_sections.end(), o.key) != known_sections.end();
            throw one_line_error(fmt::format("{}: key '{}': {}; expected one of: {}", where, o.key,
                                        is_section              ? "is a section, not a key"
                                        : is_group(keys, o.key) ? "is a group, not a key"
                                                                : "unknown key",
                                        join(all)));
        }
        YAML::Node node;
        try {
            node = YAML::Load(o.value);
        } catch (const YAML::ParserException &e) {
            throw one_line_error(
                fmt::format("{}: key '{}': not a YAML value ({}); expected {}", where, o.key, yaml_problem(e), k->expected));
        }
        found[o.key] = value_ref{node, where, true, ""};
    }
    return given;
}

void require_given(const std::vector<key_info> &keys, const given_values &given, const std::string &file) {
    for (const auto &k : keys) {
        if (!k.fallback.empty() || given.values.count(k.key)) continue;
        const std::string sec = k.key.substr(0, k.key.find('.'));
        auto it = given.section_where.find(sec);
        const std::string where = it != given.section_where.end() ? it->second : file + ":1:1";
        throw one_line_error(fmt::format("{}: key '{}': missing; expected {}", where, k.key, k.expected));
    }
}

}  // namespace raidtlm::config
