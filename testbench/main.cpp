// The `raidtlm` command: `raidtlm run` simulates a scenario, `raidtlm validate` replays a DiskSim
// validate trace on one drive. Exit codes: 0 success, 1 the simulation failed, 2 bad input (command
// line, scenario, disk spec, trace, output directory); errors are one line on stderr.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <systemc>

#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "testbench/commands.h"
#include "testbench/scenario.h"
#include "testbench/validate_trace.h"

#ifndef RAIDTLM_SOURCE_DIR
#define RAIDTLM_SOURCE_DIR ""
#endif

namespace {

using namespace raidtlm::testbench;

// libsystemc's main() prints its banner before it calls sc_main, so sc_main is too late to turn it
// off: this runs during static initialisation, before main(). (sc_main sets it again, for clarity.)
const bool banner_disabled = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1) == 0; }();

constexpr int exit_failure = 1;
constexpr int exit_bad_input = 2;

int fail(const std::string &message, int code) {
    std::string line = message;
    for (char &c : line)
        if (c == '\n' || c == '\r') c = ' ';
    std::cerr << "raidtlm: " << line << std::endl;
    return code;
}

std::string scenario_key_help() {
    std::string s = "Scenario keys (dotted paths, for the file and for --set; documented in scenarios/default.yaml):\n";
    for (const auto &k : scenario_keys())
        s += fmt::format("  {:<44} {:<11} {}\n", k.key, k.fallback.empty() ? "required" : k.fallback, k.expected);
    return s;
}

}  // namespace

int sc_main(int argc, char **argv) {
    if (!banner_disabled) setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // Quiet by default: no "simulation stopped" or trace-file notes.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);

    CLI::App app{"raidtlm: a SystemC/TLM-2.0 model of a hardware RAID controller and its disks.", "raidtlm"};
    app.require_subcommand(1);
    app.footer("Run 'raidtlm <command> --help' for the options of a command.\n"
               "Exit status: 0 success, 1 simulation failure, 2 bad input (errors are one line on stderr).");

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
    run_cmd->add_flag("-q,--quiet", run.quiet,
                      "No progress line on stderr (it is shown only when stderr is a terminal and the run "
                      "takes over a second)");
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
        "and prints a summary table on stdout.\n\n" +
        scenario_key_help());
    run.repo_root = RAIDTLM_SOURCE_DIR;

    validate_options val;
    CLI::App *val_cmd = app.add_subcommand(
        "validate", "Replay a DiskSim validate trace on one drive and compare with its measured response times");
    val_cmd->footer(
        "The drive is wired directly, on a link of its own that moves data at the validation host's rate\n"
        "(see --host-sector-ms), and serves one request at a time: request k+1 is issued\n"
        "when request k completes plus line k's interarrival time, and request k's response time (issue to\n"
        "completion) is compared with line k's measured service time. Prints the simulated and measured mean\n"
        "and standard deviation (ms) for reads, writes and all, and as the last line 'demerit_ms: X': the\n"
        "Ruemmler-Wilkes demerit, the RMS horizontal distance between the two response-time distributions.");
    val_cmd->add_option("--disk", val.disk_file, "DiskSim .diskspecs file of the drive")
        ->required()
        ->type_name("FILE.diskspecs");
    val_cmd->add_option("--trace", val.trace_file,
                        "Validate trace: lines 'R|W FLAG LBN BLOCKS MEASURED_SERVICE_US NEXT_INTERARRIVAL_US' "
                        "(FLAG, e.g. Hit/Miss, is ignored)")
        ->required()
        ->type_name("FILE.trace");
    val_cmd->add_option("--host-sector-ms", val.host_sector_ms,
                        "Transfer time per 512-byte sector of the validation host's bus and controller, ms. "
                        "Default: the drive spec's 'Bulk sector transfer time'; when that is 0, estimated from "
                        "the slope of the trace's fastest (cache-hit) reads over request size")
        ->check(CLI::NonNegativeNumber)
        ->type_name("MS");
    val_cmd->add_option("--disk-name", val.disk_name,
                        "Name of the disksim_disk block to use when the spec file holds several "
                        "(default: the file's only one)")
        ->type_name("NAME");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        const CLI::App *sub = run_cmd->parsed() ? run_cmd : val_cmd->parsed() ? val_cmd : nullptr;
        return fail(fmt::format("{}; expected the usage in 'raidtlm {}--help'", e.what(),
                                sub ? sub->get_name() + " " : std::string()),
                    exit_bad_input);
    }

    try {
        if (run_cmd->parsed()) return run_scenario(run);
        return run_validation(val);
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
