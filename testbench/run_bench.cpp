#include "testbench/run_bench.h"

#include <fmt/format.h>

#include "testbench/random.h"

namespace raidtlm::testbench {

run_bench::run_bench(sc_core::sc_module_name name, const scenario &s, const disks::disk_spec &spec,
                     run_measurement &measurement, progress_meter *progress)
    : sc_module(name) {
    if (spec.block_count <= 0)
        throw s.error("disks.spec", fmt::format("disk '{}' has no blocks", spec.name),
                      "a disk spec with a positive block count");
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
        m_disks.push_back(std::make_unique<disks::disk_drive>(m_disk_names.back().c_str(), spec, opts));
        capacities.push_back(static_cast<uint64_t>(m_disks.back()->capacity_blocks()));
        infos.push_back({capacities.back(), spec.interface.max_queue_length});
    }
    uint64_t capacity;
    if (s.controller.enabled) {
        m_controller = std::make_unique<controller::controller_top>("controller", s.controller.config, infos);
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
    if (s.workload.request_sectors > capacity)
        throw s.error("workload.request_sectors",
                      fmt::format("{} is larger than the host capacity of {} sectors", s.workload.request_sectors,
                                  capacity),
                      fmt::format("at most {}", capacity));
    m_generator = std::make_unique<workload_generator>(s.workload, capacity);
    m_workload = std::make_unique<workload_driver>("workload", s.workload, *m_generator, measurement, progress);
    if (m_controller) {
        m_workload->socket.bind(m_controller->host);
        for (int i = 0; i < s.disks.count; ++i) m_controller->disk[i].bind(m_disks[i]->target);
    } else {
        m_workload->socket.bind(m_host->host);
        for (int i = 0; i < s.disks.count; ++i) m_host->disk[i].bind(m_disks[i]->target);
    }

    m_snapshot.assign(m_disks.size(), disks::drive_statistics{});
    measurement.on_warmup_end([this](double) {
        for (size_t i = 0; i < m_disks.size(); ++i) m_snapshot[i] = m_disks[i]->statistics();
        if (m_controller) m_controller->reset_statistics();
    });
}

int run_bench::peak_outstanding() const {
    return m_controller ? m_controller->statistics().peak_outstanding : m_host->peak_outstanding();
}

uint64_t run_bench::disk_commands() const {
    return m_controller ? m_controller->statistics().physical_commands : m_host->disk_commands();
}

void run_bench::trace(sc_core::sc_trace_file *tf) {
    for (size_t i = 0; i < m_disks.size(); ++i) m_disks[i]->trace(tf, m_disk_names[i]);
    if (m_controller) m_controller->trace(tf, "controller");
    else m_host->trace(tf, "host");
    m_workload->trace(tf, "workload");
}

}  // namespace raidtlm::testbench
