#include <string>

#include <gtest/gtest.h>

#include "waveforms/gtkw_writer.h"
#include "waveforms/vcd_tracer.h"

using namespace raidtlm::waveforms;

TEST(gtkw_writer, groups_signals_and_filters) {
    gtkw_layout l;
    l.dump_file = "waves.vcd";
    l.save_file = "/data/run/waves.gtkw";
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
    // Both absolute, the save file recording itself: GTKWave relocates the dump (and the filters)
    // by their place relative to the recorded save file when the folder has moved.
    EXPECT_NE(t.find("[dumpfile] \"/data/run/waves.vcd\"\n[savefile] \"/data/run/waves.gtkw\"\n"), std::string::npos);
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

TEST(gtkw_writer, relative_names_resolve_beside_the_save_file_and_precede_filters) {
    gtkw_layout l;
    l.dump_file = "waves.vcd";
    l.save_file = "/data/run/sub/../waves.gtkw";
    gtkw_group g;
    g.name = "disk0";
    g.signals.push_back({vcd_tracer::gtkwave_name("disk0.mech_state"), gtkw_format::decimal, "waves_mech_state.txt"});
    l.groups.push_back(g);
    const std::string t = make_gtkw(l);
    EXPECT_NE(t.find("[dumpfile] \"/data/run/waves.vcd\"\n"), std::string::npos) << t;
    EXPECT_NE(t.find("^1 /data/run/waves_mech_state.txt\n"), std::string::npos) << t;
    // GTKWave relocates a filter only against a [savefile] it has already read.
    EXPECT_LT(t.find("[savefile]"), t.find("^1 "));
    // A relative name with nothing to resolve it against is refused, not written as is.
    l.save_file.clear();
    EXPECT_THROW(make_gtkw(l), std::invalid_argument);
}

TEST(gtkw_writer, a_row_with_an_alias_is_labelled_by_it) {
    using namespace raidtlm::waveforms;
    gtkw_layout l;
    l.dump_file = "/tmp/w.vcd";
    gtkw_group g{"ch0", {}};
    gtkw_signal s{vcd_tracer::gtkwave_name("controller.fw.disk0.queue_depth"), gtkw_format::decimal, ""};
    s.alias = "fw disk0 queue_depth";
    g.signals.push_back(s);
    l.groups.push_back(g);
    const std::string text = make_gtkw(l);
    EXPECT_NE(text.find("\n+{fw disk0 queue_depth} SystemC.controller.fw.disk0.queue_depth[31:0]\n"), std::string::npos)
        << text;
}
