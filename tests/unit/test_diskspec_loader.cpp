// DiskSim spec import: the five reference drives load with the values their files hold, and bad
// input gets one line naming file, line and the offending parameter.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "disks/diskspec_parser.h"

namespace fs = std::filesystem;
using namespace raidtlm::disks;

namespace {

const std::string disksim_dir = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/";

std::string reference_file(const std::string &relative) { return disksim_dir + relative; }

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// 1-based line of the `nth` (0-based) occurrence of `needle` in the file; 0 if absent.
int line_of(const std::string &path, const std::string &needle, int nth = 0) {
    std::string text = read_text(path);
    size_t pos = 0;
    for (int i = 0; i <= nth; ++i) {
        pos = text.find(needle, i == 0 ? 0 : pos + 1);
        if (pos == std::string::npos) return 0;
    }
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n'));
}

std::string loc(const std::string &path, int line) { return path + ":" + std::to_string(line); }

#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE((text).find(part), std::string::npos) << "missing: " << (part) << "\nin: " << (text)

// The message of the spec_error that `f` throws; a test failure if it throws nothing.
std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const spec_error &e) {
        std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
        EXPECT_NE(what.find("; expected "), std::string::npos) << what;
        return what;
    }
    ADD_FAILURE() << "no spec_error thrown";
    return "";
}

// A private copy of the Cheetah 9LP files in a fresh temporary directory, to break on purpose.
class cheetah_copy {
public:
    cheetah_copy() {
        static std::atomic<int> counter{0};
        std::string unique = std::to_string(::getpid()) + "_" + std::to_string(counter++);
        m_dir = fs::temp_directory_path() / ("raidtlm_diskspec_" + unique);
        fs::create_directories(m_dir);
        for (const char *f : {"cheetah9LP.diskspecs", "cheetah9LP.model", "cheetah9LP.seek"})
            fs::copy_file(reference_file(std::string("validation/") + f), m_dir / f);
    }
    ~cheetah_copy() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    std::string path(const std::string &name) const { return (m_dir / name).string(); }
    std::string specs() const { return path("cheetah9LP.diskspecs"); }
    std::string model() const { return path("cheetah9LP.model"); }
    std::string seek() const { return path("cheetah9LP.seek"); }

