// The `raidtlm` command: `raidtlm run` simulates a scenario, `raidtlm validate` replays a DiskSim
// validate trace on one drive, `raidtlm sustainable-rate` searches the load at a response-time
// threshold, `raidtlm sr-model` prints the SR-Array analytic models. Exit codes
// (integrity_verdict.h): 0 success, 1 the simulation failed, 2 bad input (command line, scenario,
// disk spec, trace, output directory), 3 reads returned wrong data; errors are one line on stderr.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <systemc>

#include "config/shown_text.h"
#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "testbench/build_info.h"
#include "testbench/commands/commands.h"
#include "testbench/measurement/integrity_verdict.h"
#include "testbench/commands/plog_model_command.h"
#include "testbench/scenario/scenario.h"
#include "testbench/commands/sr_model_report.h"
#include "testbench/commands/validate_trace.h"

#ifndef RAIDTLM_SOURCE_DIR
#define RAIDTLM_SOURCE_DIR ""
#endif

namespace {

using namespace raidtlm::testbench;

// libsystemc's main() prints its banner before it calls sc_main, so sc_main is too late to turn it
// off: this runs during static initialisation, before main(). (sc_main sets it again, for clarity.)
const bool banner_disabled = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1) == 0; }();


int fail(const std::string &message, int code) {
    // A bad value can be megabytes long; the line keeps its start (FILE:LINE) and its end.
    std::string line = raidtlm::config::elided_middle(message, 2000);
    for (char &c : line)
        if (c == '\n' || c == '\r') c = ' ';
    std::cerr << "raidtlm: " << line << std::endl;
    return code;
}

// CLI11's own PositiveNumber says "Value 0 not in range 0.000000 to 1797693134862315708..." (issue
// 13); these say what is accepted in words.
const CLI::Validator positive_number(
    [](std::string &v) {
        char *end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        return !v.empty() && *end == 0 && d > 0 ? std::string() : "'" + v + "' is not a number above 0";
    },
    "NUMBER > 0");
const CLI::Validator non_negative_number(
    [](std::string &v) {
        char *end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        return !v.empty() && *end == 0 && d >= 0 ? std::string() : "'" + v + "' is not a number of at least 0";
    },
    "NUMBER >= 0");
CLI::Validator whole_number_at_least(long lo) {
    return CLI::Validator(
        [lo](std::string &v) {
            char *end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            return !v.empty() && *end == 0 && n >= lo ? std::string()
                                                      : fmt::format("'{}' is not a whole number of at least {}", v, lo);
        },
        fmt::format("N >= {}", lo));
}

std::string scenario_key_help() {
    std::string s = "Scenario keys (dotted paths, for the file and for --set; documented in scenarios/default.yaml)\n"
                    "  key                                          default     unit        accepted\n";
    for (const auto &k : scenario_keys())
        s += fmt::format("  {:<44} {:<11} {:<11} {}\n", k.key, k.fallback.empty() ? "required" : k.fallback,
                         k.unit.empty() ? "-" : k.unit, k.expected);
    return s;
}

}  // namespace

