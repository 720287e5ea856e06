#include "testbench/bricks/bricks_bench.h"

#include <fmt/format.h>

#include "controller/families/bricks/brick_firmware.h"
#include "testbench/workloads/distributions.h"
#include "testbench/commands/slowed_disk_spec.h"
#include "testbench/workloads/random.h"

namespace raidtlm::testbench {

namespace {

const char *brick_family(brick_distribution d) {
    switch (d) {
    case brick_distribution::dsptf: return "dsptf";
    case brick_distribution::hashing: return "brick_hashing";
    case brick_distribution::weighted_hashing: return "brick_weighted_hashing";
    case brick_distribution::lard: return "brick_lard";
    case brick_distribution::central: return "dsptf";
    case brick_distribution::array_controller: return "replicated";
    }
    return "?";
}

double now_ms() { return sc_core::sc_time_stamp().to_seconds() * 1e3; }

}  // namespace

bricks_bench::bricks_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
                           bricks_measurement &measurement)
    : sc_module(name), m_scenario(s), m_measurement(measurement) {
    const bricks_config &b = s.bricks;
    const int groups = b.count / b.replicas;
    // array_controller: one RAID 1 controller per group reached through its host socket; central:
    // bricks running D-SPTF whose group is one controller (no network time between them).
    const bool array = b.distribution == brick_distribution::array_controller;
    const bool ideal = b.distribution == brick_distribution::central;
    // A brick stores a write in its cache before destaging it: a write spanning more pages than
    // the cache holds would wait for room for ever. Refused before the run.
    if (!array && s.workload.read_fraction < 1 && s.workload.arrival != arrival_process::trace) {
        const uint64_t page = b.cache_page_sectors;
        const uint64_t pages = uint64_t(b.cache_mb * 1024 * 1024) / (page * 512);
        const uint64_t largest = size_sampler(s.workload).max_sectors();
        const uint64_t spanned = (largest + page - 1 + page - 1) / page;  // starting at a page's last sector
        if (spanned > pages)
            throw s.error("bricks.cache_mb",
                          fmt::format("{} MB hold {} cache pages of {} sectors; a write of {} sectors spans up to {}",
                                      b.cache_mb, pages, page, largest, spanned),
                          fmt::format("at least {} MB, or smaller writes", (spanned * page * 512 + (1 << 20) - 1) >> 20));
    }
    random_source phase_rng(s.workload.seed ^ 0x5eedf00dULL);
    rtl_models::network_config net;
    net.one_way_latency_us = b.one_way_latency_us;
    net.port_mb_per_s = b.port_mb_per_s;
    net.control_message_bytes = b.control_message_bytes;
    if (ideal) {
        net.controller_of_port.assign(size_t(b.count + groups), -1);
        for (int i = 0; i < b.count; ++i) net.controller_of_port[size_t(i)] = i / b.replicas;
    }
    if (!array)
        m_network = std::make_unique<rtl_models::network_switch>("network", net, b.count + groups);

    // Table 6.5: the last replica of each group may have a slower disk.
    if (b.slow_replica_speed < 1)
        m_slow_spec = std::make_unique<disks::disk_spec>(slowed_disk_spec(spec, b.slow_replica_speed));
    auto spec_of = [&](int brick) -> const disks::disk_spec & {
        return m_slow_spec && brick % b.replicas == b.replicas - 1 ? *m_slow_spec : spec;
    };
    for (int i = 0; i < b.count; ++i) {
        disks::drive_options opts;
        opts.spindle_phase = phase_rng.uniform();
        opts.scsi_id = 0;
        m_disks.push_back(std::make_unique<disks::disk_drive>(fmt::format("disk{}", i).c_str(), spec_of(i), opts));
    }
    const controller::disk_info info{uint64_t(m_disks.front()->capacity_blocks()), spec.interface.max_queue_length,
                                     &spec};
    auto info_of = [&](int brick) {
        controller::disk_info d = info;
        d.geometry = &spec_of(brick);
        return d;
    };
    controller::controller_config base = s.controller.config;
    base.firmware.firmware = brick_family(b.distribution);
    try {
        if (array) {
            base.firmware.array = controller::array_kind::raid1;
            base.firmware.array_layout = "raid1";
            for (int g = 0; g < groups; ++g) {
                std::vector<controller::disk_info> infos;
                for (int r = 0; r < b.replicas; ++r) infos.push_back(info_of(g * b.replicas + r));
                m_controllers.push_back(
                    std::make_unique<controller::controller_top>(fmt::format("group{}", g).c_str(), base, infos));
                for (int r = 0; r < b.replicas; ++r) {
                    auto &d = *m_disks[size_t(g * b.replicas + r)];
                    m_controllers.back()->disk[r].bind(d.target);
                    d.bus.bind(m_controllers.back()->disk_bus[r]);
                }
            }
        } else {
            base.firmware.array = controller::array_kind::raid0;
            base.firmware.array_layout = "raid0";
            for (int i = 0; i < b.count; ++i) {
                const int g = i / b.replicas;
                controller::controller_config c = base;
                for (int r = 0; r < b.replicas; ++r) c.brick.group_ports.push_back(g * b.replicas + r);
                c.brick.replica_index = i % b.replicas;
                // The ideal's bricks are one controller: nothing to wait for between them.
                c.brick.one_way_latency_ms = ideal ? 0.0 : b.one_way_latency_us * 1e-3;
                c.brick.control_message_bytes = b.control_message_bytes;
                c.brick.cache_bytes = uint64_t(b.cache_mb * 1024 * 1024);
                c.brick.cache_page_sectors = b.cache_page_sectors;
                c.brick.replica_weights = b.replica_weights;
                c.brick.protocol = b.claim_protocol;
                c.brick.destage_above_cache_fraction = b.destage_above_cache_fraction;
                c.brick.destage_requests_queued = b.destage_requests_queued;
                c.brick.lard_low = b.lard_low;
                c.brick.lard_high = b.lard_high;
                const std::string brick = fmt::format("brick{}", i);
                m_controllers.push_back(std::make_unique<controller::controller_top>(
                    brick.c_str(), c, std::vector<controller::disk_info>{info_of(i)}));
                auto &d = *m_disks[size_t(i)];
                m_controllers.back()->disk[0].bind(d.target);
                d.bus.bind(m_controllers.back()->disk_bus[0]);
                m_nics.push_back(std::make_unique<rtl_models::network_interface>((brick + "_nic").c_str(), i));
                m_controllers.back()->attach_network(m_nics.back().get());
            }
        }
    } catch (const std::invalid_argument &e) {
        throw s.error("bricks.distribution", e.what(), "a firmware and layout the bricks can run");
    }

    for (int g = 0; g < groups; ++g) {
        workload_config w = s.workload;
        w.seed = s.workload.seed + uint64_t(g) * 1000003;
        m_generators.push_back(std::make_unique<workload_generator>(w, info.capacity_blocks));
        brick_client_config cc;
        cc.outstanding = b.outstanding_per_group;
        cc.one_entry_brick = b.distribution == brick_distribution::lard;
        for (int r = 0; r < b.replicas; ++r) cc.group_ports.push_back(g * b.replicas + r);
        cc.control_message_bytes = b.control_message_bytes;
        cc.one_way_latency_ms = b.one_way_latency_us * 1e-3;
        cc.port_mb_per_s = b.port_mb_per_s;
        cc.seed = w.seed + 1;
        rtl_models::network_interface *nic = nullptr;
        if (!array) {
            m_nics.push_back(
                std::make_unique<rtl_models::network_interface>(fmt::format("client{}_nic", g).c_str(), b.count + g));
            nic = m_nics.back().get();
        }
        m_clients.push_back(std::make_unique<brick_client>(fmt::format("client{}", g).c_str(), cc,
                                                           *m_generators.back(), measurement, nic));
        if (array)
            m_clients.back()->central->bind(m_controllers[size_t(g)]->host);
    }
    if (m_network) {
        for (auto &nic : m_nics) {
            nic->to_switch.bind(m_network->from_port[size_t(nic->address())]);
            m_network->to_port[size_t(nic->address())].bind(nic->from_switch);
        }
    }
    // The bricks serve the network: their host sockets take nothing.
    if (!array)
        for (auto &c : m_controllers) {
            auto idle = std::make_unique<tlm_utils::simple_initiator_socket<bricks_bench>>(
                sc_core::sc_gen_unique_name("no_host"));
            idle->bind(c->host);
            m_idle_hosts.push_back(std::move(idle));
        }

    m_disk_busy_at_warmup_ms.assign(m_disks.size(), 0.0);
    m_disk_reads_at_warmup.assign(m_disks.size(), 0);
    measurement.on_warmup_end = [this] {
        const double t = now_ms();
        for (size_t i = 0; i < m_disks.size(); ++i) {
            m_disk_busy_at_warmup_ms[i] = m_disks[i]->busy_ms_at(t);
            m_disk_reads_at_warmup[i] = m_disks[i]->statistics().reads;
        }
        m_measurement.duplicates_squashed = 0;
        for (auto &c : m_controllers) c->reset_statistics();
        if (m_network) m_network->reset_statistics();
    };
}

