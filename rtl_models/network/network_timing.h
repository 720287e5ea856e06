// The timing of a switched network (Lumb 5.1: bricks "connected through a switched network",
// one-way latency a model parameter, 50 us by default, swept to 5 ms; 50-byte control
// messages). Each port has a link into the switch and one out of it, each moving one message at
// a time at the port's bandwidth, first come first served. A message is serialised onto its
// sender's link, crosses the switch in the one-way latency (cut-through: the latency counts
// from the start of its transmission) and is serialised again onto the receiver's link, where
// messages from several senders contend. Closed form: each link keeps the time it is free.
//
// Departure, named: the receiver's link is reserved in send order, not in arrival order at the
// switch (they differ only when senders' own links delay messages differently).
// Plain C++; times in seconds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace raidtlm::rtl_models {

// Defaults: the thesis's 50 us one-way latency and 50-byte control messages; the port
// bandwidth, which the thesis does not give, a documented assumption: Gigabit Ethernet,
// 125 MB/s each way.
struct network_config {
    double one_way_latency_us = 50;
    double port_mb_per_s = 125;  // each direction; 0 = unlimited
    uint32_t control_message_bytes = 50;
    // Ports that are one controller's parts (the same number >= 0; the centralized ideal's
    // bricks): their messages take no latency and no link time. Empty: none.
    std::vector<int> controller_of_port;
};

struct message_timing {
    double sent_s = 0;       // the sender's link has put the last byte out
    double delivered_s = 0;  // the receiver has the last byte
};

struct link_statistics {
    uint64_t messages = 0;
    double bytes = 0;
    double busy_s = 0;
};

class network_timing {
public:
    network_timing(const network_config &config, int ports);
    const network_config &config() const { return m_config; }
    int ports() const { return int(m_out_free_s.size()); }
    double wire_s(uint64_t bytes) const {
        return m_config.port_mb_per_s > 0 ? double(bytes) / (m_config.port_mb_per_s * 1e6) : 0.0;
    }
    // A message of `bytes` handed to port `from`'s link at now_s for port `to`.
    message_timing send(int from, int to, uint64_t bytes, double now_s);
    // The sender's link (port -> switch) and the receiver's (switch -> port).
    const link_statistics &to_switch(int port) const { return m_to_switch.at(size_t(port)); }
    const link_statistics &from_switch(int port) const { return m_from_switch.at(size_t(port)); }
    // Busy until (seconds) of each link: occupancy for the waves.
    double to_switch_free_s(int port) const { return m_out_free_s.at(size_t(port)); }
    double from_switch_free_s(int port) const { return m_in_free_s.at(size_t(port)); }
    void reset_statistics();

private:
    network_config m_config;
    std::vector<double> m_out_free_s, m_in_free_s;
    std::vector<link_statistics> m_to_switch, m_from_switch;
};

}  // namespace raidtlm::rtl_models