    // Replaces the first occurrence of `from` in file `name`; the test fails if there is none.
    void edit(const std::string &name, const std::string &from, const std::string &to) const {
        std::string text = read_text(path(name));
        size_t pos = text.find(from);
        ASSERT_NE(pos, std::string::npos) << "'" << from << "' not in " << name;
        text.replace(pos, from.size(), to);
        write(name, text);
    }
    void edit_specs(const std::string &from, const std::string &to) const {
        edit("cheetah9LP.diskspecs", from, to);
    }
    void edit_model(const std::string &from, const std::string &to) const {
        edit("cheetah9LP.model", from, to);
    }
    void write(const std::string &name, const std::string &text) const {
        std::ofstream(path(name), std::ios::trunc) << text;
    }

private:
    fs::path m_dir;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// The reference drives.

TEST(DiskspecLoader, AllReferenceDrivesLoad) {
    for (const char *f : {"validation/cheetah9LP.diskspecs", "validation/atlas10k.diskspecs",
                          "validation/hp_c2247a.diskspecs", "specs/cheetah4LP.diskspecs",
                          "specs/barracuda.diskspecs"}) {
        SCOPED_TRACE(f);
        disk_spec s = load_diskspec(reference_file(f));
        EXPECT_FALSE(s.name.empty());
        EXPECT_GT(s.surfaces, 0);
        EXPECT_FALSE(s.layout.zones.empty());
        EXPECT_GT(s.mech.rpm, 0);
        EXPECT_EQ(s.mech.seek.cylinders, s.cylinders);
        EXPECT_EQ(s.interface.scheduling, drive_scheduling::fcfs);
        // Every parameter is traceable to its file.
        for (const char *p : {"Seek type", "Fast write level", "Sparing scheme used",
                              "Scheduling policy", "Number of cylinders", "Model"})
            EXPECT_TRUE(s.origin.count(p)) << p;
        EXPECT_TRUE(s.origin.count(zone_param_key(0, "Blocks per track")));
    }
}

TEST(DiskspecLoader, Cheetah9LPValues) {
    const std::string specs = reference_file("validation/cheetah9LP.diskspecs");
    const std::string model = reference_file("validation/cheetah9LP.model");
    disk_spec s = load_diskspec(specs);
    EXPECT_EQ(s.name, "SEAGATE_ST39102LW_validate");
    EXPECT_EQ(s.surfaces, 12);
    EXPECT_EQ(s.cylinders, 6962);
    EXPECT_EQ(s.block_count, 17783240);

    EXPECT_EQ(s.layout.mapping, lbn_mapping::conventional);
    EXPECT_EQ(s.layout.sparing, sparing_scheme::sectors_per_zone);
    EXPECT_EQ(s.layout.sparing_range_cyl, 1);
    ASSERT_EQ(s.layout.zones.size(), 11u);
    const zone_spec &z0 = s.layout.zones[0];
    EXPECT_EQ(z0.first_cyl, 0);
    EXPECT_EQ(z0.last_cyl, 846);
    EXPECT_EQ(z0.sectors_per_track, 254);
    EXPECT_DOUBLE_EQ(z0.track_skew_sectors, 97);
    EXPECT_DOUBLE_EQ(z0.cylinder_skew_sectors, 133);
    EXPECT_EQ(z0.spares, 1270);
    ASSERT_EQ(z0.slips.size(), 34u);
    EXPECT_EQ(z0.slips.front(), 168317);
    EXPECT_EQ(z0.slips.back(), 2337052);
    EXPECT_TRUE(z0.defects.empty());
    EXPECT_EQ(s.layout.zones[1].first_cyl, 848);  // cylinder 847 belongs to no zone
    EXPECT_EQ(s.layout.zones.back().sectors_per_track, 167);
    EXPECT_EQ(s.layout.zones.back().last_cyl, 6961);

    EXPECT_EQ(s.mech.access, access_time_type::track_switch_plus_rotation);
    EXPECT_DOUBLE_EQ(s.mech.rpm, 10045);
    EXPECT_DOUBLE_EQ(s.mech.write_settle_ms, 0.461);
    EXPECT_DOUBLE_EQ(s.mech.head_switch_ms, 0.030);
    const seek_spec &k = s.mech.seek;
    EXPECT_EQ(k.type, seek_type::extracted);
    EXPECT_DOUBLE_EQ(k.single_cylinder_ms, 0.831);
    EXPECT_DOUBLE_EQ(k.full_strobe_ms, 10.627);
    EXPECT_DOUBLE_EQ(k.average_ms, 0);  // not given for an extracted curve
    ASSERT_EQ(k.curve.size(), 106u);
    EXPECT_EQ(k.curve.front().first, 1);
    EXPECT_DOUBLE_EQ(k.curve.front().second, 0.831);
    EXPECT_EQ(k.curve.back().first, 6894);
    EXPECT_DOUBLE_EQ(k.curve.back().second, 10.627);
    EXPECT_EQ(k.first_ten_ms[0], 0);  // commented out in the model

    EXPECT_DOUBLE_EQ(s.interface.bulk_sector_transfer_ms, 0.105);
    EXPECT_EQ(s.interface.max_queue_length, 1);
    EXPECT_FALSE(s.interface.hold_bus_entire_read);
    EXPECT_EQ(s.cache.segments, 3);
    EXPECT_EQ(s.cache.segment_blocks, 561);
    EXPECT_EQ(s.cache.max_write_segments, 3);
    EXPECT_EQ(s.cache.fast_write_level, 2);
    EXPECT_EQ(s.cache.continuous_read, prefetch_scheme::next_track_if_sequential);
    EXPECT_EQ(s.cache.max_read_ahead_blocks, 561);
    EXPECT_TRUE(s.cache.read_hits_on_write_data);
    EXPECT_TRUE(s.cache.combine_seq_writes);
    EXPECT_DOUBLE_EQ(s.overheads.read_hit_after_read_ms, 0.066);
    EXPECT_DOUBLE_EQ(s.overheads.write_miss_after_write_ms, 0.8964);
    EXPECT_FALSE(s.overheads.extra_write_disconnect);

    EXPECT_EQ(s.other_params.at("Avg sectors per cylinder"), 2554);
    EXPECT_EQ(s.other_params.at("Print stats"), 1);
    EXPECT_EQ(s.other_params.at("Sequential stream scheme"), 0);

    EXPECT_EQ(s.where("Fast write level"), loc(specs, line_of(specs, "Fast write level")));
    EXPECT_EQ(s.where("Scheduling policy"), loc(specs, line_of(specs, "Scheduling policy")));
    EXPECT_EQ(s.where("Seek type"), loc(model, line_of(model, "Seek type")));
    EXPECT_EQ(s.where("Sparing scheme used"), loc(model, line_of(model, "Sparing scheme used")));
    EXPECT_EQ(s.where(zone_param_key(1, "Blocks per track")),
              loc(model, line_of(model, "Blocks per track", 1)));
    EXPECT_EQ(s.layout.zones[1].where.str(), loc(model, line_of(model, "dm_layout_g1_zone {", 1)));
    EXPECT_EQ(s.where("First ten seek times"), "<built-in>");  // commented out
}

TEST(DiskspecLoader, HpC2247AValues) {
    disk_spec s = load_diskspec(reference_file("validation/hp_c2247a.diskspecs"));
    EXPECT_EQ(s.surfaces, 13);
    EXPECT_EQ(s.cylinders, 2051);
    EXPECT_DOUBLE_EQ(s.mech.rpm, 5400);
    const seek_spec &k = s.mech.seek;
    EXPECT_EQ(k.type, seek_type::hplplus10);
    const std::array<double, 6> hpl{300, 3.81, 0.33, 7.75, 0.0059, -1};
    for (size_t i = 0; i < hpl.size(); ++i) EXPECT_DOUBLE_EQ(k.hpl[i], hpl[i]) << "V" << i + 1;
    EXPECT_DOUBLE_EQ(k.first_ten_ms[0], 2.89);
    EXPECT_DOUBLE_EQ(k.first_ten_ms[9], 4.99);
    EXPECT_TRUE(k.curve.empty());
    EXPECT_DOUBLE_EQ(k.average_ms, 1.1);

    EXPECT_EQ(s.layout.sparing, sparing_scheme::tracks_per_zone);
    ASSERT_EQ(s.layout.zones.size(), 8u);
    EXPECT_EQ(s.layout.zones[0].empty_front_sectors, 1632);
    EXPECT_EQ(s.layout.zones[0].sectors_per_track, 96);
    EXPECT_EQ(s.layout.zones[0].slips.size(), 12u);
    // An integer where DiskSim documents a float.
    EXPECT_DOUBLE_EQ(s.layout.zones[1].first_block_offset_sectors, 14);

    EXPECT_TRUE(s.overheads.extra_write_disconnect);
    EXPECT_DOUBLE_EQ(s.overheads.extradisc_command_ms, 0.64244);
    EXPECT_DOUBLE_EQ(s.overheads.minimum_seek_delay_ms, 0.6);
    EXPECT_TRUE(s.interface.hold_bus_entire_read);
    EXPECT_DOUBLE_EQ(s.interface.bulk_sector_transfer_ms, 0);
    EXPECT_EQ(s.cache.continuous_read, prefetch_scheme::to_segment_full);
    EXPECT_TRUE(s.cache.separate_write_segment);
    EXPECT_DOUBLE_EQ(s.cache.low_water_mark, 0.75);
    EXPECT_TRUE(s.cache.stop_prefetch_in_sector);
}

TEST(DiskspecLoader, Atlas10kValues) {
    const std::string model = reference_file("validation/atlas10k.model");
    disk_spec s = load_diskspec(reference_file("validation/atlas10k.diskspecs"));
    EXPECT_EQ(s.name, "QUANTUM_TORNADO_validate");
    EXPECT_EQ(s.block_count, 17938986);
    EXPECT_EQ(s.layout.mapping, lbn_mapping::serpentine_zone);
    ASSERT_EQ(s.layout.zones.size(), 24u);
    EXPECT_EQ(s.layout.zones[0].slips,
              (std::vector<int64_t>{55017, 358148, 394564, 420533, 483742}));
    // Band 7's slips run over two lines.
    EXPECT_EQ(s.layout.zones[7].slips, (std::vector<int64_t>{138144, 291290, 615857, 616604,
                                                             619565, 620636, 623597, 624668}));
    EXPECT_TRUE(s.layout.zones[1].slips.empty());
    EXPECT_EQ(s.mech.seek.curve.size(), 138u);
    EXPECT_EQ(s.mech.seek.curve.back().first, 10021);
    EXPECT_DOUBLE_EQ(s.mech.rpm, 10025);
    EXPECT_TRUE(s.cache.immediate_buffer_read);
    EXPECT_TRUE(s.cache.read_any_free_blocks);
    EXPECT_EQ(s.cache.segments, 10);
    // Mechanical Model comes before Layout Model in this file; origins still point right.
    EXPECT_EQ(s.where("Head switch time"), loc(model, line_of(model, "Head switch time")));
}

TEST(DiskspecLoader, SpecsDirectoryDrives) {
    disk_spec b = load_diskspec(reference_file("specs/barracuda.diskspecs"));
    EXPECT_EQ(b.name, "SEAGATE_ST32171W");
    EXPECT_EQ(b.surfaces, 5);
    EXPECT_EQ(b.cylinders, 5172);
    EXPECT_EQ(b.layout.sparing, sparing_scheme::sectors_per_range);
    EXPECT_EQ(b.layout.sparing_range_cyl, 6);
    EXPECT_EQ(b.mech.seek.curve.size(), 87u);
    EXPECT_DOUBLE_EQ(b.mech.rpm, 7200);
    EXPECT_EQ(b.cache.segment_blocks, 281);

    disk_spec c = load_diskspec(reference_file("specs/cheetah4LP.diskspecs"));
    EXPECT_EQ(c.surfaces, 8);
    EXPECT_EQ(c.mech.seek.curve.size(), 103u);
    EXPECT_DOUBLE_EQ(c.mech.rpm, 10033);
    EXPECT_EQ(c.cache.fast_write_level, 1);
    ASSERT_GE(c.layout.zones.size(), 2u);
    ASSERT_EQ(c.layout.zones[1].defects.size(), 1u);
    EXPECT_EQ(c.layout.zones[1].defects[0], (std::pair<int64_t, int64_t>(233375, 233375)));
}

// ---------------------------------------------------------------------------------------------
// Syntax the files use, checked on the generic tree.

TEST(DiskspecParser, TreeKeepsNamesValuesAndLines) {
    cheetah_copy dir;
    dir.write("t.parv",
              "# comment line\n"
              "blk A.b {\n"
              "   Key with spaces (and parens) = 12,  # trailing comment\n"
              "   Neg. real = -1.000000,\n"
              "   Word = trackSwitchPlusRotation,\n"
              "   Empty = [    ],\n"
              "   Later =\n"
              "      [ 1, 2.5,\n"
              "        3, ]\n"
              "   Inner = sub { x = 1, }\n"
              "}\n"
              "instantiate [ disk0 .. disk3 ] as A.b\n");
    param_file f = parse_param_file(dir.path("t.parv"));
    ASSERT_EQ(f.blocks.size(), 1u);
    const param_block &b = f.blocks[0];
    EXPECT_EQ(b.type, "blk");
    EXPECT_EQ(b.name, "A.b");
    EXPECT_EQ(b.where.line, 2);
    ASSERT_EQ(b.entries.size(), 6u);
    EXPECT_EQ(b.entries[0].key, "Key with spaces (and parens)");
    EXPECT_EQ(b.entries[0].value.type, param_value::kind::integer);
    EXPECT_EQ(b.entries[0].value.integer, 12);
    EXPECT_EQ(b.entries[1].value.type, param_value::kind::real);
    EXPECT_DOUBLE_EQ(b.entries[1].value.real, -1.0);
    EXPECT_EQ(b.entries[2].value.type, param_value::kind::word);
    EXPECT_EQ(b.entries[2].value.text, "trackSwitchPlusRotation");
    EXPECT_TRUE(b.entries[3].value.list.empty());
    const param_entry &later = b.entries[4];
    EXPECT_EQ(later.where.line, 7);
    EXPECT_EQ(later.value.where.line, 8);
    ASSERT_EQ(later.value.list.size(), 3u);
    EXPECT_EQ(later.value.list[2].where.line, 9);
    // "]" then a new entry without a comma, as atlas10k.model writes it.
    ASSERT_EQ(b.entries[5].value.type, param_value::kind::block);
    EXPECT_EQ(b.entries[5].value.block->type, "sub");
    EXPECT_EQ(b.entries[5].value.block->entries.at(0).key, "x");
}

TEST(DiskspecParser, MissingCommaAfterScalarIsAnError) {
    cheetah_copy dir;
    dir.write("t.parv", "blk A {\n  a = 1\n  b = 2\n}\n");
    std::string e = error_of([&] { parse_param_file(dir.path("t.parv")); });
    EXPECT_CONTAINS(e, loc(dir.path("t.parv"), 2));
    EXPECT_CONTAINS(e, "'a'");
}

TEST(DiskspecParser, TopLevelSourceIncludesBlocksAndCyclesAreCaught) {
    cheetah_copy dir;
    dir.write("main.parv", "source cheetah9LP.diskspecs\nother X { a = 1 }\n");
    param_file f = parse_param_file(dir.path("main.parv"));
    ASSERT_EQ(f.blocks.size(), 2u);
    EXPECT_EQ(f.blocks[0].type, "disksim_disk");
    EXPECT_EQ(f.blocks[0].where.file, dir.specs());
    EXPECT_EQ(load_diskspec(dir.path("main.parv")).name, "SEAGATE_ST39102LW_validate");

    dir.write("loop.parv", "# sources itself\nsource loop.parv\n");
    std::string e = error_of([&] { parse_param_file(dir.path("loop.parv")); });
    EXPECT_CONTAINS(e, loc(dir.path("loop.parv"), 2) + ": `source` nested deeper than 32 files");
}

// ---------------------------------------------------------------------------------------------
// Errors: each names file:line and the offending parameter.

TEST(DiskspecErrors, MisspelledKeySuggestsTheRightOne) {
    cheetah_copy d;
    d.edit_specs("Fast write level = 2", "Fast wirte level = 2");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.specs(), line_of(d.specs(), "Fast wirte level")));
    EXPECT_CONTAINS(e, "unknown parameter 'Fast wirte level'");
    EXPECT_CONTAINS(e, "expected 'Fast write level'");
}

