#include <gtest/gtest.h>

#include "rtl_models/network/network_timing.h"

using namespace raidtlm::rtl_models;

TEST(network_timing, an_idle_network_delivers_after_latency_plus_wire_time) {
    network_config c;  // 50 us, 125 MB/s
    network_timing n(c, 4);
    const message_timing t = n.send(0, 1, 50, 1.0);
    EXPECT_NEAR(t.sent_s - 1.0, 50 / 125e6, 1e-12);
    EXPECT_NEAR(t.delivered_s - 1.0, 50e-6 + 50 / 125e6, 1e-12);
    // A 4 KB data message: its wire time counts once (cut-through), after the latency.
    const message_timing d = n.send(2, 3, 4096 + 50, 2.0);
    EXPECT_NEAR(d.delivered_s - 2.0, 50e-6 + 4146 / 125e6, 1e-12);
}

TEST(network_timing, messages_contend_on_the_receivers_link_and_the_senders) {
    network_config c;
    c.one_way_latency_us = 10;
    c.port_mb_per_s = 100;  // 10 us per 1000 bytes
    network_timing n(c, 3);
    // Two senders to one receiver at once: the second waits for the first on the receiver's link.
    const message_timing a = n.send(0, 2, 1000, 0.0);
    const message_timing b = n.send(1, 2, 1000, 0.0);
    EXPECT_NEAR(a.delivered_s, 20e-6, 1e-12);
    EXPECT_NEAR(b.delivered_s, 30e-6, 1e-12);
    // One sender, two messages: the second leaves after the first.
    const message_timing c1 = n.send(0, 1, 1000, 1.0);
    const message_timing c2 = n.send(0, 1, 1000, 1.0);
    EXPECT_NEAR(c1.sent_s - 1.0, 10e-6, 1e-12);
    EXPECT_NEAR(c2.sent_s - 1.0, 20e-6, 1e-12);
    EXPECT_NEAR(c2.delivered_s - 1.0, 30e-6, 1e-12);
    EXPECT_EQ(n.from_switch(2).messages, 2u);
    EXPECT_NEAR(n.to_switch(0).busy_s, 30e-6, 1e-12);
    // Unlimited bandwidth: latency only.
    network_config free = c;
    free.port_mb_per_s = 0;
    network_timing f(free, 2);
    EXPECT_NEAR(f.send(0, 1, 1 << 20, 0.0).delivered_s, 10e-6, 1e-12);
    EXPECT_THROW(f.send(0, 5, 1, 0.0), std::out_of_range);
}

TEST(network_timing, ports_of_one_controller_exchange_messages_at_once) {
    network_config c;
    c.controller_of_port = {0, 0, 1, -1};  // ports 0 and 1 one controller; 2 alone; 3 a client
    network_timing t(c, 4);
    const message_timing inside = t.send(0, 1, 5000, 1.0);
    EXPECT_DOUBLE_EQ(inside.sent_s, 1.0);
    EXPECT_DOUBLE_EQ(inside.delivered_s, 1.0);
    EXPECT_DOUBLE_EQ(t.to_switch_free_s(0), 0.0);  // no link was used
    const message_timing across = t.send(1, 2, 50, 1.0);
    EXPECT_NEAR(across.delivered_s - 1.0, 50e-6 + 50 / 125e6, 1e-12);
    const message_timing client = t.send(3, 0, 50, 2.0);
    EXPECT_GT(client.delivered_s, 2.0 + 49e-6);
}
