// The drive's interface time for a run: auto follows the bus behind a controller and the spec
// without one; a figure slower than the modelled bus is kept, with a warning naming both.
#include <gtest/gtest.h>

#include "testbench/commands/drive_interface_time.h"

using namespace raidtlm::testbench;

namespace {
constexpr double spec_ms = 0.105;  // the Cheetah 9LP validation spec's figure (its test host)

scenario with_controller(double mtransfers_per_s) {
    scenario s;
    s.controller.enabled = true;
    s.controller.config.bus.width_bits = 16;
    s.controller.config.bus.mtransfers_per_s = mtransfers_per_s;
    return s;
}
}  // namespace

TEST(drive_interface_time, auto_is_the_bus_behind_a_controller_and_the_spec_without) {
    scenario alone;
    EXPECT_DOUBLE_EQ(choose_drive_interface_time(alone, spec_ms).bulk_sector_transfer_ms, spec_ms);
    const drive_interface_time t = choose_drive_interface_time(with_controller(80), spec_ms);
    EXPECT_DOUBLE_EQ(t.bulk_sector_transfer_ms, 0.0);
    EXPECT_TRUE(t.warning.empty());
}

TEST(drive_interface_time, a_figure_slower_than_the_bus_is_kept_with_a_warning_naming_both) {
    scenario s = with_controller(80);  // Ultra160: 160 MB/s, 0.0032 ms per sector
    s.disks.bulk_sector_transfer_ms = disks_config::interface_spec;
    const drive_interface_time t = choose_drive_interface_time(s, spec_ms);
    EXPECT_DOUBLE_EQ(t.bulk_sector_transfer_ms, spec_ms);
    EXPECT_NE(t.warning.find("spec = 0.105 ms per sector (4.9 MB/s)"), std::string::npos) << t.warning;
    EXPECT_NE(t.warning.find("controller.bus: 160.0 MB/s, 0.00320 ms per sector"), std::string::npos) << t.warning;
}

TEST(drive_interface_time, no_warning_at_or_faster_than_the_bus_nor_on_an_unlimited_bus) {
    scenario s = with_controller(80);
    s.disks.bulk_sector_transfer_ms = 0.0032;
    EXPECT_TRUE(choose_drive_interface_time(s, spec_ms).warning.empty());
    s.disks.bulk_sector_transfer_ms = 0;
    EXPECT_TRUE(choose_drive_interface_time(s, spec_ms).warning.empty());
    scenario free_bus = with_controller(0);
    free_bus.disks.bulk_sector_transfer_ms = disks_config::interface_spec;
    const drive_interface_time t = choose_drive_interface_time(free_bus, spec_ms);
    EXPECT_DOUBLE_EQ(t.bulk_sector_transfer_ms, spec_ms);
    EXPECT_TRUE(t.warning.empty());
}