TEST(DiskspecErrors, MisspelledKeyInModel) {
    cheetah_copy d;
    d.edit_model("Head switch time", "Head swich time");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), line_of(d.model(), "Head swich time")));
    EXPECT_CONTAINS(e, "dm_mech_g1");
}

TEST(DiskspecErrors, MissingEquals) {
    cheetah_copy d;
    d.edit_model("Number of cylinders = 6962", "Number of cylinders 6962");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), 3) + ": parameter 'Number of cylinders 6962' has no '='");
}

TEST(DiskspecErrors, UnterminatedList) {
    cheetah_copy d;
    d.edit_model("               2337052\n            ],", "               2337052,\n");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), line_of(d.model(), "slips = [")));
    EXPECT_CONTAINS(e, "list for 'slips' is not closed");
    EXPECT_CONTAINS(e, "expected ']'");
}

TEST(DiskspecErrors, UnterminatedBlock) {
    cheetah_copy d;
    d.edit_specs("} # end of", "# end of");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.specs(), 1) + ": block 'disksim_disk SEAGATE_ST39102LW_validate'");
    EXPECT_CONTAINS(e, "expected '}'");
}

TEST(DiskspecErrors, BadFloat) {
    cheetah_copy d;
    d.edit_specs("Bulk sector transfer time = 0.105000", "Bulk sector transfer time = 0.10.5000");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.specs(), line_of(d.specs(), "Bulk sector")));
    EXPECT_CONTAINS(e, "'Bulk sector transfer time' is '0.10.5000'; expected a number");
}

