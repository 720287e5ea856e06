#include "testbench/commands/commands.h"

#include "controller/layouts/layout.h"
#include "disks/disk_layout.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <mutex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <systemc>

#include "disks/disk_drive.h"
#include "disks/disk_layout.h"
#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "controller/families/parity_logging/parity_logging_firmware.h"
#include "controller/families/replicated/replicated_firmware.h"
#include "testbench/commands/bricks_command.h"
#include "testbench/commands/child_runs.h"
#include "testbench/measurement/confidence.h"
#include "testbench/workloads/distributions.h"
#include "testbench/scenario/parv_scenario.h"
#include "testbench/commands/rate_search.h"
#include "testbench/measurement/progress_meter.h"
#include "testbench/bench/run_bench.h"
#include "testbench/bench/run_measurement.h"
#include "testbench/scenario/scenario.h"
#include "testbench/measurement/stats_report.h"
#include "testbench/measurement/text_table.h"
#include "testbench/bench/wave_layout.h"
#include "testbench/scenario/array_specs.h"
#include <algorithm>

#include "testbench/bench/wave_output.h"
#include "waveforms/gtkw_writer.h"
#include "waveforms/vcd_tracer.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;



namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) {
    return std::chrono::duration<double>(clock_type::now() - t).count();
}

std::vector<scenario_override> parse_overrides(const std::vector<std::string> &texts) {
    std::vector<scenario_override> out;
    for (const auto &text : texts) out.push_back(parse_override(text));
    return out;
}

fs::path out_dir_of(const run_options &o) {
    return o.out_dir.empty() ? fs::path("out") / fs::path(o.scenario_file).stem() : fs::path(o.out_dir);
}

// The first line of every overload error, so a parent can tell overload from other failures.
constexpr const char *overload_text = "the disks cannot keep up";

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

}  // namespace

namespace {

int run_seeds(const run_options &o, const scenario &s, const fs::path &out_dir);


}  // namespace

// A DiskSim system configuration runs as the scenario it translates to, written to
// OUT/scenario_from_parv.yaml so the user sees (and can copy) what was simulated.
static std::string scenario_file_of(const run_options &o, parv_translation &parv) {
    if (fs::path(o.scenario_file).extension() != ".parv") return o.scenario_file;
    parv = translate_parv(o.scenario_file);
    const fs::path out_dir = out_dir_of(o);
    prepare_out_dir(out_dir);
    const fs::path file = out_dir / "scenario_from_parv.yaml";
    write_text(file, parv.yaml);
    for (const auto &n : parv.notes) std::cerr << "raidtlm: " << o.scenario_file << ": " << n << "\n";
    return file.string();
}

// DiskSim's names for the figures it prints, beside raidtlm's own (DiskSim's "Overall I/O System
// Response time average" is per logical request, "IOdriver Response time average" per request
// the driver sends to a device).
static std::string disksim_figures(const parv_translation &parv, const run_measurement &m) {
    const double mean = m.all().mean_ms();
    std::string t = fmt::format("\nDiskSim's figures, as raidtlm measured them:\n"
                                "  Overall I/O System Response time average  {:.3f} ms (per logical request)\n",
                                mean);
    if (parv.per_device_equals_logical)
        t += fmt::format("  IOdriver Response time average            {:.3f} ms (one device request each)\n", mean);
    else
        t += "  IOdriver Response time average            not measured (a striped request is several device "
             "requests; raidtlm times the logical ones)\n";
    return t;
}

