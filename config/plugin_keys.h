// Keys of plug-ins (firmware families, schedulers, a user's own firmware built out of tree): a
// plug-in registered by name declares its keys under its own prefix, on a config struct of its
// own, the same way raidtlm's blocks do:
//
//     struct my_fw_config { double gain = 0.5; int ways = 4; };
//     const bool registered = config::register_plugin_keys<my_fw_config>(
//         "controller.my_fw", "firmware my_fw", [](config::declarations<my_fw_config> &k) {
//             k.number("gain", &my_fw_config::gain, "0.5").range(0, 1);
//             k.integer("ways", &my_fw_config::ways, "4", 1, 64);
//         });
//
// The scenario then accepts controller.my_fw.gain (file and --set, with the standard errors),
// `raidtlm run --help` lists it, stats.json echoes it, and the plug-in reads its values from the
// loaded scenario: `s.plugins.get<my_fw_config>("controller.my_fw").gain`.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <vector>

#include "config/key_declarations.h"

namespace raidtlm::config {

// The config struct of every registered plug-in section, by prefix: defaults, then what the
// scenario gave.
class plugin_values {
public:
    // Starts from the defaults of every section registered so far.
    plugin_values() { reset_to_defaults(); }
    // Copies are deep: a copied scenario owns its plug-in values.
    plugin_values(const plugin_values &other);
    plugin_values &operator=(const plugin_values &other);
    plugin_values(plugin_values &&) = default;
    plugin_values &operator=(plugin_values &&) = default;

    // The section's values; throws std::logic_error if no section of that type is registered at
    // `prefix` (a plug-in asking for keys it did not declare is a bug, not a user error).
    template <class T>
    const T &get(const std::string &prefix) const {
        auto it = m_objects.find(prefix);
        if (it == m_objects.end() || it->second.type != std::type_index(typeid(T)))
            throw std::logic_error("no plug-in keys of this type registered at '" + prefix + "'");
        return *static_cast<const T *>(it->second.object.get());
    }
    template <class T>
    T *find(const std::string &prefix) {
        auto it = m_objects.find(prefix);
        if (it == m_objects.end() || it->second.type != std::type_index(typeid(T))) return nullptr;
        return static_cast<T *>(it->second.object.get());
    }
    bool contains(const std::string &prefix) const { return m_objects.count(prefix) != 0; }
    // Default values for every registered section (what loading starts from).
    void reset_to_defaults();

private:
    struct entry {
        std::type_index type;
        std::shared_ptr<void> object;
        std::function<std::shared_ptr<void>(const void *)> clone;
    };
    std::map<std::string, entry> m_objects;
};

// One registered section.
struct plugin_section {
    std::string prefix;  // dotted, e.g. controller.my_fw
    std::string owner;   // who declared it, for messages ("firmware my_fw")
    std::type_index type;
    std::function<std::shared_ptr<void>()> make_defaults;
    std::function<std::shared_ptr<void>(const void *)> clone;
    declarations<plugin_values> keys;  // names relative to the prefix
};

// Every registered section, in registration order.
const std::vector<plugin_section> &plugin_sections();
// Changes whenever a section is registered or removed (for caches of the key list).
size_t plugin_generation();

// Registers a section; throws std::logic_error if the prefix is taken. Returns true, so that a
// static `const bool registered = register_plugin_keys<...>(...)` registers at start-up.
template <class T>
bool register_plugin_keys(const std::string &prefix, const std::string &owner,
                          const std::function<void(declarations<T> &)> &declare);

// Removes a section (a test's dummy plug-in, so that it does not outlive the test); true if it was
// registered.
bool unregister_plugin_keys(const std::string &prefix);

namespace detail {
void add_plugin_section(plugin_section section);
}

template <class T>
bool register_plugin_keys(const std::string &prefix, const std::string &owner,
                          const std::function<void(declarations<T> &)> &declare) {
    declarations<T> own;
    declare(own);
    plugin_section s{prefix, owner, std::type_index(typeid(T)), [] { return std::make_shared<T>(); },
                     [](const void *p) { return std::make_shared<T>(*static_cast<const T *>(p)); }, {}};
    s.keys.mount<T>("", own, std::function<T *(plugin_values &)>(
                                 [prefix](plugin_values &v) { return v.find<T>(prefix); }));
    detail::add_plugin_section(std::move(s));
    return true;
}

}  // namespace raidtlm::config
