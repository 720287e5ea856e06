// Finding the declared keys in a YAML document and in --set overrides, with the standard errors
// (unknown section, key or group; a key given twice; a section or group that is not a map; a
// required key missing), then reading them into a struct. Plain C++ (yaml-cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/key_declarations.h"
#include "config/value_reader.h"

namespace raidtlm::config {

struct key_override {
    std::string key;
    std::string value;
};

// The values given for declared keys, by full dotted key.
struct given_values {
    std::map<std::string, value_ref> values;
    std::map<std::string, std::string> section_where;  // where each top-level section starts
};

// The top-level sections of `keys`, in declaration order ("disks", "host", ...).
std::vector<std::string> sections_of(const std::vector<key_info> &keys);
// "a, b, c"
std::string join(const std::vector<std::string> &v, const char *sep = ", ");

// Collects the values of a document's root map (`file` names it in errors), then the overrides in
// order (a later one replaces an earlier value). Keys may be written as groups: `cpu: mhz: 600`
// under `controller:` is the key controller.cpu.mhz.
given_values collect_values(const std::vector<key_info> &keys, const YAML::Node &root, const std::string &file,
                            const std::vector<key_override> &overrides);

// Throws for the first required key (no fallback) that was not given.
void require_given(const std::vector<key_info> &keys, const given_values &given, const std::string &file);

// Reads every given key into `into`; `origin` gets where each value came from.
template <class T>
void read_given(const declarations<T> &decls, T &into, const given_values &given, const file_context &files,
                std::map<std::string, std::string> &origin) {
    for (const auto &d : decls.keys()) {
        auto it = given.values.find(d.name);
        if (it == given.values.end()) continue;
        d.read(into, it->second, key_use{d.name, d.info().expected, &files});
        origin[d.name] = it->second.where;
    }
}

}  // namespace raidtlm::config