int sc_main(int argc, char **argv) {
    if (!banner_disabled) setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // Quiet by default: no "simulation stopped" or trace-file notes.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

    CLI::App app{"raidtlm: a SystemC/TLM-2.0 model of a hardware RAID controller and its disks.", "raidtlm"};
    app.require_subcommand(1);
    app.set_version_flag("--version", fmt::format("raidtlm {} (commit {})", raidtlm::testbench::raidtlm_version(),
                                                   raidtlm::testbench::build_commit()));
    app.footer("Run 'raidtlm <command> --help' for the options of a command.\n"
               "Exit status: 0 success; 1 simulation failure (host requests failed, or the run could not finish);\n"
               "2 bad input (command line, scenario, disk spec, trace, output directory); 3 DATA INTEGRITY FAILURE:\n"
               "reads returned wrong data (stats.json controller.integrity_errors > 0, with workload.data_tokens),\n"
               "so the run's figures are not valid. Errors are one line on stderr.");

    run_options run;
    CLI::App *run_cmd = app.add_subcommand(
        "run", "Simulate a scenario: write OUT/stats.json, OUT/waves.vcd and OUT/waves.gtkw, print a summary");
    run_cmd->add_option("scenario", run.scenario_file, "Scenario YAML file (see scenarios/default.yaml)")
        ->required()
        ->type_name("SCENARIO.yaml");
    run_cmd->add_option("-o,--out", run.out_dir,
                        "Directory for stats.json, waves.vcd and waves.gtkw; created if missing "
                        "(default: out/<scenario file name without .yaml>)")
        ->type_name("DIR");
    run_cmd->add_option("-s,--set", run.overrides,
                        "Override a scenario key, e.g. --set workload.read_fraction=1.0; repeatable, "
                        "later ones win")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false)  // one KEY=VALUE per --set, so the scenario may follow
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    run_cmd->add_option("--gdb", run.gdb_port,
               "controller.cpu.model iss: pause the firmware at reset and wait for gdb-multiarch on this TCP port "
               "of 127.0.0.1 (0: any free port, printed on stderr)")
        ->check(CLI::Range(0, 65535))
        ->type_name("PORT");
    run_cmd->add_flag("-q,--quiet", run.quiet,
                      "No progress line on stderr (it is shown only when stderr is a terminal and the run "
                      "takes over a second)");
    run_cmd->add_flag("--progress", run.progress,
                      "Progress lines on stderr even when it is not a terminal (one line a second and a final "
                      "one): simulated time, requests done, the CI width of the mean response time");
    run_cmd->add_option("-j,--jobs", run.jobs,
                        "With measurement.seeds > 1: runs at once (default: the number of processors)")
        ->check(whole_number_at_least(1))
        ->type_name("N");
    run_cmd->footer(
        "Simulates disks of one DiskSim model behind a minimal host adapter or the RAID controller\n"
        "(controller.enabled: CPU, buffer DRAM, NVRAM, XOR engine, host link and SCSI buses, striping\n"
        "firmware), driven by a synthetic open- or closed-loop workload, and writes into OUT:\n"
        "  stats.json   response time mean, std. dev., percentiles and histogram (reads, writes, all),\n"
        "               throughput, per disk seek/rotation/transfer times, cache hits, utilisation, and\n"
        "               with the controller the utilisation and mean/max wait of every shared block\n"
        "  waves.vcd    drive state, cylinder, head and queue depth; host requests in flight; with the\n"
        "               controller: bus owner/phase/waiting, CPU busy/task, DRAM grants and occupancy,\n"
        "               XOR busy/queue, NVRAM occupancy, host link busy\n"
        "  waves.gtkw   GTKWave layout for waves.vcd, grouped per block, channel and disk:\n"
        "               gtkwave OUT/waves.gtkw\n"
        "  requests.csv with output.requests_csv: issue_ms,complete_ms,response_ms,op,lbn,sectors,measured,ok\n"
        "and prints a summary table on stdout.\n\n"
        "Workloads: closed loop (N clients, think time constant/exponential/gaussian, or tuned to reach\n"
        "workload.target_iops), open loop (Poisson, or workload.rate_schedule), or a trace replayed\n"
        "(workload.arrival trace; trace.format disksim, spc, msr or blkparse). Sizes: constant, uniform,\n"
        "table (airline = the parity-logging paper's Fig 26 mix), zipf, exponential. Addresses: uniform, sequential,\n"
        "local, streams, tracks, hot_cold; random_fraction < 1 mixes sequential runs in (Iometer).\n"
        "Measurement: warm-up excluded; measurement.ci_target > 0 stops the run when the 95% confidence\n"
        "interval of the mean response time (batch means, so autocorrelated responses are handled) is\n"
        "within that fraction of the mean, workload.requests being the cap; measurement.seeds > 1 runs\n"
        "that many seeds as child processes into OUT/seed_<seed>/ and writes mean and spread across\n"
        "them to OUT/stats.json. Plots: scripts/plot OUT/stats.json.\n\n"
        "Faults (the scenario's faults: list, see scenarios/faults_raid5.yaml; with the controller):\n"
        "  disk_loss         a member fails; replace_after_ms: a fresh drive in its slot that much later,\n"
        "                    rebuilt by the firmware\n"
        "  media_error       the drive answers MEDIUM ERROR for reads of [lbn, lbn + sectors) until rewritten\n"
        "  silent_corruption the drive's media change under [lbn, lbn + sectors) and it returns the changed\n"
        "                    data without an error (bit rot past the ECC, a misdirected write): RAID without\n"
        "                    checksums cannot see it, the scoreboard (workload.data_tokens) does\n"
        "  power_loss        the controller is off for restore_after_ms; NVRAM survives, then recovery\n"
        "  controller_loss   the controller is replaced restore_after_ms later, its NVRAM module moved over\n"
        "What faults beyond the layout's redundancy lost (stats.json controller.firmware): lost_sectors (exact),\n"
        "lost_range_count (separate ranges), lost_ranges (the first 1024 [first logical sector, sectors] pairs\n"
        "in address order, touching ranges merged) and lost_ranges_left_out (the ranges not listed).\n"
        "Exit status: 0 success; 1 host requests failed (stderr says how many; stats.json requests.errors,\n"
        "controller.failed_requests) or the simulation could not finish; 2 bad input; 3 DATA INTEGRITY\n"
        "FAILURE: with workload.data_tokens the controller's scoreboard checks every read against the last\n"
        "acknowledged write, and reads returned wrong data (stats.json controller.integrity_errors > 0): the\n"
        "summary ends with a framed DATA INTEGRITY FAILURE block and stderr's last line says it, naming\n"
        "stats.json controller.first_integrity_errors; the run's figures are not valid. With several seeds\n"
        "or in sustainable-rate, a child run's status is the whole run's (3 before 1).\n\n" +
        scenario_key_help());
    run.repo_root = RAIDTLM_SOURCE_DIR;

    validate_options val;
    CLI::App *val_cmd = app.add_subcommand(
        "validate", "Replay a DiskSim validate trace on one drive and compare with its measured response times");
    val_cmd->footer(
        "DRIVE is DiskSim's validation configuration of the drive (NAME.parv: the host's iodriver, buses and\n"
        "controller, and the drive from its .diskspecs); the drive moves data at the slowest of its own rate and\n"
        "the host path's read or write block transfer time, as DiskSim does. A bare .diskspecs also works (no host\n"
        "path unless --host-sector-ms). The drive is wired directly on a link of its own and serves one request\n"
        "at a time: request k+1 is issued when request k completes plus line k's interarrival time, and request\n"
        "k's response time (issue to completion) is compared with line k's measured service time. Prints the\n"
        "simulated and measured mean and standard deviation (ms) for reads, writes and all, and as the last line\n"
        "'demerit_ms: X': the Ruemmler-Wilkes demerit, the RMS horizontal distance between the two\n"
        "response-time distributions.");
    val_cmd->add_option("drive", val.disk_file, "DiskSim .parv (or .diskspecs) of the drive")->type_name("DRIVE.parv");
    val_cmd->add_option("trace", val.trace_file, "Validate trace (as --trace)")->type_name("TRACE");
    val_cmd->add_option("--disk", val.disk_file, "Same as DRIVE: a DiskSim .parv or .diskspecs file")
        ->type_name("FILE");
    val_cmd->add_option("--trace", val.trace_file,
                        "Validate trace: lines 'R|W FLAG LBN BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US' "
                        "(FLAG, e.g. Hit/Miss, is ignored; service time at most 60 s, a host's command timeout; "
                        "interarrival at most 1 hour)")
        ->type_name("FILE.trace");
    val_cmd->add_option("--host-sector-ms", val.host_sector_ms,
                        "Transfer time per 512-byte sector of the validation host's bus and controller, ms, both "
                        "directions. Default: the .parv's buses and controller (none for a bare .diskspecs)")
        ->check(non_negative_number)
        ->type_name("MS");
    val_cmd->add_option("--requests-csv", val.requests_csv,
                        "Write every request's measured and simulated response time here "
                        "(line,op,lbn,blocks,measured_ms,simulated_ms), to see where the drive differs")
        ->type_name("FILE.csv");
    val_cmd->add_option("--disk-name", val.disk_name,
                        "The drive to use when the file holds several: a disksim_disk block name (.diskspecs) or a "
                        "disk instance of the topology (.parv); default: the only one")
        ->type_name("NAME");

    rate_options rate;
    CLI::App *rate_cmd = app.add_subcommand(
        "sustainable-rate",
        "Search the open-loop arrival rate at which the mean response time reaches a threshold (SR-Array's "
        "'rate at <= 15 ms')");
    rate_cmd->add_option("scenario", rate.run.scenario_file, "Scenario YAML file (its arrivals become open Poisson)")
        ->required()
        ->type_name("SCENARIO.yaml");
    rate_cmd->add_option("--threshold-ms", rate.threshold_ms, "Mean response time threshold, ms (default 15)")
        ->check(positive_number)
        ->type_name("MS");
    rate_cmd->add_option("--seeds", rate.seeds, "Independent searches, seeds workload.seed .. + N-1 (default 3)")
        ->check(CLI::Range(1, 1000))
        ->type_name("N");
    rate_cmd->add_option("--precision", rate.precision,
                         "Stop when the bracket is narrower than this fraction of the rate (default 0.01)")
        ->check(CLI::Range(1e-6, 1.0))
        ->type_name("FRACTION");
    rate_cmd->add_option("--ci", rate.ci_target,
                         "Each evaluation runs until its 95% CI of the mean response is within this fraction of "
                         "the mean (default 0.01)")
        ->check(CLI::Range(1e-6, 0.999))
        ->type_name("FRACTION");
    rate_cmd->add_option("--max-requests", rate.max_requests,
                         "Cap on the measured requests of each evaluation (default 2000000)")
        ->check(whole_number_at_least(1))
        ->type_name("N");
    rate_cmd->add_option("-o,--out", rate.run.out_dir,
                         "Directory for sustainable_rate.json and the evaluations (default: out/<scenario name>)")
        ->type_name("DIR");
    rate_cmd->add_option("-s,--set", rate.run.overrides, "Override a scenario key, as for run")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    rate_cmd->add_option("-j,--jobs", rate.run.jobs, "Searches at once (default: the number of processors)")
        ->check(whole_number_at_least(1))
        ->type_name("N");
    rate_cmd->add_flag("-q,--quiet", rate.run.quiet, "No line per evaluation on stderr");
    rate_cmd->footer(
        "Each seed runs its own search; every evaluation is a child 'raidtlm run' of the scenario with open\n"
        "Poisson arrivals at the rate tried, the seed fixed (the same arrivals stretched in time, so the\n"
        "response grows with the rate), stopping on --ci. A light-load probe (1 IO/s per drive) gives the\n"
        "service time S and a first guess (M/M/1 with the drives' capacity 1/S each); secant steps on\n"
        "1/response (nearly linear in the rate for a queue) bracket the threshold, regula falsi narrows the\n"
        "bracket to --precision, and the rate is interpolated between its ends. A run that cannot keep up\n"
        "counts as above the threshold. Prints the rate per seed and the mean and spread across\n"
        "seeds; writes OUT/sustainable_rate.json (every evaluation: rate, achieved IO/s, mean and CI) and\n"
        "OUT/seed_<seed>/eval_<k>/stats.json. Plot it with scripts/plot OUT/sustainable_rate.json.\n"
        "An evaluation that fails stops its search and the command fails with its exit status: 3 when its\n"
        "reads returned wrong data (DATA INTEGRITY FAILURE, named before any other failure), 1 otherwise.");
    rate.run.repo_root = RAIDTLM_SOURCE_DIR;

    sr_model_options srm;
    CLI::App *srm_cmd = app.add_subcommand(
        "sr-model", "Print Yu et al.'s SR-Array analytic models (Eq 4-16) for one Ds x Dr x Dm and load, as JSON");
    srm_cmd->add_option("--disk", srm.disk_file,
                        "DiskSim .diskspecs file: S = its seek curve at the full stroke (cylinders - 1), "
                        "R = 60000 / its rpm, unless --max-seek-ms / --rotation-ms are given")
        ->type_name("FILE.diskspecs");
    srm_cmd->add_option("--disk-name", srm.disk_name, "disksim_disk block when the file holds several")
        ->type_name("NAME");
    srm_cmd->add_option("--max-seek-ms", srm.max_seek_ms, "S, the full-stroke seek time, ms")
        ->check(positive_number)
        ->type_name("MS");
    srm_cmd->add_option("--rotation-ms", srm.rotation_ms, "R, the revolution time, ms")
        ->check(positive_number)
        ->type_name("MS");
    srm_cmd->add_option("--locality", srm.seek_locality, "Seek locality index L (S becomes S/L; default 1)")
        ->check(CLI::Range(1.0, 1e9))
        ->type_name("L");
    srm_cmd->add_option("--ds", srm.ds, "Ds, disks the data are striped over (default 1)")
        ->check(CLI::Range(1, 1 << 20))
        ->type_name("N");
    srm_cmd->add_option("--dr", srm.dr, "Dr, rotational replicas per disk (default 1)")
        ->check(CLI::Range(1, 1 << 20))
        ->type_name("N");
    srm_cmd->add_option("--dm", srm.dm, "Dm, mirror copies on other disks (default 1; modelled as Dr*Dm replicas)")
        ->check(CLI::Range(1, 1 << 20))
        ->type_name("N");
    srm_cmd->add_option("--queue", srm.outstanding, "Q, requests outstanding over the whole array (default 1)")
        ->check(CLI::Range(1.0, 1e9))
        ->type_name("Q");
    srm_cmd->add_option("--read-fraction", srm.read_fraction,
                        "p of Eq 8: share of requests that do not propagate replicas in the foreground (default 1)")
        ->check(CLI::Range(0.0, 1.0))
        ->type_name("P");
    srm_cmd->add_option("--overhead-ms", srm.overhead_ms, "T_o of Eq 15, per-request overhead, ms (default 0)")
        ->check(non_negative_number)
        ->type_name("MS");
    srm_cmd->footer(
        "D = Ds*Dr*Dm disks, per-disk queue q = Q/D. Prints: Eq 4 read latency (and its seek and rotation\n"
        "terms), Eq 7 write latency, Eq 9 mix at p, Eq 12 RLOOK-stroke latency at q; the throughput model\n"
        "takes Eq 12 when q > 3 and Eq 9 otherwise (the paper's rule, Section 2.4), Eq 15 N1 = 1/(T_o + T)\n"
        "and Eq 16 N_D = D [1 - (1 - 1/D)^Q] N1 in IO/s; and the real-valued optima over Ds*Dr = D (Eq 5/10-11\n"
        "and Eq 13-14). All times are the overhead-independent part except where T_o is added.\n"
        "Example: raidtlm sr-model --disk ../shared/reference/disksim/validation/cheetah9LP.diskspecs \\\n"
        "           --ds 2 --dr 3 --queue 32 --overhead-ms 0.3");
    plog_model_options plog;
    CLI::App *plog_cmd = app.add_subcommand(
        "plog-model", "The parity logging paper's utilization model: disk busy time per small write and "
                      "per-disk I/O rate at saturation for each scheme");
    plog_cmd->add_option("--disk", plog.disk_spec,
                         "DiskSim .diskspecs of the drive (default: the paper's Figure 12 as printed, S = 12.5 ms)")
        ->check(CLI::ExistingFile)
        ->type_name("SPEC");
    plog_cmd->add_option("--unit-sectors", plog.stripe_unit_sectors, "Stripe unit, sectors (default 4 = 2 KB)")
        ->check(positive_number);
    plog_cmd->add_option("--disks", plog.disks, "Disks N (default 22)")->check(CLI::Range(3, 100000));
    plog_cmd->add_option("--regions-per-disk", plog.regions_per_disk, "Regions per disk (default 100)")
        ->check(positive_number);
    plog_cmd->add_option("--tracks", plog.buffered_tracks, "Log tracks buffered per region K (default 1)")
        ->check(positive_number);
    plog_cmd->add_option("--log-stripes", plog.log_stripes, "Log striping factor L (default 1)")
        ->check(positive_number);
    plog_cmd->add_option("--failures", plog.failures,
                         "Section 9: the schemes extended to tolerate F failures (F+1 copies, F check units, F log "
                         "copies); blind and cached old data, storage overhead")
        ->check(CLI::Range(0, 3))
        ->type_name("F");
    plog_cmd->add_flag("--json", plog.json, "Print JSON instead of the table");
    plog_cmd->footer(
        "Sections 3-4 of Stodolsky et al.: S is the mean seek over random cylinder pairs from the spec's seek\n"
        "curve, R half a revolution, D track sectors / stripe unit, T surfaces, M the one-cylinder seek,\n"
        "C_L = C_P = cylinders / regions per disk. Rate per disk = 1000 / busy ms per write.");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        // A first word that is no command: CLI11 says only "arguments were not expected".
        std::string commands;
        bool known = false;
        for (const CLI::App *c : app.get_subcommands({})) {
            commands += (commands.empty() ? "" : ", ") + c->get_name();
            known = known || (argc > 1 && c->get_name() == argv[1]);
        }
        if (argc > 1 && argv[1][0] != '-' && !known) {
            return fail(fmt::format("'{}' is not a command; expected one of {} (raidtlm --help)",
                                    raidtlm::config::shown_text(argv[1]), commands),
                        exit_bad_input);
        }
        const CLI::App *sub = run_cmd->parsed()    ? run_cmd
                              : val_cmd->parsed()  ? val_cmd
                              : rate_cmd->parsed() ? rate_cmd
                              : srm_cmd->parsed()  ? srm_cmd
                              : plog_cmd->parsed() ? plog_cmd
                                                   : nullptr;
        return fail(fmt::format("{}; expected the usage in 'raidtlm {}--help'", e.what(),
                                sub ? sub->get_name() + " " : std::string()),
                    exit_bad_input);
    }

    try {
        if (run_cmd->parsed()) return run_scenario(run);
        if (rate_cmd->parsed()) return run_sustainable_rate(rate);
        if (srm_cmd->parsed()) {
            try {
                return run_sr_model(srm);
            } catch (const std::invalid_argument &e) {
                return fail(fmt::format("sr-model {}", e.what()), exit_bad_input);
            }
        }
        if (plog_cmd->parsed()) return run_plog_model(plog);
        if (val.disk_file.empty() || val.trace_file.empty())
            return fail("validate needs a drive and a trace; expected 'raidtlm validate DRIVE.parv TRACE' (or --disk "
                        "FILE --trace FILE)",
                        exit_bad_input);
        return run_validation(val);
    } catch (const child_error &e) {
        return fail(e.what(), e.code());
    } catch (const scenario_error &e) {
        return fail(e.what(), exit_bad_input);
    } catch (const trace_error &e) {
        return fail(e.what(), exit_bad_input);
    } catch (const raidtlm::disks::spec_error &e) {
        return fail(e.what(), exit_bad_input);
    } catch (const raidtlm::disks::unsupported_parameter &e) {
        return fail(e.what(), exit_bad_input);
    } catch (const output_error &e) {
        return fail(e.what(), exit_bad_input);
    } catch (const sc_core::sc_report &e) {
        return fail(fmt::format("SystemC {}: {}", e.get_msg_type(), e.get_msg()), exit_failure);
    } catch (const std::exception &e) {
        return fail(fmt::format("error: {}", e.what()), exit_failure);
    } catch (...) {
        return fail("error: unknown exception", exit_failure);
    }
}
