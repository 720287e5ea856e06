// The GDB remote protocol logic (rtl_models/cpu/gdb_remote.h) against a fake core: framing and
// checksums, escapes, register and memory packets, breakpoints, target.xml, resume actions.
#include <array>
#include <cstring>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "rtl_models/cpu/gdb_remote.h"

using namespace raidtlm::rtl_models;

namespace {

class fake_core : public gdb_target {
public:
    std::array<uint32_t, register_count> regs{};
    std::array<uint8_t, 64> ram{};
    uint32_t read_register(unsigned n) override { return regs[n]; }
    void write_register(unsigned n, uint32_t v) override { regs[n] = v; }
    bool read_memory(uint32_t a, uint8_t *out, uint32_t n) override {
        if (uint64_t(a) + n > ram.size()) return false;
        std::memcpy(out, ram.data() + a, n);
        return true;
    }
    bool write_memory(uint32_t a, const uint8_t *d, uint32_t n) override {
        if (uint64_t(a) + n > ram.size()) return false;
        std::memcpy(ram.data() + a, d, n);
        return true;
    }
};

}  // namespace

TEST(gdb_remote, frames_carry_the_modulo_256_checksum_and_escape_special_characters) {
    EXPECT_EQ(gdb_frame("OK"), "$OK#9a");
    EXPECT_EQ(gdb_frame(""), "$#00");
    // '#' is escaped as '}' followed by '#' ^ 0x20 = 0x03.
    EXPECT_EQ(gdb_frame("a#").substr(0, 4), std::string("$a}") + char(0x03));
}

TEST(gdb_remote, the_reader_splits_packets_checks_checksums_and_sees_interrupts) {
    gdb_packet_reader r;
    const std::string in = std::string("+$g#67$m0,4#fd") + '\x03' + "$OK#00";
    const auto events = r.feed(in.data(), 5);  // a packet split across reads
    EXPECT_TRUE(events.empty());
    const auto rest = r.feed(in.data() + 5, in.size() - 5);
    ASSERT_EQ(rest.size(), 4u);
    EXPECT_EQ(rest[0].payload, "g");
    EXPECT_EQ(rest[1].what, gdb_packet_reader::event::packet);
    EXPECT_EQ(rest[1].payload, "m0,4");
    EXPECT_EQ(rest[2].what, gdb_packet_reader::event::interrupt);
    EXPECT_EQ(rest[3].what, gdb_packet_reader::event::bad_checksum);
    // An escaped byte is restored ('}' then 0x5d ^ 0x20 = '}').
    const std::string escaped = gdb_frame("X}Y");
    const auto e = r.feed(escaped.data(), escaped.size());
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].payload, "X}Y");
}

TEST(gdb_remote, registers_go_out_little_endian_in_m_profile_order_and_come_back) {
    fake_core core;
    gdb_session s(core);
    core.regs[15] = 0x00000124;  // pc
    core.regs[16] = 0x01000000;  // xpsr: Thumb bit
    const auto g = s.handle("g");
    ASSERT_TRUE(g.payload);
    ASSERT_EQ(g.payload->size(), 17u * 8);
    EXPECT_EQ(g.payload->substr(15 * 8, 8), "24010000");
    EXPECT_EQ(g.payload->substr(16 * 8, 8), "00000001");
    EXPECT_EQ(*s.handle("pf").payload, "24010000");
    EXPECT_EQ(*s.handle("P3=78563412").payload, "OK");
    EXPECT_EQ(core.regs[3], 0x12345678u);
    std::string all(17 * 8, '0');
    all.replace(0, 8, "01000000");
    EXPECT_EQ(*s.handle("G" + all).payload, "OK");
    EXPECT_EQ(core.regs[0], 1u);
    EXPECT_EQ(core.regs[15], 0u);
    EXPECT_EQ(*s.handle("G00").payload, "E01");
    EXPECT_EQ(*s.handle("p11").payload, "E01");  // register 17 does not exist
}

TEST(gdb_remote, memory_reads_and_writes_reach_the_core_and_faults_say_so) {
    fake_core core;
    gdb_session s(core);
    EXPECT_EQ(*s.handle("M8,3:a1b2c3").payload, "OK");
    EXPECT_EQ(*s.handle("m8,4").payload, "a1b2c300");
    EXPECT_EQ(*s.handle("m40000000,4").payload, "E14");
    EXPECT_EQ(*s.handle("M8,2:a1").payload, "E01");  // length and data disagree
    EXPECT_EQ(*s.handle("mzz,4").payload, "E01");
}

TEST(gdb_remote, breakpoints_are_kept_by_address_and_resumes_say_what_to_do) {
    fake_core core;
    gdb_session s(core);
    EXPECT_EQ(*s.handle("Z0,1a4,2").payload, "OK");
    EXPECT_TRUE(s.is_breakpoint(0x1a4));
    EXPECT_EQ(*s.handle("z0,1a4,2").payload, "OK");
    EXPECT_FALSE(s.is_breakpoint(0x1a4));
    EXPECT_EQ(*s.handle("Z2,1a4,4").payload, "");  // watchpoints: unsupported
    const auto c = s.handle("c");
    EXPECT_EQ(c.next, gdb_session::action::resume);
    EXPECT_FALSE(c.payload);
    const auto st = s.handle("s200");
    EXPECT_EQ(st.next, gdb_session::action::step);
    EXPECT_EQ(core.regs[15], 0x200u);
    EXPECT_EQ(s.handle("k").next, gdb_session::action::kill);
    EXPECT_EQ(*s.handle("?").payload, "S05");
    EXPECT_EQ(*s.handle("vMustReplyEmpty").payload, "");
}

TEST(gdb_remote, target_xml_describes_an_m_profile_core_in_parts) {
    fake_core core;
    gdb_session s(core);
    EXPECT_NE(s.handle("qSupported:multiprocess+").payload->find("qXfer:features:read+"), std::string::npos);
    std::string xml;
    for (uint32_t offset = 0;;) {
        const std::string part = *s.handle(fmt::format("qXfer:features:read:target.xml:{:x},40", offset)).payload;
        ASSERT_FALSE(part.empty());
        xml += part.substr(1);
        offset += uint32_t(part.size() - 1);
        if (part[0] == 'l') break;
        ASSERT_EQ(part[0], 'm');
    }
    EXPECT_NE(xml.find("org.gnu.gdb.arm.m-profile"), std::string::npos);
    EXPECT_NE(xml.find("name=\"xpsr\""), std::string::npos);
    EXPECT_EQ(xml.substr(xml.size() - 10), "</target>\n");
}
