#include "rtl_models/cpu/gdb_socket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::rtl_models {

gdb_socket::gdb_socket(int port) {
    m_listen_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (m_listen_fd < 0) throw std::runtime_error(fmt::format("--gdb {}: socket: {}", port, std::strerror(errno)));
    const int on = 1;
    ::setsockopt(m_listen_fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(uint16_t(port));
    if (::bind(m_listen_fd, reinterpret_cast<sockaddr *>(&a), sizeof(a)) != 0 || ::listen(m_listen_fd, 1) != 0) {
        const std::string why = std::strerror(errno);
        ::close(m_listen_fd);
        throw std::runtime_error(fmt::format("--gdb {}: cannot listen on 127.0.0.1:{}: {}", port, port, why));
    }
    socklen_t len = sizeof(a);
    ::getsockname(m_listen_fd, reinterpret_cast<sockaddr *>(&a), &len);
    m_port = ntohs(a.sin_port);
}

gdb_socket::~gdb_socket() {
    close_connection();
    if (m_listen_fd >= 0) ::close(m_listen_fd);
}

void gdb_socket::accept_debugger() {
    for (;;) {
        m_fd = ::accept(m_listen_fd, nullptr, nullptr);
        if (m_fd >= 0) break;
        if (errno != EINTR) throw std::runtime_error(fmt::format("--gdb {}: accept: {}", m_port, std::strerror(errno)));
    }
    const int on = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));  // one small packet at a time
}

void gdb_socket::close_connection() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
    m_events.clear();
}

bool gdb_socket::receive(bool block) {
    char buffer[4096];
    const ssize_t n = ::recv(m_fd, buffer, sizeof(buffer), block ? 0 : MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        close_connection();
        return false;
    }
    if (n < 0) return true;
    for (auto &e : m_reader.feed(buffer, size_t(n))) {
        if (e.what == gdb_packet_reader::event::bad_checksum) {
            ::send(m_fd, "-", 1, MSG_NOSIGNAL);  // ask again
            continue;
        }
        if (e.what == gdb_packet_reader::event::packet) ::send(m_fd, "+", 1, MSG_NOSIGNAL);
        m_events.push_back(std::move(e));
    }
    return true;
}

std::optional<gdb_packet_reader::event> gdb_socket::next() {
    while (m_events.empty()) {
        if (m_fd < 0 || !receive(true)) return std::nullopt;
    }
    auto e = std::move(m_events.front());
    m_events.pop_front();
    return e;
}

bool gdb_socket::interrupt_requested() {
    if (m_fd < 0) return false;
    receive(false);
    for (auto it = m_events.begin(); it != m_events.end(); ++it) {
        if (it->what == gdb_packet_reader::event::interrupt) {
            m_events.erase(it);
            return true;
        }
    }
    return false;
}

void gdb_socket::send(const std::string &payload) {
    if (m_fd < 0) return;
    const std::string framed = gdb_frame(payload);
    size_t done = 0;
    while (done < framed.size()) {
        const ssize_t n = ::send(m_fd, framed.data() + done, framed.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close_connection();
            return;
        }
        done += size_t(n);
    }
}

}  // namespace raidtlm::rtl_models
