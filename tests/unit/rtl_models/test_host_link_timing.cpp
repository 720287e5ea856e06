#include <gtest/gtest.h>

#include "rtl_models/buses/host_link_timing.h"
#include "rtl_models/memory/nvram.h"

using namespace raidtlm::rtl_models;

TEST(host_link_timing, pcix_and_pcie_rates) {
    host_link_config c;
    c.kind = host_link_kind::pcix;
    EXPECT_DOUBLE_EQ(c.mb_per_s(), 1064);
    EXPECT_FALSE(c.full_duplex());
    c.kind = host_link_kind::pcie;
    c.lanes = 8;
    c.generation = 1;
    EXPECT_DOUBLE_EQ(c.mb_per_s(), 2000);  // 8 x 250 MB/s
    EXPECT_TRUE(c.full_duplex());
    c.lanes = 4;
    c.generation = 2;
    EXPECT_DOUBLE_EQ(c.mb_per_s(), 2000);  // 4 x 500 MB/s
    c.generation = 3;
    EXPECT_NEAR(c.mb_per_s(), 4 * 984.615, 0.01);  // 8 GT/s, 128b/130b
    c.kind = host_link_kind::unlimited;
    EXPECT_DOUBLE_EQ(c.mb_per_s(), 0);
}

TEST(nvram_timing, access_is_latency_plus_bytes_over_bandwidth) {
    nvram_config c;
    c.latency_ns = 200;
    c.mb_per_s = 50;
    EXPECT_DOUBLE_EQ(c.access_s(0), 200e-9);
    EXPECT_DOUBLE_EQ(c.access_s(1000), 200e-9 + 20e-6);
}
