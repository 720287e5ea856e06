// The parity logging paper's utilization model (testbench/models/parity_logging_model.h) against the
// figures derived from its Figure 12 parameters (../shared/notes/SEEDS.md).
#include <gtest/gtest.h>

#include "testbench/models/parity_logging_model.h"
#include "disks/diskspec_loader.h"

using namespace raidtlm::controller::plog_model;

TEST(ParityLoggingModel, Figure12BaselinesMatchTheDerivedBusyTimes) {
    const parameters p = figure12();
    EXPECT_NEAR(nonredundant_ms(p), 20.61, 0.005);
    EXPECT_NEAR(mirroring_ms(p), 41.22, 0.005);
    EXPECT_NEAR(raid5_ms(p), 69.02, 0.005);
    EXPECT_NEAR(floating_ms(p), 47.61, 0.005);
    EXPECT_NEAR(saturation_rate_per_disk(nonredundant_ms(p)), 48.5, 0.05);
    EXPECT_NEAR(saturation_rate_per_disk(mirroring_ms(p)), 24.3, 0.05);
    EXPECT_NEAR(saturation_rate_per_disk(raid5_ms(p)), 14.5, 0.05);
    EXPECT_NEAR(saturation_rate_per_disk(floating_ms(p)), 21.0, 0.05);
}

TEST(ParityLoggingModel, Figure13LogWriteAndDataAccess) {
    const parameters p = figure12();
    const plog_terms pre = parity_logging(p, true), nopre = parity_logging(p, false);
    EXPECT_NEAR(pre.data_access_ms, 12.5 + (3 + 2 / 12.0) * 6.95, 1e-9);
    EXPECT_NEAR(nopre.data_access_ms, 12.5 + (1 + 2 / 12.0) * 6.95, 1e-9);
    EXPECT_NEAR(pre.log_write_ms, 2.78, 0.005);  // Figure 13: "2.78 milliseconds"
    // Each cylinder-rate term costs at least a cylinder's media time per D*T writes.
    const double floor_ms = (2 * 6.95 * 14 + 13 * 1.16) / (12 * 14);
    for (double t : {pre.log_read_ms, pre.parity_read_ms, pre.parity_write_ms}) {
        EXPECT_GT(t, floor_ms);
        // Figure 13 prints "about 1.29" each; with C_L = C_P = V/100 the unstriped parity pass
        // pays N-1 seeks per reintegration, which the paper's rounded figure hides.
        EXPECT_LT(t, 1.50);
    }
    // SEEDS.md's 41.16 and 27.26 are t_rmw (t_w) + 2.78 + 3 x 1.29, Figure 13's printed terms.
    EXPECT_NEAR(pre.data_access_ms + 2.78 + 3 * 1.29, 41.16, 0.005);
    EXPECT_NEAR(nopre.data_access_ms + 2.78 + 3 * 1.29, 27.26, 0.005);
    // From the geometry (C_L = C_P = 9.49 cylinders, not given by the paper) the totals are 41.53 and
    // 27.63, 0.37 ms above (the parity terms pay N-1 seeks per region over 9.49 cylinders: 1.49 each).
    EXPECT_NEAR(pre.total_ms(), 41.16, 0.41);
    EXPECT_NEAR(nopre.total_ms(), 27.26, 0.41);
}

TEST(ParityLoggingModel, StripingTheLogAddsLTimesSPlusRMinusM) {
    parameters p = figure12();
    p.log_stripes = 2;
    const double two = parity_logging(p, true).log_read_ms;
    p.log_stripes = 6;
    const double six = parity_logging(p, true).log_read_ms;
    EXPECT_NEAR(six - two, 4 * (p.seek_ms + p.rotation_ms - p.track_seek_ms) / (12 * 14 * p.log_cylinders),
                1e-9);
}

TEST(ParityLoggingModel, FloatingTablesAreThePapersSize) {
    // Section 4: "1,343,784 bits (164 KB) per disk".
    EXPECT_DOUBLE_EQ(floating_table_bits_per_disk(figure12()), 1343784);
}

TEST(ParityLoggingModel, FromTheIbm0661SpecUsesItsSeekCurve) {
    const auto spec = raidtlm::disks::load_diskspec(std::string(RAIDTLM_SOURCE_DIR) +
                                                    "/scenarios/disks/ibm0661.diskspecs");
    const parameters p = from_disk(spec, 4, 22, 100, 1, 1);
    const parameters f = figure12();
    EXPECT_NEAR(p.rotation_ms, f.rotation_ms, 0.001);  // 4316 rpm
    EXPECT_DOUBLE_EQ(p.units_per_track, f.units_per_track);
    EXPECT_DOUBLE_EQ(p.tracks_per_cylinder, f.tracks_per_cylinder);
    EXPECT_NEAR(p.track_seek_ms, f.track_seek_ms, 1e-6);
    EXPECT_NEAR(p.head_switch_ms, f.head_switch_ms, 0.0025);  // 1.158: see the spec
    // The formula's mean over random cylinder pairs is 12.72 ms; Figure 12 rounds it to 12.5.
    EXPECT_NEAR(p.seek_ms, 12.72, 0.01);
    EXPECT_EQ(all_schemes(p).size(), 6u);
}
