#include <string>

#include <gtest/gtest.h>

#include "waveforms/gtkw_writer.h"
#include "waveforms/vcd_tracer.h"

using namespace raidtlm::waveforms;

TEST(gtkw_writer, groups_signals_and_filters) {
    gtkw_layout l;
    l.dump_file = "waves.vcd";
    l.view_time = 1000000;
    gtkw_group g;
    g.name = "disk0";
    g.signals.push_back({vcd_tracer::gtkwave_name("disk0.mech_state"), gtkw_format::decimal, "/tmp/f.txt"});
    g.signals.push_back({vcd_tracer::gtkwave_name("disk0.cylinder"), gtkw_format::decimal, ""});
    l.groups.push_back(g);
    g.name = "disk1";
    g.signals = {{vcd_tracer::gtkwave_name("disk1.mech_state"), gtkw_format::decimal, "/tmp/f.txt"}};
    l.groups.push_back(g);
    const std::string t = make_gtkw(l);
    EXPECT_NE(t.find("[dumpfile] \"waves.vcd\"\n"), std::string::npos);
    EXPECT_NE(t.find("@800200\n-disk0\n"), std::string::npos);  // group begin
    EXPECT_NE(t.find("@1000200\n-disk0\n"), std::string::npos);  // group end
    EXPECT_NE(t.find("^1 /tmp/f.txt\n@2024\nSystemC.disk0.mech_state[31:0]\n"), std::string::npos);
    EXPECT_NE(t.find("@24\nSystemC.disk0.cylinder[31:0]\n"), std::string::npos);
    // The same filter file keeps its number.
    EXPECT_NE(t.find("^1 /tmp/f.txt\n@2024\nSystemC.disk1.mech_state[31:0]\n"), std::string::npos);
    EXPECT_EQ(t.find("^2 "), std::string::npos);
    EXPECT_NE(t.find("\n*-"), std::string::npos);  // a zoom line
}

TEST(gtkw_writer, gtkwave_names_follow_systemc_vcd_scopes) {
    EXPECT_EQ(vcd_tracer::gtkwave_name("host.outstanding"), "SystemC.host.outstanding[31:0]");
    EXPECT_EQ(vcd_tracer::gtkwave_name("x.flag", 1), "SystemC.x.flag");
}