TEST(DiskspecErrors, FloatWhereIntegerIsRequired) {
    cheetah_copy d;
    d.edit_model("Number of cylinders = 6962", "Number of cylinders = 6962.5");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), 3) +
                           ": 'Number of cylinders' is '6962.5'; expected an integer");
}

TEST(DiskspecErrors, FlagOutsideZeroOne) {
    cheetah_copy d;
    d.edit_specs("Never disconnect = 0", "Never disconnect = 2");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, "'Never disconnect' is '2'; expected 0 or 1");
}

TEST(DiskspecErrors, MissingSourcedFile) {
    cheetah_copy d;
    d.edit_specs("source cheetah9LP.model", "source nosuch.model");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.specs(), 2) + ": sourced file '" + d.path("nosuch.model") + "'");
}

TEST(DiskspecErrors, UnreadableTopLevelFile) {
    cheetah_copy d;
    std::string e = error_of([&] { load_diskspec(d.path("absent.diskspecs")); });
    EXPECT_CONTAINS(e, d.path("absent.diskspecs"));
}

TEST(DiskspecErrors, MissingSeekFile) {
    cheetah_copy d;
    d.edit_model("Full seek curve = cheetah9LP.seek", "Full seek curve = gone.seek");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), line_of(d.model(), "Full seek curve")));
    EXPECT_CONTAINS(e, "gone.seek");
}