int run_scenario(const run_options &o) {
    const auto wall_start = clock_type::now();
    parv_translation parv;
    const std::string scenario_file = scenario_file_of(o, parv);
    std::vector<std::string> overrides = o.overrides;
    if (o.gdb_port >= 0) overrides.push_back("controller.cpu.gdb_port=" + std::to_string(o.gdb_port));
    const scenario s = load_scenario(scenario_file, parse_overrides(overrides), o.repo_root);
    const std::vector<disks::disk_spec> specs = load_array_specs(s);
    check_fits(s, specs);

    const fs::path out_dir = out_dir_of(o);
    prepare_out_dir(out_dir);
    if (s.bricks.count > 0) {
        if (s.measurement.seeds > 1)
            throw s.error("measurement.seeds", "several seeds in one bricks run", "1 (one run per seed)");
        return run_bricks(o, s, specs.front(), out_dir);
    }
    if (s.measurement.seeds > 1) return run_seeds(o, s, out_dir);

    stopping_rule rule;
    rule.ci_target = s.measurement.ci_target;
    rule.ci_level = s.measurement.ci_level;
    rule.min_requests = s.measurement.min_requests;
    run_measurement measurement(s.workload.warmup_requests, s.workload.requests, s.output.histogram_bucket_ms,
                                s.output.histogram_max_ms, rule);
    const bool tty = isatty(fileno(stderr));
    progress_meter progress(!o.quiet && (tty || o.progress), stderr, !tty);
    progress.set_detail([&measurement, &s] {
        const std::string measured = s.workload.requests
                                         ? fmt::format("{} / {} measured", measurement.measured(), s.workload.requests)
                                         : fmt::format("{} measured", measurement.measured());
        const double w = measurement.ci_relative();
        const std::string target = measurement.rule().ci_target > 0
                                       ? fmt::format(" (target {:.1f}%)", 100 * measurement.rule().ci_target)
                                       : std::string();
        return measured + " | " +
               (std::isfinite(w) ? fmt::format("CI +-{:.2f}%{}", 100 * w, target) : "CI: too few requests" + target);
    });
    bench_options bopts;
    bopts.progress = &progress;
    if (s.output.requests_csv) bopts.requests_csv = (out_dir / "requests.csv").string();
    run_bench bench("bench", s, specs, measurement, bopts);
    std::unique_ptr<waveforms::vcd_tracer> vcd;
    if (s.output.waves) {
        vcd = std::make_unique<waveforms::vcd_tracer>(
            (out_dir / "waves.vcd").string(), sc_core::sc_time(s.output.waves_from_ms, sc_core::SC_MS),
            sc_core::sc_time(s.output.waves_to_ms, sc_core::SC_MS));
        bench.trace(vcd->file(), waveforms::wave_groups(s.output.wave_groups));
    }

    sc_core::sc_start();
    const double end_ms = sc_core::sc_time_stamp().to_seconds() * 1e3;
    progress.finish(end_ms, measurement.completed_total());
    const double time_unit_s = vcd ? vcd->time_unit_s() : 1e-12;
    if (vcd) {
        try {
            vcd->close();
        } catch (const std::runtime_error &e) {
            throw output_error(std::string(e.what()) + "; expected a writable output directory");
        }
    }

    if (!bench.workload().error().empty()) throw trace_error(bench.workload().error());
    if (bench.workload().beyond_kernel_time_ms() > 0)
        throw s.error(s.workload.arrival == arrival_process::closed ? "workload.think_time_ms"
                      : s.workload.rate_schedule.empty()            ? "workload.mean_interarrival_ms"
                                                                    : "workload.rate_schedule",
                      fmt::format("the next arrival or think time ends at {:g} ms of simulated time, beyond the "
                                  "{:g} ms the SystemC kernel can represent",
                                  bench.workload().beyond_kernel_time_ms(),
                                  sc_core::sc_max_time().to_seconds() * 1e3),
                      "times that keep the run within the kernel's range (shorter interarrival or think times)");
    if (bench.workload().overloaded())
        throw s.error(s.workload.arrival == arrival_process::closed ? "workload.arrival"
                      : s.workload.arrival == arrival_process::trace ? "trace.time_scale"
                      : s.workload.rate_schedule.empty()             ? "workload.mean_interarrival_ms"
                                                                     : "workload.rate_schedule",
                      fmt::format("{}: {} requests in flight at {:.3f} s simulated", overload_text,
                                  bench.workload().in_flight(), end_ms / 1000.0),
                      "an arrival rate the disks can sustain (fewer arrivals per second)");
    // A trace with no request in it says so, not "the requests ran out within the warm-up".
    if (const trace_source *trace = bench.trace_replay(); trace && trace->reader().requests() == 0) {
        const trace_reader &r = trace->reader();
        throw s.error("trace.file",
                      r.lines() == 0 ? fmt::format("the trace file {} is empty", r.name())
                                     : fmt::format("the trace file {} holds no requests ({} lines, none a request "
                                                   "in the {} format)",
                                                   r.name(), r.lines(), to_string(r.format())),
                      fmt::format("a trace with at least one request in the {} format (trace.format)",
                                  to_string(s.trace.format)));
    }
    if (!measurement.done())
        throw std::runtime_error(fmt::format("the simulation ended after {} of {} measured requests (no more events "
                                             "at {:.3f} s simulated)",
                                             measurement.measured(), s.workload.requests, end_ms / 1000.0));
    if (measurement.measured() == 0)
        throw s.error(s.workload.arrival == arrival_process::trace ? "trace.file" : "workload.rate_schedule",
                      fmt::format("the requests ran out after {} completed, all within the warm-up",
                                  measurement.completed_total()),
                      fmt::format("more requests than workload.warmup_requests ({})", s.workload.warmup_requests));
    bench.close_timeline(end_ms);

    run_report report;
    report.config = &s;
    report.measurement = &measurement;
    report.disk_model = drive_models(specs);
    for (int i = 0; i < bench.disk_count(); ++i) {
        report.disks.push_back({bench.disk_name(i), bench.spindle_phase(i),
                                difference(bench.disk(i).statistics(), bench.warmup_snapshot()[i])});
        // Busy time within the window only: media work a write-back left planned past its end
        // (up to a cache's worth) is not the window's.
        report.disks.back().window.busy_ms =
            bench.disk(i).busy_ms_at(measurement.window_end_ms()) - bench.warmup_snapshot()[i].busy_ms;
    }
    report.controller = bench.controller();
    report.host_peak_outstanding = bench.peak_outstanding();
    report.host_disk_commands = bench.disk_commands();
    report.sim_end_ms = end_ms;
    report.think = bench.think();
    report.trace = bench.trace_replay();
    report.samples = bench.samples();
    report.faults = bench.faults();
    report.outputs.push_back((out_dir / "stats.json").string());
    if (vcd) {
        const wave_files waves = finish_waves(out_dir, out_dir / "waves.vcd", s.output, end_ms);
        write_wave_layout(out_dir, bench, waves, waveforms::wave_groups(s.output.wave_groups), time_unit_s);
        report.outputs.push_back((out_dir / waves.dump).string());
        report.outputs.push_back((out_dir / "waves.gtkw").string());
    }
    if (bench.log()) {
        try {
            bench.log()->close();
        } catch (const std::runtime_error &e) {
            throw output_error(std::string(e.what()) + "; expected a writable output directory");
        }
        report.outputs.push_back(bopts.requests_csv);
    }
    report.wall_s = seconds_since(wall_start);
    write_text(out_dir / "stats.json", make_stats_json(report).dump(2) + "\n");
    const std::string stats_path = (out_dir / "stats.json").string();
    const integrity_counts integrity = report.controller ? integrity_of(*report.controller) : integrity_counts{};
    std::cout << summary_table(report) << (parv.yaml.empty() ? std::string() : disksim_figures(parv, measurement))
              << (integrity.errors ? "\n" + integrity_failure_box(integrity, stats_path) : std::string()) << std::flush;
    // Exit status 1 alone left stderr empty (issue 13): say what failed and where to look.
    const auto *cs = report.controller ? &report.controller->statistics() : nullptr;
    const uint64_t controller_failed = cs ? cs->failed_reads + cs->failed_writes : 0;
    if (measurement.errors() || controller_failed) {
        const bool lost = s.controller.enabled && s.controller.config.firmware.fail_disk >= 0;
        std::cerr << fmt::format(
            "raidtlm: {} of {} measured host requests failed{}{}; see {} (requests.errors, controller.failed_requests)\n",
            measurement.errors(), measurement.measured(),
            controller_failed ? fmt::format(" ({} reads and {} writes over the run)", cs->failed_reads, cs->failed_writes)
                              : std::string(),
            lost ? fmt::format(" (controller.fail_disk {} was lost at request {})", s.controller.config.firmware.fail_disk,
                               s.controller.config.firmware.fail_after_requests)
                 : std::string(),
            stats_path);
    }
    // Requests a scheduled power loss took are the fault's expected outcome, not a failure of the run.
    const uint64_t lost_with_power = bench.workload().abandoned();
    if (lost_with_power > 0)
        std::cerr << fmt::format("raidtlm: {} host requests were lost with the controller's power (stats.json faults)\n",
                                 lost_with_power);
    // Wrong data outranks every other outcome, and is the last line on stderr: the one a parent
    // run (several seeds, sustainable-rate) or a script reports.
    if (integrity.errors) {
        std::cerr << "raidtlm: " << integrity_failure_line(integrity, stats_path) << std::endl;
        return exit_wrong_data;
    }
    return measurement.errors() > lost_with_power ? exit_failure : exit_success;
}

