#include "testbench/commands.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>
#include <systemc>

#include "disks/disk_drive.h"
#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "controller/host_address_map.h"
#include "testbench/progress_meter.h"
#include "testbench/run_bench.h"
#include "testbench/run_measurement.h"
#include "testbench/scenario.h"
#include "testbench/stats_report.h"
#include "testbench/trace_replayer.h"
#include "testbench/host_rate_estimate.h"
#include "testbench/validate_trace.h"
#include "testbench/validation_report.h"
#include "waveforms/gtkw_writer.h"
#include "waveforms/vcd_tracer.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

disks::disk_spec load_spec(const std::string &path, const std::string &name, disks::drive_use use) {
    disks::disk_spec spec = disks::load_diskspec(path, name);
    disks::check_supported(spec, use);  // refuse what the drive does not model before elaborating
    return spec;
}

// Checks, before elaboration, that the workload fits on the disks, so the error names the key.
void check_fits(const scenario &s, const disks::disk_spec &spec) {
    if (spec.block_count <= 0)
        throw s.error("disks.spec", fmt::format("disk '{}' has no blocks", spec.name),
                      "a disk spec with a positive block count");
    const uint64_t blocks = static_cast<uint64_t>(spec.block_count);
    if (s.host.layout == host_layout::stripe && s.host.stripe_unit_sectors > blocks)
        throw s.error("host.stripe_unit_sectors",
                      fmt::format("{} is larger than a disk ({} blocks)", s.host.stripe_unit_sectors, blocks),
                      fmt::format("at most {}", blocks));
    const controller::host_address_map map(s.host.layout, s.host.stripe_unit_sectors,
                               std::vector<uint64_t>(static_cast<size_t>(s.disks.count), blocks));
    if (s.workload.request_sectors > map.capacity_sectors())
        throw s.error("workload.request_sectors",
                      fmt::format("{} is larger than the host capacity of {} sectors", s.workload.request_sectors,
                                  map.capacity_sectors()),
                      fmt::format("at most {}", map.capacity_sectors()));
}

void prepare_out_dir(const fs::path &dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw output_error(fmt::format("{}: cannot create the output directory ({}); expected a writable directory",
                                       dir.string(), ec ? ec.message() : "not a directory"));
    const fs::path probe = dir / ".raidtlm_write_test";
    std::ofstream p(probe);
    if (!p) throw output_error(fmt::format("{}: cannot write there; expected a writable directory", dir.string()));
    p.close();
    fs::remove(probe, ec);
}

void write_text(const fs::path &path, const std::string &text) {
    std::ofstream out(path);
    out << text;
    out.close();
    if (!out) throw output_error(fmt::format("{}: cannot write; expected a writable output directory", path.string()));
}

// The drive signals of disk_drive::trace, with their value names.
struct drive_signal {
    const char *name;
    std::map<int, std::string> values;
};
const std::vector<drive_signal> &drive_signals() {
    static const std::vector<drive_signal> s = {
        {"mech_state", {{0, "idle"}, {1, "seek"}, {2, "rotate"}, {3, "transfer"}}},
        {"cmd_state", {{0, "idle"}, {1, "overhead"}, {2, "media"}, {3, "bus"}}},
        {"cylinder", {}},
        {"head", {}},
        {"queue_depth", {}},
    };
    return s;
}

