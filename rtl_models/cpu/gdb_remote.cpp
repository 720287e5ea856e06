#include "rtl_models/cpu/gdb_remote.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

namespace raidtlm::rtl_models {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Parses a hex number running to the end of `text` or to one of `stops`; nullopt if empty or not hex.
std::optional<uint32_t> hex_number(const std::string &text, size_t &at, const char *stops = "") {
    const size_t start = at;
    uint64_t v = 0;
    while (at < text.size() && !std::strchr(stops, text[at])) {
        const int d = hex_digit(text[at]);
        if (d < 0 || v > 0xFFFFFFFFull) return std::nullopt;
        v = v * 16 + uint64_t(d);
        ++at;
    }
    if (at == start || v > 0xFFFFFFFFull) return std::nullopt;
    return uint32_t(v);
}

// "addr,length" then optional trailing text from `at`.
bool address_and_length(const std::string &args, size_t &at, uint32_t &address, uint32_t &length) {
    const auto a = hex_number(args, at, ",");
    if (!a || at >= args.size() || args[at] != ',') return false;
    ++at;
    const auto n = hex_number(args, at, ":");
    if (!n) return false;
    address = *a;
    length = *n;
    return true;
}

// GDB's register description for an ARMv7-M core: the m-profile feature in the remote's order.
const char *const target_xml =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
    "<target version=\"1.0\"><architecture>arm</architecture>"
    "<feature name=\"org.gnu.gdb.arm.m-profile\">"
    "<reg name=\"r0\" bitsize=\"32\"/><reg name=\"r1\" bitsize=\"32\"/><reg name=\"r2\" bitsize=\"32\"/>"
    "<reg name=\"r3\" bitsize=\"32\"/><reg name=\"r4\" bitsize=\"32\"/><reg name=\"r5\" bitsize=\"32\"/>"
    "<reg name=\"r6\" bitsize=\"32\"/><reg name=\"r7\" bitsize=\"32\"/><reg name=\"r8\" bitsize=\"32\"/>"
    "<reg name=\"r9\" bitsize=\"32\"/><reg name=\"r10\" bitsize=\"32\"/><reg name=\"r11\" bitsize=\"32\"/>"
    "<reg name=\"r12\" bitsize=\"32\"/><reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"lr\" bitsize=\"32\"/><reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"xpsr\" bitsize=\"32\"/>"
    "</feature></target>\n";

// The largest packet we accept and the memory block one 'm' may ask for (PacketSize below).
constexpr uint32_t packet_size = 4096;

}  // namespace

std::vector<gdb_packet_reader::event> gdb_packet_reader::feed(const char *data, size_t bytes) {
    std::vector<event> out;
    for (size_t i = 0; i < bytes; ++i) {
        const char c = data[i];
        switch (m_state) {
        case state::idle:
            if (c == '$') {
                m_state = state::payload;
                m_payload.clear();
                m_sum = 0;
                m_escape = false;
            } else if (c == '\x03') {
                out.push_back({event::interrupt, {}});
            }
            // '+' and '-' acknowledge our own packets; we resend nothing (TCP does not lose bytes).
            break;
        case state::payload:
            if (c == '#') {
                m_state = state::checksum1;
                break;
            }
            m_sum = uint8_t(m_sum + uint8_t(c));
            if (m_escape) {
                m_payload.push_back(char(c ^ 0x20));
                m_escape = false;
            } else if (c == '}') {
                m_escape = true;
            } else {
                m_payload.push_back(c);
            }
            break;
        case state::checksum1:
            m_checksum_hi = c;
            m_state = state::checksum2;
            break;
        case state::checksum2: {
            m_state = state::idle;
            const int hi = hex_digit(m_checksum_hi), lo = hex_digit(c);
            const bool ok = hi >= 0 && lo >= 0 && uint8_t(hi * 16 + lo) == m_sum;
            out.push_back({ok ? event::packet : event::bad_checksum, ok ? m_payload : std::string()});
            break;
        }
        }
    }
    return out;
}

std::string gdb_frame(const std::string &payload) {
    uint8_t sum = 0;
    std::string body;
    for (char c : payload) {
        // '$', '#', '}' and '*' must be escaped inside a packet.
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            body.push_back('}');
            body.push_back(char(c ^ 0x20));
        } else {
            body.push_back(c);
        }
    }
    for (char c : body) sum = uint8_t(sum + uint8_t(c));
    return fmt::format("${}#{:02x}", body, sum);
}

std::string gdb_hex(const uint8_t *data, size_t bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(bytes * 2);
    for (size_t i = 0; i < bytes; ++i) {
        s.push_back(digits[data[i] >> 4]);
        s.push_back(digits[data[i] & 15]);
    }
    return s;
}

std::string gdb_hex_le32(uint32_t value) {
    const uint8_t b[4] = {uint8_t(value), uint8_t(value >> 8), uint8_t(value >> 16), uint8_t(value >> 24)};
    return gdb_hex(b, 4);
}

std::optional<std::vector<uint8_t>> gdb_unhex(const std::string &text) {
    if (text.size() % 2) return std::nullopt;
    std::vector<uint8_t> out(text.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out[i] = uint8_t(hi * 16 + lo);
    }
    return out;
}

