#include "testbench/models/failure_tolerance_model.h"

#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::controller::plog_model {

namespace {

void check_failures(int failures) {
    if (failures < 0) throw std::invalid_argument(fmt::format("failures tolerated must be >= 0, not {}", failures));
}

// A small write with no preread: seek, latency, one unit (Section 3's t_w).
double write_ms(const parameters &p) { return nonredundant_ms(p); }

// One read-rotate-write: seek, latency, read a unit, the rest of the revolution, write it.
double read_rotate_write_ms(const parameters &p) { return raid5_ms(p) / 2; }

// One floated read-rotate-write (Section 4): the read, a head switch, Menon and Kasson's wait to
// the free slot, the write.
double floated_access_ms(const parameters &p) { return floating_ms(p) / 2; }

}  // namespace

double tolerant_mirroring_ms(const parameters &p, int failures) {
    check_failures(failures);
    return (failures + 1) * write_ms(p);
}

double tolerant_parity_ms(const parameters &p, int failures, bool preread) {
    check_failures(failures);
    if (failures == 0) return write_ms(p);
    return (preread ? read_rotate_write_ms(p) : write_ms(p)) + failures * read_rotate_write_ms(p);
}

double tolerant_floating_ms(const parameters &p, int failures, bool preread) {
    check_failures(failures);
    if (failures == 0) return write_ms(p);
    return (preread ? floated_access_ms(p) : write_ms(p)) + failures * floated_access_ms(p);
}

plog_terms tolerant_parity_logging(const parameters &p, int failures, bool preread) {
    check_failures(failures);
    if (failures == 0) return plog_terms{write_ms(p), 0, 0, 0, 0};
    const double S = p.seek_ms, R = p.rotation_ms, D = p.units_per_track, H = p.head_switch_ms;
    const double T = p.tracks_per_cylinder, M = p.track_seek_ms, N = p.disks;
    const double K = p.buffered_tracks, CL = p.log_cylinders, L = p.log_stripes;
    const double f = failures;
    // Every member holds its share of all f check images in one run.
    const double check_cylinders = f * p.parity_cylinders;
    const double members = N - f * L;
    if (members < f + 1)
        throw std::invalid_argument(fmt::format("parity logging tolerating {} failures with L = {} needs more than "
                                                "{} disks, not {}",
                                                failures, L, f + f * L, N));
    plog_terms t;
    t.data_access_ms = S + ((preread ? 3 : 1) + 2 / D) * R;
    const double t_ktrack = S + (2 * K + 1) * R + (K - 1) * H;
    t.log_write_ms = f * t_ktrack / (K * D);  // one K-track write into each of the f logs
    const double cylinder_ms = 2 * R * T + (T - 1) * H;
    double t_cl, t_check;
    if (L <= 1) {
        // Section 3's unstriped forms; the check pass covers the N - f members.
        t_cl = S + (2 * T * CL + 1) * R + (T - 1) * H * CL + (CL - 1) * M;
        t_check = members * (S + R) + check_cylinders * cylinder_ms + M * (check_cylinders - members);
    } else {
        // Section 3's striped forms (the paper charges N accesses for the parity pass).
        t_cl = L * (S + R) + CL * cylinder_ms + (CL - L) * M;
        t_check = N * (S + R) + check_cylinders * cylinder_ms + (check_cylinders - N) * M;
    }
    const double writes_per_reintegration = D * T * CL;
    t.log_read_ms = t_cl / writes_per_reintegration;  // one copy of the log
    t.parity_read_ms = t_check / writes_per_reintegration;
    t.parity_write_ms = t_check / writes_per_reintegration;
    return t;
}

double storage_overhead(const std::string &scheme, const parameters &p, int failures) {
    check_failures(failures);
    const double f = failures, N = p.disks, T = p.tracks_per_cylinder, L = p.log_stripes;
    if (failures == 0 || scheme == "nonredundant") return 0;
    if (scheme == "mirroring") return f / (f + 1);
    if (scheme == "parity") return f / N;
    if (scheme == "floating") return 1 - (T - 1) * (N - f) / (T * N);
    if (scheme == "parity_logging") {
        const double A = p.log_cylinders / p.parity_cylinders;
        return f * (1 + A) / (N - f * L + f * A);
    }
    throw std::invalid_argument("no storage overhead for scheme " + scheme);
}

std::vector<tolerant_row> tolerant_schemes(const parameters &p, int failures) {
    check_failures(failures);
    std::vector<tolerant_row> rows;
    auto add = [&](const std::string &name, double blind, double cached) {
        tolerant_row r;
        r.scheme = name;
        r.failures = failures;
        r.blind_ms = blind;
        r.cached_ms = cached;
        r.blind_rate = saturation_rate_per_disk(blind);
        r.cached_rate = saturation_rate_per_disk(cached);
        r.storage_overhead = storage_overhead(name, p, failures);
        rows.push_back(r);
    };
    if (failures == 0) add("nonredundant", write_ms(p), write_ms(p));
    add("mirroring", tolerant_mirroring_ms(p, failures), tolerant_mirroring_ms(p, failures));
    add("parity", tolerant_parity_ms(p, failures, true), tolerant_parity_ms(p, failures, false));
    add("floating", tolerant_floating_ms(p, failures, true), tolerant_floating_ms(p, failures, false));
    add("parity_logging", tolerant_parity_logging(p, failures, true).total_ms(),
        tolerant_parity_logging(p, failures, false).total_ms());
    return rows;
}

}  // namespace raidtlm::controller::plog_model
