#include "rtl_models/network/network_timing.h"

#include <algorithm>
#include <stdexcept>

namespace raidtlm::rtl_models {

network_timing::network_timing(const network_config &config, int ports)
    : m_config(config), m_out_free_s(size_t(ports), 0.0), m_in_free_s(size_t(ports), 0.0),
      m_to_switch(size_t(ports)), m_from_switch(size_t(ports)) {
    if (ports < 1)
        throw std::invalid_argument("network_timing: at least one port");
}

message_timing network_timing::send(int from, int to, uint64_t bytes, double now_s) {
    if (from < 0 || from >= ports() || to < 0 || to >= ports())
        throw std::out_of_range("network_timing: no such port");
    const std::vector<int> &same = m_config.controller_of_port;
    if (!same.empty() && same.at(size_t(from)) >= 0 && same.at(size_t(from)) == same.at(size_t(to)))
        return {now_s, now_s};  // inside one controller
    const double wire = wire_s(bytes);
    const double out_start = std::max(now_s, m_out_free_s[size_t(from)]);
    m_out_free_s[size_t(from)] = out_start + wire;
    // Cut-through: the first byte reaches the receiver's link one latency after it left.
    const double in_start = std::max(out_start + m_config.one_way_latency_us * 1e-6, m_in_free_s[size_t(to)]);
    // The receiver's link cannot finish before the last byte has left the sender.
    const double in_end = std::max(in_start + wire, out_start + wire + m_config.one_way_latency_us * 1e-6);
    m_in_free_s[size_t(to)] = in_end;
    link_statistics &o = m_to_switch[size_t(from)], &i = m_from_switch[size_t(to)];
    ++o.messages;
    ++i.messages;
    o.bytes += double(bytes);
    i.bytes += double(bytes);
    o.busy_s += wire;
    i.busy_s += wire;
    return {out_start + wire, in_end};
}

void network_timing::reset_statistics() {
    for (auto &s : m_to_switch) s = link_statistics{};
    for (auto &s : m_from_switch) s = link_statistics{};
}

}  // namespace raidtlm::rtl_models