namespace {

// The arguments of a child `raidtlm run` of this scenario with extra overrides.
std::vector<std::string> child_run_args(const run_options &o, const fs::path &dir,
                                        const std::vector<std::string> &extra) {
    std::vector<std::string> a = {"run", o.scenario_file, "--out", dir.string(), "--quiet"};
    for (const auto &ov : o.overrides) a.insert(a.end(), {"--set", ov});
    for (const auto &ov : extra) a.insert(a.end(), {"--set", ov});
    return a;
}

nlohmann::json read_json(const fs::path &p) {
    std::ifstream in(p);
    if (!in) throw std::runtime_error(fmt::format("{}: missing after a successful child run", p.string()));
    return nlohmann::json::parse(in);
}

// The figures compared across seeds, by their place in stats.json.
struct seed_metric {
    const char *name;
    std::function<double(const nlohmann::json &)> get;
};
const std::vector<seed_metric> &seed_metrics() {
    static const std::vector<seed_metric> m = {
        {"mean_response_ms", [](const nlohmann::json &j) { return j["response_time"]["mean_ms"].get<double>(); }},
        {"p90_response_ms", [](const nlohmann::json &j) { return j["response_time"]["p90_ms"].get<double>(); }},
        {"p99_response_ms", [](const nlohmann::json &j) { return j["response_time"]["p99_ms"].get<double>(); }},
        {"read_mean_response_ms",
         [](const nlohmann::json &j) { return j["read_response_time"]["mean_ms"].get<double>(); }},
        {"write_mean_response_ms",
         [](const nlohmann::json &j) { return j["write_response_time"]["mean_ms"].get<double>(); }},
        {"iops", [](const nlohmann::json &j) { return j["throughput"]["iops"].get<double>(); }},
        {"mb_per_s", [](const nlohmann::json &j) { return j["throughput"]["mb_per_s"].get<double>(); }},
        {"ci_relative",
         [](const nlohmann::json &j) {
             const auto &v = j["measurement"]["ci"]["relative"];
             return v.is_null() ? std::nan("") : v.get<double>();
         }},
        {"mean_disk_utilisation",
         [](const nlohmann::json &j) {
             double sum = 0;
             for (const auto &d : j["disks"]) sum += d["utilisation"].get<double>();
             return j["disks"].empty() ? 0.0 : sum / static_cast<double>(j["disks"].size());
         }},
    };
    return m;
}

nlohmann::json summary_json(const spread_summary &x, const std::vector<double> &values) {
    return {{"n", x.n},           {"mean", x.mean}, {"stddev", x.stddev}, {"min", x.min},
            {"max", x.max},       {"spread", x.spread}, {"ci95_half_width", x.ci95_half_width},
            {"values", values}};
}

// Per-seed progress on stderr ("seeds: 2 / 5 done"), when it is a terminal.
struct child_progress {
    bool shown;
    size_t total;
    size_t done = 0;
    const char *what;
    void tick() {
        ++done;
        if (!shown) return;
        std::fprintf(stderr, "\r  %s: %zu / %zu done\033[K", what, done, total);
        if (done == total) std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
    }
};

int run_seeds(const run_options &o, const scenario &s, const fs::path &out_dir) {
    const auto wall_start = clock_type::now();
    const int n = s.measurement.seeds;
    std::vector<uint64_t> seeds;
    std::vector<child_job> jobs;
    for (int i = 0; i < n; ++i) {
        const uint64_t seed = s.workload.seed + static_cast<uint64_t>(i);
        const fs::path dir = out_dir / fmt::format("seed_{}", seed);
        prepare_out_dir(dir);
        seeds.push_back(seed);
        jobs.push_back({child_run_args(o, dir, {fmt::format("workload.seed={}", seed), "measurement.seeds=1"}),
                        dir.string()});
    }
    child_progress progress{!o.quiet && isatty(fileno(stderr)), jobs.size(), 0, "seeds"};
    const auto outcomes =
        run_children(jobs, o.jobs > 0 ? o.jobs : available_processors(), [&](size_t) { progress.tick(); });
    // Any seed's failure fails the run; a seed that returned wrong data is named first, whatever
    // failed before it: its exit status is the run's.
    std::vector<size_t> failed;
    for (size_t i = 0; i < outcomes.size(); ++i)
        if (outcomes[i].exit_code != 0) failed.push_back(i);
    std::stable_partition(failed.begin(), failed.end(),
                          [&](size_t i) { return outcomes[i].exit_code == exit_wrong_data; });
    if (!failed.empty()) {
        const size_t i = failed.front();
        std::string e = outcomes[i].error;
        if (e.rfind("raidtlm: ", 0) == 0) e = e.substr(9);
        throw child_error(fmt::format("seed {}: {}{}", seeds[i], e,
                                      failed.size() > 1 ? fmt::format(" ({} of {} seeds failed; each one's stderr.txt "
                                                                      "in its seed_<seed>/)",
                                                                      failed.size(), outcomes.size())
                                                        : std::string()),
                          outcomes[i].exit_code);
    }
    std::vector<nlohmann::json> stats;
    for (const auto &j : jobs) stats.push_back(read_json(fs::path(j.dir) / "stats.json"));

    nlohmann::json out;
    out["raidtlm"] = build_json();
    out["scenario"] = s.to_json();
    out["seeds"] = seeds;
    out["runs"] = nlohmann::json::array();
    for (const auto &j : jobs) out["runs"].push_back(fs::path(j.dir).filename().string() + "/stats.json");
    out["across_seeds"] = nlohmann::json::object();
    std::map<std::string, spread_summary> sums;
    for (const auto &m : seed_metrics()) {
        std::vector<double> v;
        for (const auto &st : stats) v.push_back(m.get(st));
        sums[m.name] = summarize(v);
        out["across_seeds"][m.name] = summary_json(sums[m.name], v);
    }
    out["simulation"] = {{"wall_s", seconds_since(wall_start)}};
    write_text(out_dir / "stats.json", out.dump(2) + "\n");

    std::string t = fmt::format("raidtlm run {} over {} seeds ({} .. {})\n\n", s.file, n, seeds.front(), seeds.back());
    text_table per_seed({{"seed", text_table::align::left}, {"measured"}, {"mean_ms"}, {"p90_ms"}, {"iops"}, {"CI%"}});
    for (size_t i = 0; i < stats.size(); ++i) {
        const double ci = seed_metrics()[7].get(stats[i]);
        per_seed.add_row({std::to_string(seeds[i]), std::to_string(stats[i]["requests"]["measured"].get<uint64_t>()),
                          fmt::format("{:.3f}", seed_metrics()[0].get(stats[i])),
                          fmt::format("{:.3f}", seed_metrics()[1].get(stats[i])),
                          fmt::format("{:.1f}", seed_metrics()[5].get(stats[i])),
                          std::isfinite(ci) ? fmt::format("{:.2f}", 100 * ci) : std::string("?")});
    }
    t += per_seed.render();
    auto across = [&](const char *label, const char *name, const char *unit) {
        const spread_summary &x = sums[name];
        t += fmt::format("  {:<22} {:.3f} {} +- {:.3f} (95% CI over seeds), sd {:.3f}, spread {:.2f}%\n", label, x.mean,
                         unit, x.ci95_half_width, x.stddev, 100 * x.spread);
    };
    t += "\n";
    across("mean response", "mean_response_ms", "ms");
    across("throughput", "iops", "IO/s");
    t += fmt::format("\n  wall {:.2f} s\n  wrote {}\n", seconds_since(wall_start), (out_dir / "stats.json").string());
    std::cout << t << std::flush;
    return 0;
}

}  // namespace

