// The GDB remote serial protocol (RSP) as plain logic, no sockets and no emulator: framing
// ($payload#checksum, '+'/'-' acknowledgements, the 0x03 interrupt byte), and a session that
// answers the minimal packet set a debugger needs to step firmware on a Cortex-M core —
// ?, g, G, p, P, m, M, c, s, Z0/z0, k, D, qSupported, qXfer:features:read:target.xml —
// against an abstract target. The packet grammar is GDB's manual, appendix E ("GDB Remote Serial
// Protocol"); the register layout is the org.gnu.gdb.arm.m-profile feature (r0-r12, sp, lr, pc,
// xpsr), announced in target.xml so gdb-multiarch needs no `set architecture`.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace raidtlm::rtl_models {

// What the debugger may touch. Memory accesses return false where the target has no memory the
// debugger may access without side effects (device registers).
class gdb_target {
public:
    virtual ~gdb_target() = default;
    static constexpr unsigned register_count = 17;  // r0-r12, sp, lr, pc, xpsr
    virtual uint32_t read_register(unsigned n) = 0;
    virtual void write_register(unsigned n, uint32_t value) = 0;
    virtual bool read_memory(uint32_t address, uint8_t *out, uint32_t bytes) = 0;
    virtual bool write_memory(uint32_t address, const uint8_t *data, uint32_t bytes) = 0;
};

// Bytes from the debugger in, whole packets out.
class gdb_packet_reader {
public:
    struct event {
        enum kind { packet, interrupt, bad_checksum } what = packet;
        std::string payload;
    };
    // Feeds received bytes; complete packets and interrupts come out in order.
    std::vector<event> feed(const char *data, size_t bytes);

private:
    enum class state { idle, payload, checksum1, checksum2 } m_state = state::idle;
    std::string m_payload;
    uint8_t m_sum = 0;
    char m_checksum_hi = 0;
    bool m_escape = false;
};

// "$payload#xx"
std::string gdb_frame(const std::string &payload);
std::string gdb_hex(const uint8_t *data, size_t bytes);
// Little-endian hex of a 32-bit register, as the 'g' packet carries it.
std::string gdb_hex_le32(uint32_t value);
// Decodes hex pairs; nullopt on an odd length or a non-hex character.
std::optional<std::vector<uint8_t>> gdb_unhex(const std::string &text);

class gdb_session {
public:
    // What the core does after a packet: nothing (stay paused, answer sent), resume until a
    // breakpoint, one instruction, end the run, or let go of the debugger and run on.
    enum class action { stay, resume, step, kill, detach };
    struct reply {
        action next = action::stay;
        std::optional<std::string> payload;  // nullopt: no answer now (resume, step: the stop reply comes later)
    };

    explicit gdb_session(gdb_target &target) : m_target(target) {}
    reply handle(const std::string &packet);
    // The stop reply after a step, a breakpoint or an interrupt: SIGTRAP.
    static std::string stopped() { return "S05"; }
    bool is_breakpoint(uint32_t address) const { return m_breakpoints.count(address) != 0; }
    const std::set<uint32_t> &breakpoints() const { return m_breakpoints; }

private:
    reply read_memory(const std::string &args);
    reply write_memory(const std::string &args);
    reply breakpoint(bool insert, const std::string &args);
    reply features(const std::string &args);
    reply resume(action a, const std::string &args);

    gdb_target &m_target;
    std::set<uint32_t> m_breakpoints;
};

}  // namespace raidtlm::rtl_models