void write_wave_layout(const fs::path &out_dir, const run_bench &bench, double end_ms) {
    using namespace waveforms;
    gtkw_layout layout;
    layout.dump_file = "waves.vcd";
    // Open on the first 200 ms (about a hundred requests on the default scenario): zoom out for more.
    layout.view_time = static_cast<uint64_t>(std::min(end_ms, 200.0) * 1e6);  // ns
    std::map<std::string, std::string> filters;
    for (const auto &sig : drive_signals()) {
        if (sig.values.empty()) continue;
        const fs::path f = out_dir / fmt::format("waves_{}.txt", sig.name);
        write_translate_filter(f.string(), sig.values);
        // Absolute, so the save file works from any working directory.
        filters[sig.name] = fs::absolute(f).lexically_normal().string();
    }
    for (int i = 0; i < bench.disk_count(); ++i) {
        gtkw_group g;
        g.name = bench.disk_name(i);
        for (const auto &sig : drive_signals()) {
            gtkw_signal s;
            s.name = vcd_tracer::gtkwave_name(bench.disk_name(i) + "." + sig.name);
            if (!sig.values.empty()) s.translate_file = filters[sig.name];
            g.signals.push_back(s);
        }
        layout.groups.push_back(g);
    }
    const controller::controller_top *ctl = bench.controller();
    if (!ctl) {
        gtkw_group host;
        host.name = "host";
        host.signals.push_back({vcd_tracer::gtkwave_name("host.outstanding"), gtkw_format::decimal, ""});
        host.signals.push_back({vcd_tracer::gtkwave_name("workload.in_flight"), gtkw_format::decimal, ""});
        layout.groups.push_back(host);
    } else {
        // The controller's blocks, one group each, then one group per SCSI channel with the command
        // state of the drives on it; the per-disk groups above start collapsed.
        for (auto &g : layout.groups) g.closed = true;
        auto named = [&](const std::string &sig, const std::map<int, std::string> &values) {
            const fs::path f = out_dir / fmt::format("waves_{}.txt", sig);
            write_translate_filter(f.string(), values);
            return fs::absolute(f).lexically_normal().string();
        };
        std::map<int, std::string> tasks;
        for (int k = 0; k < rtl_models::cpu_task_kinds; ++k) tasks[k] = rtl_models::to_string(rtl_models::cpu_task(k));
        std::map<int, std::string> phases;
        for (int k = 0; k <= int(rtl_models::scsi_phase::closing); ++k)
            phases[k] = rtl_models::to_string(rtl_models::scsi_phase(k));
        std::map<int, std::string> owners{{rtl_models::scsi_bus::no_owner, "free"}};
        for (int id = 0; id < 16; ++id) owners[id] = fmt::format("ID {}", id);
        const std::string task_filter = named("cpu_task", tasks), phase_filter = named("bus_phase", phases),
                          owner_filter = named("bus_owner", owners);
        auto sig = [](const std::string &n, const std::string &filter = "") {
            return gtkw_signal{vcd_tracer::gtkwave_name("controller." + n), gtkw_format::decimal, filter};
        };
        gtkw_group top{"controller", {sig("outstanding"), {vcd_tracer::gtkwave_name("workload.in_flight"),
                                                            gtkw_format::decimal, ""}}};
        gtkw_group cpu{"cpu", {}};
        for (int c = 0; c < ctl->cpu().config().cores; ++c) {
            cpu.signals.push_back(sig(fmt::format("cpu.core{}_busy", c)));
            cpu.signals.push_back(sig(fmt::format("cpu.core{}_task", c), task_filter));
        }
        cpu.signals.push_back(sig("cpu.run_queue"));
        gtkw_group dram{"dram", {sig("dram.occupancy_kib"), sig("dram.alloc_waiting")}};
        for (int p = 0; p < ctl->dram().port_count(); ++p)
            dram.signals.push_back(sig(fmt::format("dram.grant_{}", ctl->dram().port_info(p).name)));
        gtkw_group link{"host_link", {sig("host_link.to_controller"), sig("host_link.to_host"), sig("host_link.waiting")}};
        gtkw_group xr{"xor", {sig("xor.busy"), sig("xor.queue_depth")}};
        gtkw_group nv{"nvram", {sig("nvram.occupancy_bytes"), sig("nvram.busy")}};
        layout.groups.insert(layout.groups.begin(), {top, cpu, dram, link, xr, nv});
        for (int ch = 0; ch < ctl->channels(); ++ch) {
            gtkw_group g{fmt::format("ch{}", ch),
                         {sig(fmt::format("ch{}.owner", ch), owner_filter), sig(fmt::format("ch{}.phase", ch), phase_filter),
                          sig(fmt::format("ch{}.waiting", ch))}};
            for (int i = 0; i < bench.disk_count(); ++i)
                if (ctl->channel_of(i) == ch)
                    g.signals.push_back({vcd_tracer::gtkwave_name(bench.disk_name(i) + ".cmd_state"),
                                         gtkw_format::decimal, filters["cmd_state"]});
            layout.groups.insert(layout.groups.begin() + 6 + ch, g);
        }
    }
    try {
        write_gtkw((out_dir / "waves.gtkw").string(), layout);
    } catch (const std::runtime_error &e) {
        throw output_error(std::string(e.what()) + "; expected a writable output directory");
    }
}

}  // namespace

