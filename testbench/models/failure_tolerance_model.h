// The parity logging paper's Section 9 (Stodolsky, Holland, Courtright, Gibson, ../shared/papers/
// 001_adad7b23d9ed6262.txt): each scheme of Sections 3-4 extended to tolerate f concurrent disk
// failures, as the paper describes it, in the utilization model of parity_logging_model.h.
//
// The mechanism (Section 9: "each small write updates (f+1) disks -- f disks containing check
// information (generalized parity) and the disk containing the user's data"):
//   mirroring       f+1 copies ("f-copy shadowing"; triple tolerance = "quadruplicated storage"):
//                   (f+1) plain writes.
//   parity (RAID 5 -> P+Q -> ...): the data access (a read-rotate-write, or a write when the old
//                   data is cached) and f check read-rotate-writes.
//   floating data and check: the data access (a floated read-rotate-write, or a write when cached)
//                   and f floated read-rotate-writes of check units.
//   parity logging: the data access; the records written once into each of the f log copies
//                   (f K-track writes per K*D writes); at reintegration one copy of the log read
//                   and the region's f check images read and written back; the check images of a
//                   region lie together on each member, so one sequential pass per member moves
//                   all f of them (the paper lays out parity and log so one access reads both).
// With f = 0 there is no check information and no preread: every scheme is the nonredundant one.
// "Blind" is the paper's shaded bar (the old data must be preread), "cached" the full bar.
//
// Plain functions; times ms; parameters as parity_logging_model.h (Figure 5's notation).
#pragma once

#include <string>
#include <vector>

#include "testbench/models/parity_logging_model.h"

namespace raidtlm::controller::plog_model {

// The paper counts at most triple tolerance (Figure 30); the model itself has no limit but the
// disks: an f-tolerant array needs more than f + f*L disks for parity logging.
constexpr int max_failures_modelled = 3;

double tolerant_mirroring_ms(const parameters &p, int failures);
double tolerant_parity_ms(const parameters &p, int failures, bool preread);
double tolerant_floating_ms(const parameters &p, int failures, bool preread);
plog_terms tolerant_parity_logging(const parameters &p, int failures, bool preread);

// Fraction of the array's disk space holding redundancy (check, log, free slots, copies):
//   mirroring f/(f+1); parity f/N; floating 1 - (T-1)(N-f)/(TN) (the paper's footnote 6 with f
//   check units per stripe); parity logging f(1+A)/(N - fL + fA) with A = C_L/C_P (Section 2.2's
//   (1+A)/(N-L+A) with f check images and f log copies of L sublogs each).
double storage_overhead(const std::string &scheme, const parameters &p, int failures);

struct tolerant_row {
    std::string scheme;  // nonredundant, mirroring, parity, floating, parity_logging
    int failures = 0;
    double blind_ms = 0, cached_ms = 0;      // disk busy time per small user write
    double blind_rate = 0, cached_rate = 0;  // I/Os per second per disk at saturation
    double storage_overhead = 0;
};
// The rows of Figure 30 for one degree of tolerance: nonredundant (f = 0 only), then mirroring,
// parity, floating and parity logging. Throws std::invalid_argument for f < 0, or when parity
// logging's f log copies leave fewer than f + 1 members.
std::vector<tolerant_row> tolerant_schemes(const parameters &p, int failures);

}  // namespace raidtlm::controller::plog_model
