// bricks.*: storage bricks on a switched network (Lumb's D-SPTF thesis; bricks_bench.h).
#include <fmt/format.h>

#include "testbench/scenario/scenario_sections.h"

namespace raidtlm::testbench {

namespace {
using config::key_use;
using config::value_ref;

const config::names<brick_distribution> distribution_names = {{"dsptf", brick_distribution::dsptf},
                                                              {"hashing", brick_distribution::hashing},
                                                              {"weighted_hashing", brick_distribution::weighted_hashing},
                                                              {"lard", brick_distribution::lard},
                                                              {"central", brick_distribution::central},
                                                              {"array_controller", brick_distribution::array_controller}};
const config::names<controller::claim_protocol> protocol_names = {
    {"prescheduling", controller::claim_protocol::prescheduling},
    {"latency", controller::claim_protocol::latency},
    {"latency_random_backoff", controller::claim_protocol::latency_random_backoff},
    {"post_abort", controller::claim_protocol::post_abort}};
}  // namespace

const char *to_string(brick_distribution v) { return config::name_of(distribution_names, v); }

void declare_bricks_section(scenario_keys_t &root) {
    using b = bricks_config;
    config::declarations<b> k;
    k.integer("count", &b::count, "0", 0, 4096)
        .note("bricks of one disk each (disks.spec), a multiple of bricks.replicas; 0: no bricks topology");
    k.integer("replicas", &b::replicas, "2", 1, 64).note("bricks per replica group, each a full copy of its data");
    k.choice("distribution", &b::distribution, "dsptf", distribution_names)
        .note("dsptf: reads queued at every replica, CLAIM on selection; hashing: hash(block) mod replicas; "
              "weighted_hashing: in proportion to replica_weights; lard: the first brick routes reads by load and block "
              "(lard_low, lard_high); central: the ideal, a centralized D-SPTF (each "
              "group's bricks one controller: their claims and forwards take no network time); array_controller: "
              "one RAID 1 controller per group (controller.scheduler), writing through to the disks");
    k.integer("outstanding_per_group", &b::outstanding_per_group, "16", 1, 100000)
        .note("closed loop, per replica group (its client keeps this many requests in flight)");
    k.number("cache_mb", &b::cache_mb, "512").min(0).cap(1 << 20).unit("MB").note("each brick's non-volatile LRU cache");
    k.integer("cache_page_sectors", &b::cache_page_sectors, "8", 1, 1 << 16).note("the cache's unit and the hash's block");
    k.custom(
        "replica_weights", "[]", "a list of numbers > 0, one per replica (weighted_hashing)",
        [](b &x, const value_ref &v, const key_use &u) {
            x.replica_weights.clear();
            for (const auto &item : config::read_list(v, u))
                x.replica_weights.push_back(config::read_number(config::part_of(v, item), u, 0, true, 1e9, false));
        },
        [](const b &x) { return nlohmann::json(x.replica_weights); });
    k.number("one_way_latency_us", &b::one_way_latency_us, "50").min(0).cap(1e7).unit("us").note("the network's");
    k.number("port_mb_per_s", &b::port_mb_per_s, "125")
        .min(0)
        .cap(1e9)
        .unit("MB/s")
        .note("each network port, each way; 0 = unlimited");
    k.integer("control_message_bytes", &b::control_message_bytes, "50", 1, 1 << 20)
        .note("requests, CLAIMs and acknowledgements; data messages add the data");
    k.choice("claim_protocol", &b::claim_protocol, "prescheduling", protocol_names)
        .note("dsptf: prescheduling picks and CLAIMs two one-way latencies before the current command ends and "
              "issues two latencies after the pick (Lumb 4.1.3); latency waits the pick's rotational latency; "
              "latency_random_backoff adds a random pick after a duplicate; post_abort CLAIMs after the read (7.1, 7.3)");
    k.number("destage_above_cache_fraction", &b::destage_above_cache_fraction, "0")
        .min(0)
        .cap(1)
        .note("destages start once dirty data exceed this share of a brick's cache; 0: as soon as a write is "
              "stored (Lumb 4.1.2: a stored write is destaged by placing a write request in the disk queue)");
    k.integer("destage_requests_queued", &b::destage_requests_queued, "64", 1, 1 << 20)
        .note("destage writes in a brick's disk queue at once, where its scheduler serves them with the reads "
              "(Lumb 4.1.2); the rest wait in NVRAM, oldest first. Lumb queues every write; the bound keeps the "
              "scheduler's scan short (the whole 512 MB cache would be 131,072 entries): our choice, its "
              "effect in EXPERIMENTS.md");
    k.number("slow_replica_speed", &b::slow_replica_speed, "1")
        .above(0)
        .cap(1)
        .note("the last replica of each group has a disk this fast (mechanical times divided by it; Table 6.5: 2/3)");
    k.integer("lard_low", &b::lard_low, "25", 0, 1000000)
        .note("lard: a block moves off a replica with more than lard_high reads outstanding only to one with fewer than "
              "this (Pai et al. 1998: 25; small values: adaptive LARD)");
    k.integer("lard_high", &b::lard_high, "65", 0, 1000000).note("lard: see lard_low (Pai et al. 1998: 65)");
    k.check([](const b &x, const config::key_checks &c) {
        if (x.count > 0 && x.count % x.replicas != 0)
            c.fail("count", fmt::format("{} bricks do not make groups of {}", x.count, x.replicas),
                   fmt::format("a multiple of {}", c.key("replicas")));
        if (x.lard_high < x.lard_low)
            c.fail("lard_high", fmt::format("{} below lard_low {}", x.lard_high, x.lard_low),
                   fmt::format("at least {}", c.key("lard_low")));
        if (!x.replica_weights.empty() && int(x.replica_weights.size()) != x.replicas)
            c.fail("replica_weights", fmt::format("{} weights for {} replicas", x.replica_weights.size(), x.replicas),
                   fmt::format("one weight per replica ({})", c.key("replicas")));
    });
    root.mount("bricks", k, &scenario::bricks);
}

}  // namespace raidtlm::testbench
