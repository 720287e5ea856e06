// DiskSim spec import: the reference drives load with the values their files hold.
#include <gtest/gtest.h>

#include "diskspec_test_support.h"

using namespace diskspec_test;
using namespace raidtlm::disks;

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
// Ways of writing a spec the reference files do not use.

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
