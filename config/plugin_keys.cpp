#include "config/plugin_keys.h"

namespace raidtlm::config {

namespace {
std::vector<plugin_section> &registry() {
    static std::vector<plugin_section> sections;
    return sections;
}
size_t generation = 0;
}  // namespace

const std::vector<plugin_section> &plugin_sections() { return registry(); }
size_t plugin_generation() { return generation; }

void detail::add_plugin_section(plugin_section section) {
    for (const auto &s : registry())
        if (s.prefix == section.prefix)
            throw std::logic_error("plug-in keys at '" + section.prefix + "' registered twice (" + s.owner + ", " +
                                   section.owner + ")");
    registry().push_back(std::move(section));
    ++generation;
}

bool unregister_plugin_keys(const std::string &prefix) {
    auto &r = registry();
    for (auto it = r.begin(); it != r.end(); ++it)
        if (it->prefix == prefix) {
            r.erase(it);
            ++generation;
            return true;
        }
    return false;
}

void plugin_values::reset_to_defaults() {
    m_objects.clear();
    for (const auto &s : registry()) m_objects.emplace(s.prefix, entry{s.type, s.make_defaults(), s.clone});
}

plugin_values::plugin_values(const plugin_values &other) { *this = other; }

plugin_values &plugin_values::operator=(const plugin_values &other) {
    if (this == &other) return *this;
    m_objects.clear();
    for (const auto &[prefix, e] : other.m_objects)
        m_objects.emplace(prefix, entry{e.type, e.clone(e.object.get()), e.clone});
    return *this;
}

}  // namespace raidtlm::config
