#include "testbench/bench/run_bench.h"

#include <fmt/format.h>

#include "controller/kit/host_pieces.h"
#include "testbench/bench/fault_injector.h"
#include "testbench/workloads/random.h"

namespace raidtlm::testbench {

run_bench::run_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
                     run_measurement &measurement, const bench_options &options)
    : run_bench(name, s, std::vector<disks::disk_spec>(size_t(s.disks.count), spec), measurement, options) {}

run_bench::run_bench(sc_core::sc_module_name name, const scenario &s, std::vector<disks::disk_spec> specs,
                     run_measurement &measurement, const bench_options &options)
    : sc_module(name), m_specs(std::move(specs)) {
    for (const disks::disk_spec &one : m_specs)
        if (one.block_count <= 0)
            throw s.error(s.disks.spec_paths.empty() ? "disks.spec" : "disks.specs",
                          fmt::format("disk '{}' has no blocks", one.name), "a disk spec with a positive block count");
    // Disk 0's drive sets what a host track spans.
    const disks::disk_spec &spec = m_specs.front();
    // Spindle phases: one seeded phase for all (synchronized spindles) or one per disk.
    random_source phase_rng(s.workload.seed ^ 0x5eedf00dULL);
    const double common_phase = phase_rng.uniform();
    std::vector<uint64_t> capacities;
    std::vector<controller::disk_info> infos;
    for (int i = 0; i < s.disks.count; ++i) {
        disks::drive_options opts;
        opts.spindle_phase = s.disks.spindle_sync ? common_phase : phase_rng.uniform();
        opts.scsi_id = i;
        m_disk_names.push_back(fmt::format("disk{}", i));
        m_phases.push_back(opts.spindle_phase);
        // Disks of one model share one spec object: the firmware tells models apart by it.
        size_t model = 0;
        while (m_specs[model].name != m_specs.at(size_t(i)).name) ++model;
        const disks::disk_spec &drive = m_specs[model];
        m_disks.push_back(std::make_unique<disks::disk_drive>(m_disk_names.back().c_str(), drive, opts));
        capacities.push_back(static_cast<uint64_t>(m_disks.back()->capacity_blocks()));
        infos.push_back({capacities.back(), drive.interface.max_queue_length, &drive});
    }
    uint64_t capacity;
    if (s.controller.enabled) {
        try {
            m_controller = std::make_unique<controller::controller_top>("controller", s.controller.config, infos);
        } catch (const controller::host_piece_error &e) {
            throw s.error(e.key(), e.what(), e.hint());  // the DRAM cannot move a host request at all
        }
        capacity = m_controller->capacity_sectors();
    } else {
        host_adapter_config hc;
        hc.layout = s.host.layout;
        hc.stripe_unit_sectors = s.host.stripe_unit_sectors;
        m_host = std::make_unique<host_adapter>("host", hc, capacities);
        capacity = m_host->capacity_sectors();
    }
    if (capacity == 0)
        throw s.error("host.stripe_unit_sectors",
                      fmt::format("{} is larger than a disk ({} blocks)", s.host.stripe_unit_sectors, capacities[0]),
                      "a stripe unit no larger than the disks");
    // What one track spans in the host space: a drive's mean track, times the drives a stripe
    // runs across.
    const double track_sectors = spec.cylinders > 0 && spec.surfaces > 0
                                     ? static_cast<double>(spec.block_count) / (double(spec.cylinders) * spec.surfaces)
                                     : 0.0;
    const double host_track = track_sectors * (s.host.layout == host_layout::stripe ? s.disks.count : 1);
    m_generator = std::make_unique<workload_generator>(s.workload, capacity, host_track);

    driver_options d;
    d.progress = options.progress;
    const workload_config &w = s.workload;
    if (w.arrival == arrival_process::closed &&
        (w.target_iops > 0 || (w.think_time_distribution != think_dist::constant && w.think_time_ms > 0))) {
        m_think = std::make_unique<think_time_source>(w, extra_stream_seed(w.seed, 2));
        d.think = m_think.get();
        measurement.on_warmup_end([this](double) { m_think->reset_counts(); });
    }
    if (w.arrival == arrival_process::trace) {
        m_trace = std::make_unique<trace_source>(s.trace, capacity);
        m_trace->limit_arrival_ms(sc_core::sc_max_time().to_seconds() * 1e3);
        d.trace = m_trace.get();
    }
    if (s.output.timeline) {
        std::vector<std::string> resources = m_disk_names;
        if (m_controller) {
            m_shared = std::make_unique<shared_resources>(*m_controller);
            resources.insert(resources.end(), m_shared->names().begin(), m_shared->names().end());
        }
        m_timeline = std::make_unique<timeline>(resources);
        d.samples = m_timeline.get();
        d.sample = [this](double now_ms) { sample(now_ms); };
        measurement.on_warmup_end([this](double t) { m_timeline->note_warmup_end(t); });
    }
    if (!options.requests_csv.empty()) {
        m_log = std::make_unique<request_log>(options.requests_csv);
        d.log = m_log.get();
    }
    m_workload = std::make_unique<workload_driver>("workload", s.workload, *m_generator, measurement, d);
    if (m_controller) {
        m_workload->socket.bind(m_controller->host);
        for (int i = 0; i < s.disks.count; ++i) {
            m_controller->disk[i].bind(m_disks[i]->target);
            m_disks[i]->bus.bind(m_controller->disk_bus[i]);
        }
    } else {
        // The drives' bus sockets stay unbound: each drive is on a zero-cost private link.
        m_workload->socket.bind(m_host->host);
        for (int i = 0; i < s.disks.count; ++i) m_host->disk[i].bind(m_disks[i]->target);
    }

    if (!s.faults.empty() && m_controller) {
        std::vector<disks::disk_drive *> drives;
        for (auto &d : m_disks) drives.push_back(d.get());
        m_faults = std::make_unique<fault_injector>(
            "faults", resolve_faults(s.faults, s.disks.count, int64_t(capacities.front()), s.workload.seed), *m_controller,
            drives, *m_workload);
    }

    m_snapshot.assign(m_disks.size(), disks::drive_statistics{});
    measurement.on_warmup_end([this](double now_ms) {
        for (size_t i = 0; i < m_disks.size(); ++i) {
            m_snapshot[i] = m_disks[i]->statistics();
            // Busy time up to now: statistics() already counts write-back media work planned past
            // now, which belongs to the window.
            m_snapshot[i].busy_ms = m_disks[i]->busy_ms_at(now_ms);
        }
        if (m_shared) m_shared->carry_over();
        if (m_controller) m_controller->reset_statistics();
    });
}

int run_bench::peak_outstanding() const {
    return m_controller ? m_controller->statistics().peak_outstanding : m_host->peak_outstanding();
}

uint64_t run_bench::disk_commands() const {
    return m_controller ? m_controller->statistics().physical_commands : m_host->disk_commands();
}

void run_bench::sample(double now_ms) {
    m_busy.clear();
    for (const auto &d : m_disks) m_busy.push_back(d->busy_ms_at(now_ms));
    if (m_shared) m_shared->append_busy_ms(m_busy);
    m_timeline->sample(now_ms, m_busy, m_workload->completed(), m_workload->response_sum_ms());
}

void run_bench::close_timeline(double now_ms) {
    if (m_timeline) sample(now_ms);
}

void run_bench::trace(sc_core::sc_trace_file *tf, const waveforms::wave_groups &groups) {
    for (size_t i = 0; i < m_disks.size() && groups.has("disks"); ++i) m_disks[i]->trace(tf, m_disk_names[i]);
    if (m_controller) m_controller->trace(tf, "controller", m_disk_names, groups);
    else if (groups.has("host")) m_host->trace(tf, "host");
    m_workload->trace(tf, "workload");
}

}  // namespace raidtlm::testbench
