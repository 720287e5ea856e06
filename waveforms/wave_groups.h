// Which signal groups a run traces (output.wave_groups). Tracing a group costs writing its
// changes and file size; leaving groups out is how a long run's waves stay cheap. Plain C++.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace raidtlm::waveforms {

// The groups, as a scenario names them: the drives, the host side without a controller, and the
// controller's blocks, channels, firmware queues and parity logging.
inline const std::vector<std::string> &wave_group_names() {
    static const std::vector<std::string> n = {"disks", "host",     "cpu",    "dram",   "host_link", "xor",
                                               "nvram", "channels", "queues", "parity_logging"};
    return n;
}

class wave_groups {
public:
    // Every group.
    wave_groups() : m_all(true) {}
    // These groups ("all" among them: every group); names must be from wave_group_names().
    explicit wave_groups(const std::vector<std::string> &names) {
        for (const auto &n : names) {
            if (n == "all") m_all = true;
            else m_names.insert(n);
        }
    }
    bool has(const std::string &group) const { return m_all || m_names.count(group) > 0; }
    std::vector<std::string> names() const {
        if (m_all) return {"all"};
        return {m_names.begin(), m_names.end()};
    }

private:
    bool m_all = false;
    std::set<std::string> m_names;
};

}  // namespace raidtlm::waveforms
