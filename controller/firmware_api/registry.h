// One small registry of named plug-ins, instantiated per kind (firmware, layouts, schedulers,
// predictors): a name, a line of help and a factory. Built-in plug-ins are registered
// explicitly (register_builtin_plugins(), builtin_plugins.cpp: a static library drops objects
// nobody references, so self-registering objects inside it would vanish); a user's plug-in,
// linked into the user's own executable, registers itself with a `registration` object:
//
//   static raidtlm::controller::registration<raidtlm::controller::firmware_factory> my_fw{
//       "write_back_raid5", {"RAID 5 with a write-back cache", {"raid5"}, make_my_firmware}};
#pragma once

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace raidtlm::controller {

template <class Entry>
class registry {
public:
    // The registry of this kind (one per program).
    static registry &instance() {
        static registry r;
        return r;
    }
    // Throws std::invalid_argument when the name is taken.
    void add(const std::string &name, Entry entry) {
        if (!m_entries.emplace(name, std::move(entry)).second)
            throw std::invalid_argument("a plug-in named '" + name + "' is registered twice");
    }
    const Entry *find(const std::string &name) const {
        const auto it = m_entries.find(name);
        return it == m_entries.end() ? nullptr : &it->second;
    }
    // Names in alphabetical order.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto &[name, entry] : m_entries) out.push_back(name);
        return out;
    }
    const std::map<std::string, Entry> &entries() const { return m_entries; }

private:
    std::map<std::string, Entry> m_entries;
};

// Registers an entry when constructed (a static object in the user's executable).
template <class Entry>
struct registration {
    registration(const std::string &name, Entry entry) { registry<Entry>::instance().add(name, std::move(entry)); }
};

// "a, b, c"
inline std::string join_names(const std::vector<std::string> &names) {
    std::string out;
    for (const auto &n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace raidtlm::controller
