#include <gtest/gtest.h>

#include "rtl_models/cpu/cpu_cost.h"

using namespace raidtlm::rtl_models;

TEST(cpu_cost, scheduling_decision_costs_a_plus_b_n) {
    cpu_cost_table c;
    c.schedule_base_cycles = 120;
    c.schedule_per_entry_cycles = 35;
    EXPECT_EQ(c.schedule_cycles(0), 120u);
    EXPECT_EQ(c.schedule_cycles(1), 155u);
    EXPECT_EQ(c.schedule_cycles(10), 470u);
    EXPECT_EQ(c.cycles(cpu_task::host_command), c.host_command_cycles);
    EXPECT_EQ(c.cycles(cpu_task::completion_interrupt), c.completion_interrupt_cycles);
    EXPECT_EQ(c.cycles(cpu_task::idle), 0u);
    EXPECT_FALSE(c.all_zero());
    cpu_config cfg;
    cfg.mhz = 250;
    EXPECT_DOUBLE_EQ(cfg.cycle_s(), 4e-9);
}

TEST(core_dispatcher, one_core_runs_tasks_back_to_back_in_arrival_order) {
    core_dispatcher d(1, cpu_scheduling::shared);
    auto a = d.dispatch(0.0, 2.0, 0);
    auto b = d.dispatch(0.5, 1.0, 0);  // arrives while a runs
    auto c = d.dispatch(5.0, 1.0, 0);  // arrives when the core is idle
    EXPECT_DOUBLE_EQ(a.start_s, 0.0);
    EXPECT_DOUBLE_EQ(a.end_s, 2.0);
    EXPECT_DOUBLE_EQ(b.start_s, 2.0);
    EXPECT_DOUBLE_EQ(b.end_s, 3.0);
    EXPECT_DOUBLE_EQ(c.start_s, 5.0);
}

TEST(core_dispatcher, shared_queue_takes_the_core_that_frees_first) {
    core_dispatcher d(2, cpu_scheduling::shared);
    auto a = d.dispatch(0.0, 4.0, 0);
    auto b = d.dispatch(0.0, 1.0, 0);
    auto c = d.dispatch(0.0, 1.0, 0);  // both busy: core 1 frees at 1
    EXPECT_EQ(a.core, 0);
    EXPECT_EQ(b.core, 1);
    EXPECT_EQ(c.core, 1);
    EXPECT_DOUBLE_EQ(c.start_s, 1.0);
}

TEST(core_dispatcher, per_core_queues_follow_the_affinity) {
    core_dispatcher d(2, cpu_scheduling::per_core);
    auto a = d.dispatch(0.0, 4.0, 2);  // core 0
    auto b = d.dispatch(0.0, 1.0, 0);  // core 0 as well: waits although core 1 is idle
    auto c = d.dispatch(0.0, 1.0, 3);  // core 1
    EXPECT_EQ(a.core, 0);
    EXPECT_EQ(b.core, 0);
    EXPECT_DOUBLE_EQ(b.start_s, 4.0);
    EXPECT_EQ(c.core, 1);
    EXPECT_DOUBLE_EQ(c.start_s, 0.0);
}
