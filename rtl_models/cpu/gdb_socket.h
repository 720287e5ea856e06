// The GDB remote stub's TCP end: listens on a port on the loopback interface, accepts one
// debugger, and moves RSP packets (rtl_models/cpu/gdb_remote.h) in and out. Blocking by design:
// while the debugger holds the core, the whole simulation waits.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "rtl_models/cpu/gdb_remote.h"

namespace raidtlm::rtl_models {

class gdb_socket {
public:
    // Listens on 127.0.0.1:port (0: any free port; port() says which). Throws std::runtime_error
    // naming the port when it cannot.
    explicit gdb_socket(int port);
    ~gdb_socket();
    gdb_socket(const gdb_socket &) = delete;
    gdb_socket &operator=(const gdb_socket &) = delete;

    int port() const { return m_port; }
    // Waits for the debugger to connect.
    void accept_debugger();
    bool connected() const { return m_fd >= 0; }
    // The next packet or interrupt from the debugger (blocking); a packet is acknowledged with '+'.
    // nullopt: the debugger went away.
    std::optional<gdb_packet_reader::event> next();
    // True if the debugger sent the interrupt byte (Ctrl-C) since the last look; never blocks.
    bool interrupt_requested();
    void send(const std::string &payload);
    void close_connection();

private:
    bool receive(bool block);

    int m_listen_fd = -1;
    int m_fd = -1;
    int m_port = 0;
    gdb_packet_reader m_reader;
    std::deque<gdb_packet_reader::event> m_events;
};

}  // namespace raidtlm::rtl_models