TEST(DiskspecErrors, SeekCountMismatch) {
    cheetah_copy d;
    d.edit("cheetah9LP.seek", "measured: 106", "measured: 107");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.seek(), 1) + ": header says 107 seek distances but the file has 106");
}

TEST(DiskspecErrors, SeekDistancesMustAscend) {
    cheetah_copy d;
    d.edit("cheetah9LP.seek", "3,\t1.08900", "1,\t1.08900");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.seek(), 4) + ": seek distance 1 does not ascend");
}

TEST(DiskspecErrors, SeekLineMalformed) {
    cheetah_copy d;
    d.edit("cheetah9LP.seek", "3,\t1.08900", "3;\t1.08900");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.seek(), 4));
}

TEST(DiskspecErrors, MissingRequiredParameterNamesTheBlock) {
    cheetah_copy d;
    d.edit_model("      Head switch time = 0.030000,\n", "");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), line_of(d.model(), "Mechanical Model")) +
                           ": dm_mech_g1 block has no 'Head switch time'");
}

TEST(DiskspecErrors, DuplicateParameter) {
    cheetah_copy d;
    d.edit_specs("Fast write level = 2,", "Fast write level = 2,\n   Fast write level = 0,");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, "'Fast write level' is given twice");
}

TEST(DiskspecErrors, ModelMustBeSourcedOrInline) {
    cheetah_copy d;
    d.edit_specs("Model = source cheetah9LP.model", "Model = cheetah9LP.model");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.specs(), 2) + ": 'Model' is 'cheetah9LP.model'; "
                                           "expected `source FILE` or an inline dm_disk block");
}

