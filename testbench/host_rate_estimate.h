// Estimates the validation system's per-sector transfer time from a trace of measured service
// times. DiskSim keeps the host bus and controller rates in its .parv files, not in the drive's
// .diskspecs; a drive spec whose "Bulk sector transfer time" is 0 leaves the rate to them. The
// fastest reads of each size are cache hits, whose time is a fixed overhead plus one transfer
// per sector, so the slope of their lower envelope over request size is that transfer time.
#pragma once

#include <optional>
#include <vector>

namespace raidtlm::testbench {

struct measured_request {
    bool read = true;
    int blocks = 0;
    double service_ms = 0;
};

struct host_rate_fit {
    double sector_ms = 0;    // slope
    double intercept_ms = 0;
    double residual_ms = 0;  // weighted RMS of the fit
    int sizes = 0;           // request sizes used
};

// The 10th percentile of read service time for every size with at least 20 reads, fitted with a
// count-weighted straight line. Nothing when fewer than three sizes qualify or the points do not
// lie on a line (residual above 10% of the mean), i.e. when the trace holds no clear hit mode.
std::optional<host_rate_fit> estimate_host_sector_time(const std::vector<measured_request> &trace);

}  // namespace raidtlm::testbench
