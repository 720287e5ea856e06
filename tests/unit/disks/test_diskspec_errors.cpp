// DiskSim spec import: the syntax the files use, and bad input gets one line naming file, line and
// the offending parameter.
#include <gtest/gtest.h>

#include "diskspec_test_support.h"

using namespace diskspec_test;
using namespace raidtlm::disks;

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