TEST(DiskspecLoader, InlineModelLoadsLikeSourcedOne) {
    cheetah_copy d;
    std::string model_text = read_text(d.model());
    d.edit_specs("source cheetah9LP.model", model_text);
    disk_spec inline_spec = load_diskspec(d.specs());
    disk_spec sourced = load_diskspec(reference_file("validation/cheetah9LP.diskspecs"));
    EXPECT_EQ(inline_spec.layout.zones.size(), sourced.layout.zones.size());
    EXPECT_EQ(inline_spec.mech.seek.curve, sourced.mech.seek.curve);
    EXPECT_EQ(inline_spec.where("Seek type"),
              loc(d.specs(), 1 + line_of(d.model(), "Seek type")));
}

TEST(DiskspecErrors, UnknownSeekAndAccessTypes) {
    cheetah_copy d;
    d.edit_model("Seek type = extracted", "Seek type = wobbly");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, "'Seek type' is 'wobbly'; "
                       "expected constant, linear, curve, hpl, hplplus10 or extracted");

    cheetah_copy d2;
    d2.edit_model("Access time type = trackSwitchPlusRotation", "Access time type = fast");
    e = error_of([&] { load_diskspec(d2.specs()); });
    EXPECT_CONTAINS(e, loc(d2.model(), line_of(d2.model(), "Access time type")) +
                           ": 'Access time type' is 'fast'");
}

