#include "testbench/commands/plog_model_command.h"

#include <iostream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/models/failure_tolerance_model.h"
#include "testbench/models/parity_logging_model.h"
#include "disks/diskspec_loader.h"

namespace raidtlm::testbench {

namespace {

// Section 9: Figure 30's rows for one degree of tolerance.
int print_tolerant_schemes(const plog_model_options &o, const controller::plog_model::parameters &p) {
    namespace pm = controller::plog_model;
    std::vector<pm::tolerant_row> rows;
    try {
        rows = pm::tolerant_schemes(p, o.failures);
    } catch (const std::invalid_argument &e) {
        std::cerr << "raidtlm: plog-model --failures " << o.failures << ": " << e.what() << "\n";
        return 2;
    }
    const pm::plog_terms pre = pm::tolerant_parity_logging(p, o.failures, true);
    if (o.json) {
        nlohmann::json j;
        j["source"] = o.disk_spec.empty() ? std::string("figure12") : o.disk_spec;
        j["failures"] = o.failures;
        for (const auto &r : rows)
            j["schemes"][r.scheme] = {{"blind_busy_ms_per_write", r.blind_ms},
                                      {"cached_busy_ms_per_write", r.cached_ms},
                                      {"blind_io_per_s_per_disk", r.blind_rate},
                                      {"cached_io_per_s_per_disk", r.cached_rate},
                                      {"storage_overhead", r.storage_overhead}};
        j["parity_logging_terms_ms"] = {{"data_access", pre.data_access_ms}, {"log_write", pre.log_write_ms},
                                        {"log_read", pre.log_read_ms},       {"check_read", pre.parity_read_ms},
                                        {"check_write", pre.parity_write_ms}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("multiple failure model, {} failure(s) tolerated ({}): S {:.3f} ms, R {:.3f} ms, D {:g}, "
                             "N {:g}, L {:g}\n",
                             o.failures, o.disk_spec.empty() ? "Figure 12 as printed" : o.disk_spec, p.seek_ms,
                             p.rotation_ms, p.units_per_track, p.disks, p.log_stripes);
    std::cout << fmt::format("{:<16} {:>14} {:>14} {:>16} {:>16} {:>10}\n", "scheme", "blind ms/wr", "cached ms/wr",
                             "blind IO/s/disk", "cached IO/s/disk", "overhead");
    for (const auto &r : rows)
        std::cout << fmt::format("{:<16} {:>14.2f} {:>14.2f} {:>16.2f} {:>16.2f} {:>9.1f}%\n", r.scheme, r.blind_ms,
                                 r.cached_ms, r.blind_rate, r.cached_rate, r.storage_overhead * 100);
    return 0;
}

}  // namespace

int run_plog_model(const plog_model_options &o) {
    namespace pm = controller::plog_model;
    pm::parameters p = pm::figure12();
    // The array shape applies to Figure 12's drive too (its defaults are the paper's).
    p.units_per_track = 48.0 / o.stripe_unit_sectors;
    p.disks = o.disks;
    p.log_cylinders = p.parity_cylinders = p.cylinders / o.regions_per_disk;
    p.buffered_tracks = o.buffered_tracks;
    p.log_stripes = o.log_stripes;
    if (!o.disk_spec.empty()) {
        const disks::disk_spec spec = disks::load_diskspec(o.disk_spec);
        try {
            p = pm::from_disk(spec, o.stripe_unit_sectors, o.disks, o.regions_per_disk, o.buffered_tracks,
                              o.log_stripes);
        } catch (const std::invalid_argument &e) {
            // Bad input: exit 2, naming the file (the model's geometry is one zone, as the paper's).
            std::cerr << "raidtlm: " << o.disk_spec << ": " << e.what()
                      << "; expected a drive of one zone (e.g. scenarios/disks/ibm0661.diskspecs)\n";
            return 2;
        }
    }
    if (o.failures >= 0) return print_tolerant_schemes(o, p);
    const auto rows = pm::all_schemes(p);
    const pm::plog_terms pre = pm::parity_logging(p, true);
    const double table_bits = pm::floating_table_bits_per_disk(p);
    if (o.json) {
        nlohmann::json j;
        j["source"] = o.disk_spec.empty() ? std::string("figure12") : o.disk_spec;
        j["parameters"] = {{"S_ms", p.seek_ms},          {"R_ms", p.rotation_ms},
                           {"D", p.units_per_track},     {"H_ms", p.head_switch_ms},
                           {"T", p.tracks_per_cylinder}, {"M_ms", p.track_seek_ms},
                           {"V", p.cylinders},           {"N", p.disks},
                           {"C_L", p.log_cylinders},     {"C_P", p.parity_cylinders},
                           {"K", p.buffered_tracks},     {"L", p.log_stripes}};
        for (const auto &r : rows)
            j["schemes"][r.scheme] = {{"busy_ms_per_write", r.busy_ms}, {"io_per_s_per_disk", r.rate_per_disk}};
        j["parity_logging_terms_ms"] = {{"data_access", pre.data_access_ms}, {"log_write", pre.log_write_ms},
                                        {"log_read", pre.log_read_ms},       {"parity_read", pre.parity_read_ms},
                                        {"parity_write", pre.parity_write_ms}};
        j["floating_table_bits_per_disk"] = table_bits;
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("parity logging model ({}): S {:.3f} ms, R {:.3f} ms, D {:g}, H {:g} ms, T {:g}, "
                             "M {:.3f} ms, V {:g}, N {:g}, C_L = C_P {:.2f}, K {:g}, L {:g}\n",
                             o.disk_spec.empty() ? "Figure 12 as printed" : o.disk_spec, p.seek_ms,
                             p.rotation_ms, p.units_per_track, p.head_switch_ms, p.tracks_per_cylinder,
                             p.track_seek_ms, p.cylinders, p.disks, p.log_cylinders, p.buffered_tracks,
                             p.log_stripes);
    std::cout << fmt::format("{:<28} {:>16} {:>18}\n", "scheme", "busy ms/write", "IO/s per disk");
    for (const auto &r : rows)
        std::cout << fmt::format("{:<28} {:>16.2f} {:>18.1f}\n", r.scheme, r.busy_ms, r.rate_per_disk);
    std::cout << fmt::format("parity logging terms (ms/write): data {:.2f}, log write {:.2f}, log read {:.2f}, "
                             "parity read {:.2f}, parity write {:.2f}\n",
                             pre.data_access_ms, pre.log_write_ms, pre.log_read_ms, pre.parity_read_ms,
                             pre.parity_write_ms);
    std::cout << fmt::format("floating data/parity tables: {:.0f} bits ({:.1f} KB) per disk\n", table_bits,
                             table_bits / 8 / 1024);
    return 0;
}

}  // namespace raidtlm::testbench