bricks_bench::~bricks_bench() = default;

nlohmann::json bricks_bench::report() const {
    const bricks_config &b = m_scenario.bricks;
    const bricks_measurement &m = m_measurement;
    const double seconds = m.end_s - m.start_s;
    const double iops = seconds > 0 ? double(m.measured) / seconds : 0.0;
    const double mean_ms = m.measured ? m.response_sum_ms / double(m.measured) : 0.0;
    const int in_system = b.outstanding_per_group * groups();
    nlohmann::json out;
    out["distribution"] = to_string(b.distribution);
    out["bricks"] = b.count;
    out["replicas"] = b.replicas;
    out["groups"] = groups();
    out["measured_requests"] = m.measured;
    out["measured_reads"] = m.measured_reads;
    out["measured_s"] = seconds;
    out["throughput_iops"] = iops;
    out["throughput_per_replica_iops"] = iops / b.count;
    out["throughput_per_group_iops"] = iops / groups();
    out["mean_response_ms"] = mean_ms;
    // Little's law for the closed system: N = X * E[T].
    out["littles_law_response_ms"] = iops > 0 ? in_system / iops * 1e3 : 0.0;
    out["duplicate_completions_squashed"] = m.duplicates_squashed;
    double idle_sum = 0;
    nlohmann::json disks = nlohmann::json::array();
    for (size_t i = 0; i < m_disks.size(); ++i) {
        const double busy = m_disks[i]->busy_ms_at(m.end_s * 1e3) - m_disk_busy_at_warmup_ms[i];
        const double idle = seconds > 0 ? 1.0 - busy / (seconds * 1e3) : 0.0;
        idle_sum += idle;
        // The reads this disk served per second (the replica's share of the group's reads; its
        // writes are every replica's); Table 6.5 compares them.
        const double reads_per_s =
            seconds > 0 ? double(m_disks[i]->statistics().reads - m_disk_reads_at_warmup[i]) / seconds : 0.0;
        disks.push_back({{"name", fmt::format("disk{}", i)}, {"idle_fraction", idle}, {"reads_per_s", reads_per_s}});
    }
    out["disk_idle_fraction_mean"] = m_disks.empty() ? 0.0 : idle_sum / double(m_disks.size());
    out["disks"] = disks;
    if (m_network) {
        const rtl_models::network_statistics &n = m_network->statistics();
        nlohmann::json kinds;
        for (int k = 0; k < protocol::message_kinds; ++k)
            kinds[protocol::to_string(protocol::message_kind(k))] = n.messages[size_t(k)];
        out["network"] = {{"messages", n.total_messages()},
                          {"messages_per_request", m.measured ? double(n.total_messages()) / double(m.measured) : 0.0},
                          {"by_kind", kinds}};
        uint64_t conflicts = 0, duplicates = 0, lost = 0, hits = 0, from_disk = 0, ahead = 0, backoffs = 0;
        uint64_t stored = 0, destages = 0, waiting = 0;
        double busy_s = 0, destage_busy_s = 0, dirty_mean = 0, dirty_peak = 0;
        nlohmann::json bricks = nlohmann::json::array();
        for (const auto &c : m_controllers) {
            const auto *fw = c->firmware_as<controller::brick_firmware>();
            if (!fw) continue;
            conflicts += fw->claims().stats().conflicts_won;
            duplicates += fw->claims().stats().duplicates;
            lost += fw->statistics().lost_claims;
            ahead += fw->statistics().picks_ahead;
            backoffs += fw->statistics().random_backoffs;
            hits += fw->statistics().read_cache_hits;
            from_disk += fw->statistics().reads_from_disk;
            stored += fw->statistics().writes_stored;
            destages += fw->statistics().destages;
            busy_s += fw->statistics().disk_busy_s;
            destage_busy_s += fw->statistics().destage_busy_s;
            nlohmann::json f;
            c->report_firmware(f);
            waiting += f["brick"]["destages_waiting_at_end"].get<uint64_t>();
            dirty_mean += f["brick"]["dirty_pages_mean"].get<double>() / double(m_controllers.size());
            dirty_peak = std::max(dirty_peak, f["brick"]["dirty_pages_peak"].get<double>());
            f["name"] = c->name();
            bricks.push_back(f);
        }
        out["conflicts"] = conflicts;
        out["conflicts_per_request"] = m.measured ? double(conflicts) / double(m.measured) : 0.0;
        // Claims that reached a brick after it had issued the read (each brick counts its own; the
        // other brick may still have dropped it): duplicate_completions_squashed counts the reads
        // actually served twice.
        out["late_claims"] = duplicates;
        out["lost_claims"] = lost;
        out["picks_ahead"] = ahead;
        out["random_backoffs"] = backoffs;
        out["read_cache_hits"] = hits;
        out["reads_from_disk"] = from_disk;
        // Every replica destages every write (Lumb 4.1.2): stored counts each replica's copy.
        out["destages"] = {{"writes_stored", stored},
                           {"destaged", destages},
                           {"waiting_at_end", waiting},
                           {"disk_time_fraction", busy_s > 0 ? destage_busy_s / busy_s : 0.0},
                           {"dirty_pages_mean", dirty_mean},
                           {"dirty_pages_peak", dirty_peak}};
        out["per_brick"] = bricks;
    }
    return out;
}

void bricks_bench::trace(sc_core::sc_trace_file *tf) {
    for (size_t i = 0; i < m_disks.size(); ++i) m_disks[i]->trace(tf, fmt::format("disk{}", i));
    for (auto &c : m_controllers) c->trace(tf, c->basename());
    for (auto &n : m_nics) n->trace(tf, n->basename());
    if (m_network) m_network->trace(tf, "network");
    for (auto &c : m_clients) c->trace(tf, c->basename());
}

}  // namespace raidtlm::testbench