gdb_session::reply gdb_session::handle(const std::string &packet) {
    if (packet.empty()) return {action::stay, ""};
    const std::string args = packet.substr(1);
    switch (packet[0]) {
    case '?':
        return {action::stay, stopped()};
    case 'g': {
        std::string s;
        for (unsigned r = 0; r < gdb_target::register_count; ++r) s += gdb_hex_le32(m_target.read_register(r));
        return {action::stay, s};
    }
    case 'G': {
        const auto bytes = gdb_unhex(args);
        if (!bytes || bytes->size() != 4 * gdb_target::register_count) return {action::stay, "E01"};
        for (unsigned r = 0; r < gdb_target::register_count; ++r) {
            const uint8_t *b = bytes->data() + 4 * r;
            m_target.write_register(r, uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24);
        }
        return {action::stay, "OK"};
    }
    case 'p': {
        size_t at = 0;
        const auto n = hex_number(args, at);
        if (!n || *n >= gdb_target::register_count) return {action::stay, "E01"};
        return {action::stay, gdb_hex_le32(m_target.read_register(*n))};
    }
    case 'P': {
        size_t at = 0;
        const auto n = hex_number(args, at, "=");
        if (!n || *n >= gdb_target::register_count || at >= args.size()) return {action::stay, "E01"};
        const auto bytes = gdb_unhex(args.substr(at + 1));
        if (!bytes || bytes->size() != 4) return {action::stay, "E01"};
        const uint8_t *b = bytes->data();
        m_target.write_register(*n, uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24);
        return {action::stay, "OK"};
    }
    case 'm':
        return read_memory(args);
    case 'M':
        return write_memory(args);
    case 'c':
        return resume(action::resume, args);
    case 's':
        return resume(action::step, args);
    case 'Z':
    case 'z':
        return breakpoint(packet[0] == 'Z', args);
    case 'k':
        return {action::kill, std::nullopt};
    case 'D':
        return {action::detach, "OK"};
    case 'H':  // one thread: any thread selection is fine
        return {action::stay, "OK"};
    case 'q':
        if (packet.rfind("qSupported", 0) == 0)
            return {action::stay, fmt::format("PacketSize={:x};qXfer:features:read+", packet_size)};
        if (packet.rfind("qXfer:features:read:", 0) == 0) return features(packet.substr(20));
        if (packet == "qAttached") return {action::stay, "1"};  // the process existed before us: kill ends the run
        if (packet == "qC") return {action::stay, "QC1"};
        if (packet == "qfThreadInfo") return {action::stay, "m1"};
        if (packet == "qsThreadInfo") return {action::stay, "l"};
        return {action::stay, ""};
    default:
        return {action::stay, ""};  // unsupported: the empty reply, as the protocol asks
    }
}

gdb_session::reply gdb_session::read_memory(const std::string &args) {
    size_t at = 0;
    uint32_t address = 0, length = 0;
    if (!address_and_length(args, at, address, length) || at != args.size()) return {action::stay, "E01"};
    if (length > packet_size / 2) return {action::stay, "E01"};
    std::vector<uint8_t> data(length);
    if (!m_target.read_memory(address, data.data(), length)) return {action::stay, "E14"};  // EFAULT
    return {action::stay, gdb_hex(data.data(), data.size())};
}

gdb_session::reply gdb_session::write_memory(const std::string &args) {
    size_t at = 0;
    uint32_t address = 0, length = 0;
    if (!address_and_length(args, at, address, length) || at >= args.size() || args[at] != ':')
        return {action::stay, "E01"};
    const auto data = gdb_unhex(args.substr(at + 1));
    if (!data || data->size() != length) return {action::stay, "E01"};
    if (!m_target.write_memory(address, data->data(), length)) return {action::stay, "E14"};
    return {action::stay, "OK"};
}

gdb_session::reply gdb_session::breakpoint(bool insert, const std::string &args) {
    // Only software breakpoints (type 0): the core runs from its own RAM, so GDB's Z0 is the
    // natural kind; hardware breakpoints and watchpoints get the empty "unsupported" reply.
    if (args.size() < 2 || args[0] != '0' || args[1] != ',') return {action::stay, ""};
    size_t at = 2;
    uint32_t address = 0, kind = 0;
    if (!address_and_length(args, at, address, kind) || at != args.size()) return {action::stay, "E01"};
    if (insert)
        m_breakpoints.insert(address & ~1u);
    else
        m_breakpoints.erase(address & ~1u);
    return {action::stay, "OK"};
}

gdb_session::reply gdb_session::features(const std::string &args) {
    // "target.xml:offset,length"
    const std::string annex = "target.xml:";
    if (args.rfind(annex, 0) != 0) return {action::stay, "E00"};
    size_t at = annex.size();
    uint32_t offset = 0, length = 0;
    const std::string rest = args;
    if (!address_and_length(rest, at, offset, length) || at != rest.size()) return {action::stay, "E01"};
    const std::string xml = target_xml;
    if (offset >= xml.size()) return {action::stay, "l"};
    const std::string part = xml.substr(offset, length);
    return {action::stay, (offset + part.size() >= xml.size() ? "l" : "m") + part};
}

gdb_session::reply gdb_session::resume(action a, const std::string &args) {
    // "c addr" / "s addr": resume at addr.
    if (!args.empty()) {
        size_t at = 0;
        const auto pc = hex_number(args, at);
        if (!pc || at != args.size()) return {action::stay, "E01"};
        m_target.write_register(15, *pc);
    }
    return {a, std::nullopt};
}

}  // namespace raidtlm::rtl_models
