// `raidtlm sr-model`: Yu et al.'s analytic SR-Array models (testbench/models/sr_array_model.h, Eq 4-16)
// evaluated for one Ds x Dr x Dm configuration and load, as JSON, so scripts and users can put the
// model next to a simulation without re-typing the formulas. Plain C++ (no kernel).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace raidtlm::testbench {

struct sr_model_options {
    std::string disk_file;      // DiskSim .diskspecs: S and R from it unless given below
    std::string disk_name;      // the disksim_disk block when the file holds several
    double max_seek_ms = -1;    // S, full-stroke seek; < 0: the spec's seek curve at cylinders - 1
    double rotation_ms = -1;    // R; < 0: 60000 / the spec's rpm
    double seek_locality = 1;   // L: S becomes S / L
    int ds = 1, dr = 1, dm = 1;
    double outstanding = 1;     // Q, requests in flight over the whole array
    double read_fraction = 1;   // p of Eq 8: share of requests without foreground propagation
    double overhead_ms = 0;     // T_o of Eq 15
};

// The report for options whose S and R are known (> 0); throws std::invalid_argument naming the
// option when they are not or a value is out of range.
nlohmann::json sr_model_report(const sr_model_options &o);

// Fills S and R from the disk spec where they are not given, prints the report on stdout.
// Returns the exit code; spec errors are thrown (disks::spec_error).
int run_sr_model(sr_model_options o);

}  // namespace raidtlm::testbench