int run_sustainable_rate(const rate_options &o) {
    const auto wall_start = clock_type::now();
    const scenario s = load_scenario(o.run.scenario_file, parse_overrides(o.run.overrides), o.run.repo_root);
    const std::vector<disks::disk_spec> specs = load_array_specs(s);
    const disks::disk_spec &spec = specs.front();
    check_fits(s, specs);
    if (s.workload.arrival == arrival_process::trace)
        throw s.error("workload.arrival", "trace: a trace fixes its own arrival times",
                      "open or closed (the search drives open-loop Poisson arrivals)");
    const fs::path out_dir = out_dir_of(o.run);
    prepare_out_dir(out_dir);
    const bool chatty = !o.run.quiet;

    rate_search_config cfg;
    cfg.threshold_ms = o.threshold_ms;
    cfg.precision = o.precision;
    cfg.probe_iops = s.disks.count;  // 1 IO/s per drive: light load
    struct seed_search {
        uint64_t seed = 0;
        rate_search_result result;
        std::vector<std::string> dirs;
        std::string error;
        int code = 0;
    };
    std::vector<seed_search> searches(static_cast<size_t>(o.seeds));
    std::mutex log;
    parallel_for(searches.size(), o.run.jobs > 0 ? o.run.jobs : available_processors(), [&](size_t i) {
        seed_search &ss = searches[i];
        ss.seed = s.workload.seed + i;
        int k = 0;
        auto evaluate = [&](double rate) {
            const fs::path dir = out_dir / fmt::format("seed_{}", ss.seed) / fmt::format("eval_{:02d}", k++);
            prepare_out_dir(dir);
            const std::vector<std::string> extra = {
                fmt::format("workload.seed={}", ss.seed),
                "measurement.seeds=1",
                "workload.arrival=open",
                "workload.rate_schedule=[]",
                "workload.target_iops=0",
                fmt::format("workload.mean_interarrival_ms={:.17g}", 1000.0 / rate),
                fmt::format("measurement.ci_target={}", o.ci_target),
                fmt::format("workload.requests={}", o.max_requests),
                "output.waves=false",
                "output.timeline=false"};
            const child_outcome c = run_child({child_run_args(o.run, dir, extra), dir.string()});
            rate_point p;
            p.rate_iops = rate;
            if (c.exit_code != 0) {
                if (c.error.find(overload_text) == std::string::npos) throw child_error(c.error, c.exit_code);
                p.overloaded = true;
            } else {
                const nlohmann::json j = read_json(dir / "stats.json");
                p.achieved_iops = j["throughput"]["iops"].get<double>();
                p.mean_ms = j["response_time"]["mean_ms"].get<double>();
                const auto &hw = j["measurement"]["ci"]["half_width_ms"];
                p.ci_half_width_ms = hw.is_null() ? std::nan("") : hw.get<double>();
            }
            ss.dirs.push_back(dir.string());
            if (chatty) {
                std::lock_guard<std::mutex> lock(log);
                std::fprintf(stderr, "  seed %llu: %9.3f IO/s -> %s\n", static_cast<unsigned long long>(ss.seed), rate,
                             p.overloaded ? "overloaded"
                                          : fmt::format("mean {:.3f} ms +- {:.3f}", p.mean_ms, p.ci_half_width_ms).c_str());
            }
            return p;
        };
        try {
            ss.result = find_sustainable_rate(cfg, evaluate, [&](double service_ms) {
                // What the drives could do if each served one request per mean service time.
                return s.disks.count * 1000.0 / service_ms;
            });
        } catch (const child_error &e) {
            ss.error = e.what();
            ss.code = e.code();
        }
    });
    // As with several seeds: a search whose evaluation returned wrong data is named first.
    const seed_search *failed = nullptr;
    for (const auto &ss : searches)
        if (!ss.error.empty() && (!failed || (ss.code == exit_wrong_data && failed->code != exit_wrong_data)))
            failed = &ss;
    if (failed) {
        std::string e = failed->error;
        if (e.rfind("raidtlm: ", 0) == 0) e = e.substr(9);
        throw child_error(fmt::format("seed {}: {}", failed->seed, e), failed->code);
    }

    std::vector<double> rates;
    nlohmann::json out;
    out["raidtlm"] = build_json();
    out["scenario"] = s.to_json();
    out["threshold_ms"] = o.threshold_ms;
    out["precision"] = o.precision;
    out["evaluation"] = {{"ci_target", o.ci_target}, {"max_requests", o.max_requests}, {"arrivals", "open Poisson"}};
    out["seeds"] = nlohmann::json::array();
    for (const auto &ss : searches) {
        rates.push_back(ss.result.rate_iops);
        nlohmann::json points = nlohmann::json::array();
        for (size_t k = 0; k < ss.result.points.size(); ++k) {
            const rate_point &p = ss.result.points[k];
            points.push_back({{"rate_iops", p.rate_iops},
                              {"achieved_iops", p.achieved_iops},
                              {"mean_ms", p.mean_ms},
                              {"ci_half_width_ms", std::isfinite(p.ci_half_width_ms) ? nlohmann::json(p.ci_half_width_ms)
                                                                                      : nlohmann::json()},
                              {"overloaded", p.overloaded},
                              {"stats", p.overloaded ? std::string()
                                                     : (fs::path(ss.dirs[k]).lexically_relative(out_dir) / "stats.json")
                                                           .string()}});
        }
        out["seeds"].push_back({{"seed", ss.seed},
                                {"rate_iops", ss.result.rate_iops},
                                {"found", ss.result.found},
                                {"service_ms", ss.result.service_ms},
                                {"points", points}});
    }
    const spread_summary x = summarize(rates);
    out["rate_iops"] = summary_json(x, rates);
    out["simulation"] = {{"wall_s", seconds_since(wall_start)}};
    write_text(out_dir / "sustainable_rate.json", out.dump(2) + "\n");

    std::string t = fmt::format("raidtlm sustainable-rate {}: open Poisson arrivals, mean response <= {} ms\n",
                                s.file, o.threshold_ms);
    t += fmt::format("  {} x {}; each evaluation stops at a {:.1f}% CI (cap {} requests); bracket {:.1f}%\n\n",
                     s.disks.count, spec.name, 100 * o.ci_target, o.max_requests, 100 * o.precision);
    t += fmt::format("  {:<8}{:>14}{:>14}{:>13}\n", "seed", "rate_iops", "service_ms", "evaluations");
    for (const auto &ss : searches)
        t += fmt::format("  {:<8}{:>14.2f}{:>14.3f}{:>13}{}\n", ss.seed, ss.result.rate_iops, ss.result.service_ms,
                         ss.result.points.size(),
                         ss.result.found ? "" : ss.result.rate_iops == 0 ? "  (light load already above)" : "  (not narrowed)");
    t += fmt::format("\n  sustainable rate {:.2f} IO/s +- {:.2f} (95% CI over {} seeds), spread {:.2f}%\n", x.mean,
                     x.ci95_half_width, x.n, 100 * x.spread);
    t += fmt::format("  wall {:.2f} s\n  wrote {}\n", seconds_since(wall_start),
                     (out_dir / "sustainable_rate.json").string());
    std::cout << t << std::flush;
    return 0;
}

}  // namespace raidtlm::testbench
