#include <gtest/gtest.h>

#include <vector>

#include "rtl_models/xor/xor_logic.h"

using namespace raidtlm::rtl_models;

TEST(xor_logic, parity_of_tokens_rebuilds_any_lost_block) {
    const std::vector<uint64_t> a{0x1111, 0xdead0000beefull, 7}, b{0x2222, 0x0f0f, 0}, c{0x4444, 0xffff, 7};
    std::vector<uint64_t> parity(3);
    xor_tokens({a.data(), b.data(), c.data()}, 3, parity.data());
    EXPECT_EQ(parity, (std::vector<uint64_t>{0x7777, 0xdead0000beefull ^ 0x0f0f ^ 0xffff, 0}));
    // Lose b: the XOR of the survivors and the parity gives it back.
    std::vector<uint64_t> rebuilt(3);
    xor_tokens({a.data(), c.data(), parity.data()}, 3, rebuilt.data());
    EXPECT_EQ(rebuilt, b);
    // The result may overwrite an input (read-modify-write of parity).
    std::vector<uint64_t> p = parity;
    xor_tokens({p.data(), a.data()}, 3, p.data());
    std::vector<uint64_t> bc(3);
    xor_tokens({b.data(), c.data()}, 3, bc.data());
    EXPECT_EQ(p, bc);
}

TEST(xor_logic, time_is_setup_plus_block_over_bytes_per_cycle) {
    xor_config c;
    c.mhz = 200;
    c.bytes_per_cycle = 8;
    c.setup_cycles = 100;
    EXPECT_EQ(c.cycles(4096), 100u + 512u);
    EXPECT_EQ(c.cycles(4097), 100u + 513u);  // a partial last cycle counts
    EXPECT_DOUBLE_EQ(c.bytes_per_s(), 1.6e9);
}