int run_scenario(const run_options &o) {
    const auto wall_start = clock_type::now();
    std::vector<scenario_override> overrides;
    for (const auto &text : o.overrides) overrides.push_back(parse_override(text));
    const scenario s = load_scenario(o.scenario_file, overrides, o.repo_root);
    disks::disk_spec spec = load_spec(s.disks.spec_path, s.disks.spec_name, disks::drive_use::queued_commands);
    if (s.disks.bulk_sector_transfer_ms >= 0) spec.interface.bulk_sector_transfer_ms = s.disks.bulk_sector_transfer_ms;
    check_fits(s, spec);

    const fs::path out_dir =
        o.out_dir.empty() ? fs::path("out") / fs::path(o.scenario_file).stem() : fs::path(o.out_dir);
    prepare_out_dir(out_dir);

    run_measurement measurement(s.workload.warmup_requests, s.workload.requests, s.output.histogram_bucket_ms,
                                s.output.histogram_max_ms);
    const bool show_progress = !o.quiet && isatty(fileno(stderr));
    progress_meter progress(show_progress, s.workload.warmup_requests + s.workload.requests);
    run_bench bench("bench", s, spec, measurement, &progress);
    std::unique_ptr<waveforms::vcd_tracer> vcd;
    if (s.output.waves) {
        vcd = std::make_unique<waveforms::vcd_tracer>((out_dir / "waves.vcd").string());
        bench.trace(vcd->file());
    }

    sc_core::sc_start();
    const double end_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
    progress.finish();
    if (vcd) vcd->close();

    if (bench.workload().overloaded())
        throw s.error(s.workload.arrival == arrival_process::open ? "workload.mean_interarrival_ms" : "workload.arrival",
                      fmt::format("the disks cannot keep up: {} requests in flight at {:.3f} s simulated",
                                  bench.workload().in_flight(), end_ms / 1000.0),
                      "an arrival rate the disks can sustain (a larger mean_interarrival_ms)");
    if (!measurement.done())
        throw std::runtime_error(fmt::format("the simulation ended after {} of {} measured requests (no more events "
                                             "at {:.3f} s simulated)",
                                             measurement.measured(), s.workload.requests, end_ms / 1000.0));

    run_report report;
    report.config = &s;
    report.measurement = &measurement;
    report.disk_model = spec.name;
    for (int i = 0; i < bench.disk_count(); ++i)
        report.disks.push_back({bench.disk_name(i), bench.spindle_phase(i),
                                difference(bench.disk(i).statistics(), bench.warmup_snapshot()[i])});
    report.controller = bench.controller();
    report.host_peak_outstanding = bench.peak_outstanding();
    report.host_disk_commands = bench.disk_commands();
    report.sim_end_ms = end_ms;
    report.outputs.push_back((out_dir / "stats.json").string());
    if (vcd) {
        write_wave_layout(out_dir, bench, end_ms);
        report.outputs.push_back((out_dir / "waves.vcd").string());
        report.outputs.push_back((out_dir / "waves.gtkw").string());
    }
    report.wall_s = seconds_since(wall_start);
    write_text(out_dir / "stats.json", make_stats_json(report).dump(2) + "\n");
    std::cout << summary_table(report) << std::flush;
    return measurement.errors() ? 1 : 0;
}

int run_validation(const validate_options &o) {
    const disks::disk_spec spec = load_spec(o.disk_file, o.disk_name, disks::drive_use::one_command_at_a_time);
    std::vector<validate_record> records = load_validate_trace(o.trace_file);
    for (const auto &r : records)
        if (spec.block_count <= 0 || r.lbn >= static_cast<uint64_t>(spec.block_count) ||
            r.blocks > static_cast<uint64_t>(spec.block_count) - r.lbn)
            throw trace_error(fmt::format("{}:{}: lbn {} + {} blocks lies beyond the disk's {} blocks; expected a "
                                          "request on disk '{}'",
                                          o.trace_file, r.line, r.lbn, r.blocks, spec.block_count, spec.name));

    // DiskSim keeps the host side's transfer rate in the bus and controller blocks of its .parv
    // files; a drive spec with a zero "Bulk sector transfer time" leaves the rate to them.
    double host_sector_ms = std::max(0.0, o.host_sector_ms);
    std::string host_note = o.host_sector_ms >= 0 ? "given with --host-sector-ms" : "";
    if (o.host_sector_ms < 0 && spec.interface.bulk_sector_transfer_ms <= 0) {
        std::vector<measured_request> measured;
        measured.reserve(records.size());
        for (const auto &r : records) measured.push_back({r.read, int(r.blocks), r.measured_service_ms});
        if (auto fit = estimate_host_sector_time(measured)) {
            host_sector_ms = fit->sector_ms;
            host_note = fmt::format("estimated from the trace's fastest reads over {} request sizes", fit->sizes);
        } else {
            host_note = "the spec gives 0 and the trace shows no cache-hit mode to estimate it from";
        }
    }
    disks::drive_options opts;
    opts.spindle_phase = 0.0;
    opts.scsi_id = 0;
    opts.one_command_at_a_time = true;
    disks::disk_drive drive("disk", spec, opts);
    protocol::private_link host_link(sc_core::sc_time(host_sector_ms, sc_core::SC_MS));
    trace_replayer replay("replay", std::move(records), &host_link, 0);
    replay.socket.bind(drive.target);
    sc_core::sc_start();
    if (replay.completed() != replay.records().size())
        throw std::runtime_error(fmt::format("the simulation ended after {} of {} trace requests", replay.completed(),
                                             replay.records().size()));
    if (replay.errors())
        throw std::runtime_error(fmt::format("the drive failed {} of {} trace requests", replay.errors(),
                                             replay.records().size()));
    const validation_result v = compare_validation(replay.records(), replay.response_ms());
    if (!host_note.empty())
        std::cout << fmt::format("  host transfer time {:.4f} ms/sector ({})\n", host_sector_ms, host_note);
    std::cout << validation_text(v, spec.name, o.disk_file, o.trace_file) << std::flush;
    return 0;
}

}  // namespace raidtlm::testbench