TEST(DiskspecErrors, SeekTypeNeedsItsParameters) {
    cheetah_copy d;
    d.edit_model("Seek type = extracted", "Seek type = hpl");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, "has no 'HPL seek equation values' (needed by Seek type = hpl)");
}

TEST(DiskspecErrors, HplNeedsSixValues) {
    cheetah_copy d;
    d.edit_model("Seek type = extracted", "Seek type = hpl,\n HPL seek equation values = [ 1, 2 ]");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, "'HPL seek equation values' has 2 values; expected exactly 6 numbers");
}

TEST(DiskspecErrors, ValueRanges) {
    struct bad_case {
        bool in_model;
        const char *from, *to, *message;
    };
    const bad_case cases[] = {
        {false, "Buffer continuous read = 4", "Buffer continuous read = 5",
         "'Buffer continuous read' is '5'; expected 0 (none)"},
        {true, "Sparing scheme used = 9", "Sparing scheme used = 11",
         "'Sparing scheme used' is '11'; expected a sparing scheme from 0 to 10"},
        {true, "LBN-to-PBN mapping scheme = 0", "LBN-to-PBN mapping scheme = 3",
         "'LBN-to-PBN mapping scheme' is '3'; expected 0 (conventional)"},
        {true, "Percent error in rpms = 0.000000", "Percent error in rpms = 0.5",
         "'Percent error in rpms' = 0.5 is not supported; expected 0"},
        {true, "Blocks per track = 254", "Blocks per track = 0",
         "'Blocks per track' is '0'; expected a positive integer"},
        {true, "defects = []", "defects = [ 5 ]",
         "'defects' has 1 numbers; expected (defective, replacement) pairs"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.to);
        cheetah_copy d;
        if (c.in_model)
            d.edit_model(c.from, c.to);
        else
            d.edit_specs(c.from, c.to);
        const std::string file = c.in_model ? d.model() : d.specs();
        std::string e = error_of([&] { load_diskspec(d.specs()); });
        EXPECT_CONTAINS(e, loc(file, line_of(file, c.to)) + ": " + c.message);
    }
}

TEST(DiskspecErrors, SchedulingPolicyTheDriveQueueDoesNotImplement) {
    // SPTF_OPT loads (a validation run never queues, so the policy cannot act there) and is
    // refused, with file and line, where commands do queue in the drive.
    cheetah_copy d;
    d.edit_specs("Scheduling policy = 1", "Scheduling policy = 8");
    const disk_spec s = load_diskspec(d.specs());
    EXPECT_NO_THROW(check_supported(s, drive_use::one_command_at_a_time));
    std::string e;
    try {
        check_supported(s, drive_use::queued_commands);
    } catch (const unsupported_parameter &x) {
        e = x.what();
    }
    EXPECT_CONTAINS(e, loc(d.specs(), line_of(d.specs(), "Scheduling policy")) + ": 'Scheduling policy' = 8 is not supported");
    EXPECT_CONTAINS(e, "expected FCFS 1, ELEVATOR_LBN 2, CYCLE_LBN 3 or SSTF_LBN 4");

    cheetah_copy bad;
    bad.edit_specs("Scheduling policy = 1", "Scheduling policy = 28");
    EXPECT_CONTAINS(error_of([&] { load_diskspec(bad.specs()); }), "is not a DiskSim ioqueue policy");

    cheetah_copy d2;
    d2.edit_specs("Scheduling policy = 1", "Scheduling policy = 4");
    EXPECT_EQ(load_diskspec(d2.specs()).interface.scheduling, drive_scheduling::sstf_lbn);
}

TEST(DiskspecErrors, ZonesOverlapOrStartBeforeCylinderZero) {
    cheetah_copy d;
    d.edit_model("First cylinder number = 848", "First cylinder number = 800");
    std::string e = error_of([&] { load_diskspec(d.specs()); });
    EXPECT_CONTAINS(e, loc(d.model(), line_of(d.model(), "dm_layout_g1_zone {", 1)) +
                           ": zone 1 (cylinders 800..1643) overlaps zone 0");

    cheetah_copy d3;
    d3.edit_model("First cylinder number = 0", "First cylinder number = -1");
    e = error_of([&] { load_diskspec(d3.specs()); });
    EXPECT_CONTAINS(e, "zone 0 (cylinders -1..846) starts before cylinder 0");
}

