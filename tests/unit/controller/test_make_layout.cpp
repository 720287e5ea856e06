#include <gtest/gtest.h>

#include "controller/layouts/make_layout.h"
#include "disk_fixtures.h"

using namespace raidtlm::controller;

namespace {
std::string error_of(const layout_config &cfg, const std::vector<int64_t> &disks, const raidtlm::disks::disk_spec *spec) {
    try {
        make_layout(cfg, disks, spec);
    } catch (const layout_error &e) {
        return e.what();
    }
    return "no error";
}
}  // namespace

TEST(make_layout, builds_every_kind) {
    const auto &spec = raidtlm::test::cheetah9lp();
    const std::vector<int64_t> six(6, spec.block_count);
    layout_config cfg;
    EXPECT_EQ(make_layout(cfg, six, nullptr)->describe(), "RAID 5 left-symmetric, 6 disks, 128-sector stripe unit");
    cfg.kind = "raid4";
    EXPECT_EQ(make_layout(cfg, six, nullptr)->describe(), "RAID 4, 6 disks, 128-sector stripe unit");
    cfg.kind = "raid10";
    EXPECT_EQ(make_layout(cfg, six, nullptr)->copies(), 2);
    cfg.kind = "raid1";
    EXPECT_EQ(make_layout(cfg, six, nullptr)->copies(), 6);
    cfg.kind = "raid0";
    EXPECT_EQ(make_layout(cfg, six, nullptr)->capacity_sectors(), 6 * (spec.block_count / 128) * 128);
    cfg.kind = "sr-mirror";
    cfg.sr = {2, 3, 1, 0, 0};
    cfg.unit_sectors = 64;
    const auto sr = make_layout(cfg, six, &spec);
    EXPECT_EQ(sr->copies(), 3);
    EXPECT_NE(sr->describe().find("SR-Mirror 2×3×1 (SR-Array), 6 disks, 64-sector stripe unit"), std::string::npos);
}

TEST(make_layout, errors_say_what_does_not_fit) {
    const auto &spec = raidtlm::test::cheetah9lp();
    layout_config cfg;
    cfg.kind = "raid7";
    EXPECT_EQ(error_of(cfg, {100, 100, 100}, nullptr),
              "unknown layout 'raid7'; expected one of raid0, raid1, raid10, raid4, raid5, raid6, sr-mirror");
    cfg.kind = "raid6";
    EXPECT_EQ(error_of(cfg, {100, 100, 100}, nullptr), "RAID 6 needs at least 4 disks; the array has 3");
    cfg.kind = "sr-mirror";
    EXPECT_EQ(error_of(cfg, {100}, nullptr), "sr-mirror places replicas by angle and needs the drives' geometry");
    cfg.sr = {4, 1, 2, 0, 0};
    EXPECT_EQ(error_of(cfg, std::vector<int64_t>(6, spec.block_count), &spec),
              "SR-Mirror 4×1×2 needs Ds×Dr×Dm = 8 disks; the array has 6");
    cfg.kind = "raid5";
    cfg.placement = parity_placement::dedicated;
    EXPECT_EQ(error_of(cfg, {100, 100, 100}, nullptr), "RAID 5 rotates its parity; 'dedicated' parity is RAID 4");
}
