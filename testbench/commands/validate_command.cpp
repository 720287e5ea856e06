// `raidtlm validate`: one drive replays a DiskSim validation trace, one request at a time, with
// the validation host's path from DiskSim's .parv (or none, for a bare .diskspecs).
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <systemc>

#include "disks/disk_drive.h"
#include "disks/disk_layout.h"
#include "disks/diskspec_loader.h"
#include "disks/supported_parameters.h"
#include "disks/validation_system.h"
#include "rtl_models/buses/private_scsi_link.h"
#include "testbench/commands/commands.h"
#include "testbench/workloads/trace_replayer.h"
#include "testbench/commands/validate_trace.h"
#include "testbench/commands/validation_report.h"

namespace raidtlm::testbench {

int run_validation(const validate_options &o) {
    // A DiskSim system configuration (.parv) carries the validation host's buses and controller
    // with the drive; a bare drive spec leaves the host side to --host-sector-ms (default: none).
    const bool system = disks::is_system_configuration(o.disk_file);
    disks::disk_spec spec;
    std::string host_note;
    if (system) {
        const disks::validation_system sys = disks::load_validation_system(o.disk_file, o.disk_name);
        spec = sys.disk;
        spec.interface.host_read_sector_ms = sys.read_sector_ms;
        spec.interface.host_write_sector_ms = sys.write_sector_ms;
        spec.interface.host_arbitration_ms = sys.arbitration_ms;
        host_note = fmt::format("host path {:.5f} ms/sector read, {:.5f} write (from {}; drive {:.5f})",
                                sys.read_sector_ms, sys.write_sector_ms, o.disk_file,
                                spec.interface.bulk_sector_transfer_ms);
        const std::string lowered = disks::fit_block_count(spec);
        if (!lowered.empty()) std::cerr << "raidtlm: warning: " << lowered << "\n";
        disks::check_supported(spec, disks::drive_use::one_command_at_a_time);
    } else {
        spec = load_drive_spec(o.disk_file, o.disk_name, disks::drive_use::one_command_at_a_time);
    }
    if (o.host_sector_ms >= 0) {
        spec.interface.host_read_sector_ms = spec.interface.host_write_sector_ms = o.host_sector_ms;
        host_note = fmt::format("host path {:.5f} ms/sector (given with --host-sector-ms)", o.host_sector_ms);
    }
    // The validation host issues one request at a time; DiskSim's "Max queue length" 0 (no
    // advertised limit) must not stop the drive from taking it.
    spec.interface.max_queue_length = std::max(1, spec.interface.max_queue_length);
    std::vector<validate_record> records = load_validate_trace(o.trace_file, sc_core::sc_max_time().to_seconds() * 1e3);
    for (const auto &r : records)
        if (spec.block_count <= 0 || r.lbn >= static_cast<uint64_t>(spec.block_count) ||
            r.blocks > static_cast<uint64_t>(spec.block_count) - r.lbn)
            throw trace_error(fmt::format("{}:{}: lbn {} + {} blocks lies beyond the disk's {} blocks; expected a "
                                          "request on disk '{}'",
                                          o.trace_file, r.line, r.lbn, r.blocks, spec.block_count, spec.name));

    disks::drive_options opts;
    opts.spindle_phase = 0.0;
    opts.scsi_id = 0;
    opts.one_command_at_a_time = true;
    disks::disk_drive drive("disk", spec, opts);
    // The host path's rate is the drive's to apply (spec.interface.host_*_sector_ms, by direction):
    // the link itself moves data at no cost.
    const double host_sector_ms = 0.0;
    rtl_models::private_scsi_link host_link("host_link", sc_core::sc_time(host_sector_ms, sc_core::SC_MS));
    drive.bus.bind(host_link.from_target);
    trace_replayer replay("replay", std::move(records));
    replay.socket.bind(drive.target);
    sc_core::sc_start();
    if (replay.completed() != replay.records().size())
        throw std::runtime_error(fmt::format("the simulation ended after {} of {} trace requests", replay.completed(),
                                             replay.records().size()));
    if (replay.errors())
        throw std::runtime_error(fmt::format("the drive failed {} of {} trace requests", replay.errors(),
                                             replay.records().size()));
    const validation_result v = compare_validation(replay.records(), replay.response_ms());
    if (!o.requests_csv.empty()) {
        std::ofstream csv(o.requests_csv);
        if (!csv) throw std::runtime_error(fmt::format("{}: cannot write; expected a writable file", o.requests_csv));
        csv << "line,op,lbn,blocks,measured_ms,simulated_ms\n";
        for (size_t k = 0; k < replay.records().size(); ++k) {
            const validate_record &r = replay.records()[k];
            csv << fmt::format("{},{},{},{},{:.5f},{:.5f}\n", r.line, r.read ? 'R' : 'W', r.lbn, r.blocks,
                               r.measured_service_ms, replay.response_ms()[k]);
        }
    }
    if (!host_note.empty()) std::cout << "  " << host_note << "\n";
    std::cout << validation_text(v, spec.name, o.disk_file, o.trace_file) << std::flush;
    return 0;
}

}  // namespace raidtlm::testbench
