// A message between storage bricks and clients on the switched network (Lumb 5.1), carried as a
// TLM-2.0 generic-payload extension: the payload's data_length is unused; `bytes` is what
// crosses the wire (a 50-byte control message, or a control header plus the request's data).
// Data are timing only on the network (the bricks' disks carry the tokens).
#pragma once

#include <cstdint>

#include <tlm>

namespace raidtlm::protocol {

enum class message_kind : uint8_t {
    client_read,    // client -> the brick it chose
    client_write,   // client -> the brick it chose (carries the data)
    forward_read,   // brick -> the other replica holders (D-SPTF) or the hashed holder
    forward_write,  // brick -> every other replica holder (carries the data)
    claim,          // brick -> the other holders of a read it is about to serve (D-SPTF)
    write_ack,      // replica -> the brick that forwarded the write: the data are in its NVRAM
    completion,     // brick -> client: a read's data, or a write's acknowledgement
};
constexpr int message_kinds = 7;

inline const char *to_string(message_kind k) {
    switch (k) {
    case message_kind::client_read: return "client_read";
    case message_kind::client_write: return "client_write";
    case message_kind::forward_read: return "forward_read";
    case message_kind::forward_write: return "forward_write";
    case message_kind::claim: return "claim";
    case message_kind::write_ack: return "write_ack";
    case message_kind::completion: return "completion";
    }
    return "?";
}

struct network_message {
    message_kind kind = message_kind::client_read;
    int source = 0;       // network port of the sender
    int destination = 0;  // network port of the receiver
    uint32_t bytes = 0;   // on the wire
    uint64_t request = 0;  // the client request's id, unique in the system
    int client = 0;        // the client's port (where the completion goes)
    int entry_brick = 0;   // the port of the brick the client sent it to
    uint64_t lbn = 0;      // on every replica's disk
    uint32_t sectors = 0;
    double bid_ms = 0;     // claim: the sender's predicted service time
};

struct network_payload : tlm::tlm_extension<network_payload> {
    network_message message;
    tlm::tlm_extension_base *clone() const override { return new network_payload(*this); }
    void copy_from(const tlm::tlm_extension_base &other) override {
        message = static_cast<const network_payload &>(other).message;
    }
};

}  // namespace raidtlm::protocol