// DiskSim's layout trusts the zones (the HP C2490A's last zone ends one past its "Number of
// cylinders", and DiskSim validates it): the geometry widens, the seek curve keeps the count.
TEST(DiskspecLoader, ZonesBeyondTheCylinderCountWidenTheGeometry) {
    cheetah_copy d;
    d.edit_model("Last cylinder number = 6961", "Last cylinder number = 6962");
    const disk_spec s = load_diskspec(d.specs());
    EXPECT_EQ(s.cylinders, 6963);
    EXPECT_EQ(s.mech.seek.cylinders, 6962);
}

TEST(DiskspecLoader, SkewUnitsInRevolutionsBecomeSectors) {
    // Layout-wide revolutions, which zone 0 overrides back to sectors.
    cheetah_copy d;
    d.edit_model("Rangesize for sparing = 1,",
                 "Rangesize for sparing = 1, Skew units = revolutions,");
    d.edit_model("Skew for track switch = 97.000000",
                 "Skew units = sectors, Skew for track switch = 97.000000");
    disk_spec s = load_diskspec(d.specs());
    EXPECT_DOUBLE_EQ(s.layout.zones[0].track_skew_sectors, 97);
    EXPECT_DOUBLE_EQ(s.layout.zones[1].track_skew_sectors, 97.0 * 245);
    EXPECT_DOUBLE_EQ(s.layout.zones[1].cylinder_skew_sectors, 133.0 * 245);
    EXPECT_TRUE(s.origin.count("Skew units"));
    EXPECT_TRUE(s.origin.count(zone_param_key(0, "Skew units")));

    // Zone-level revolutions only: zone 0 (254 sectors per track) converts, zone 1 does not.
    cheetah_copy d2;
    d2.edit_model("Skew for track switch = 97.000000",
                  "Skew units = revolutions, Skew for track switch = 0.5");
    d2.edit_model("Skew for cylinder switch = 133.000000", "Skew for cylinder switch = 0.25");
    d2.edit_model("Offset of first block = 0.000000", "Offset of first block = 0.1");
    s = load_diskspec(d2.specs());
    EXPECT_DOUBLE_EQ(s.layout.zones[0].track_skew_sectors, 127);
    EXPECT_DOUBLE_EQ(s.layout.zones[0].cylinder_skew_sectors, 63.5);
    EXPECT_DOUBLE_EQ(s.layout.zones[0].first_block_offset_sectors, 25.4);
    EXPECT_DOUBLE_EQ(s.layout.zones[1].track_skew_sectors, 97);

    cheetah_copy d3;
    d3.edit_model("Rangesize for sparing = 1,", "Rangesize for sparing = 1, Skew units = turns,");
    std::string e = error_of([&] { load_diskspec(d3.specs()); });
    EXPECT_CONTAINS(e, "'Skew units' is 'turns'; expected sectors or revolutions");
}

TEST(DiskspecLoader, ChoosesAmongSeveralDisksByName) {
    cheetah_copy d;
    std::string one = read_text(d.specs());
    std::string two = one;
    two.replace(two.find("SEAGATE_ST39102LW_validate"), 26, "SECOND_DISK");
    two.replace(two.find("Fast write level = 2"), 20, "Fast write level = 1");
    d.write("two.diskspecs", one + two + "instantiate [ disk0 .. disk1 ] as SECOND_DISK\n");

    EXPECT_EQ(load_diskspec(d.path("two.diskspecs"), "SECOND_DISK").cache.fast_write_level, 1);
    EXPECT_EQ(load_diskspec(d.path("two.diskspecs"), "SEAGATE_ST39102LW_validate")
                  .cache.fast_write_level,
              2);
    std::string e = error_of([&] { load_diskspec(d.path("two.diskspecs")); });
    EXPECT_CONTAINS(e, "2 disksim_disk blocks (SEAGATE_ST39102LW_validate, SECOND_DISK)");
    e = error_of([&] { load_diskspec(d.path("two.diskspecs"), "THIRD"); });
    EXPECT_CONTAINS(e, "no disksim_disk block named 'THIRD'");
}
