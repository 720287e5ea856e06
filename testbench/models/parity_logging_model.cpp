#include "testbench/models/parity_logging_model.h"

#include <cmath>
#include <stdexcept>

#include "disks/disk_spec.h"
#include "disks/seek_model.h"

namespace raidtlm::controller::plog_model {

parameters figure12() {
    parameters p;
    p.seek_ms = 12.5;
    p.rotation_ms = 13.9 / 2;
    p.units_per_track = 48 * 512 / 2048.0;
    p.head_switch_ms = 1.16;
    p.tracks_per_cylinder = 14;
    p.track_seek_ms = 2.0 + 0.01 + 0.46;
    p.cylinders = 949;
    p.disks = 22;
    p.log_cylinders = p.cylinders / 100;
    p.parity_cylinders = p.cylinders / 100;
    return p;
}

parameters from_disk(const disks::disk_spec &spec, int stripe_unit_sectors, int disks,
                     int regions_per_disk, int buffered_tracks, int log_stripes) {
    if (spec.layout.zones.size() != 1)
        throw std::invalid_argument("the parity logging model needs a drive with one zone");
    if (stripe_unit_sectors <= 0 || disks < 3 || regions_per_disk <= 0 || buffered_tracks <= 0 ||
        log_stripes <= 0)
        throw std::invalid_argument("the parity logging model needs a positive stripe unit, regions, "
                                    "K and L and at least 3 disks");
    const disks::seek_model seek(spec.mech.seek);
    const int v = spec.cylinders;
    // Mean over independent uniform start and end cylinders: distance d > 0 has probability
    // 2 (V - d) / V^2.
    double mean_seek = 0;
    for (int d = 1; d < v; ++d) mean_seek += 2.0 * (v - d) / (double(v) * v) * seek.seek_ms(d);
    parameters p;
    p.seek_ms = mean_seek;
    p.rotation_ms = 60000.0 / spec.mech.rpm / 2;
    p.units_per_track = double(spec.layout.zones.front().sectors_per_track) / stripe_unit_sectors;
    p.head_switch_ms = spec.mech.head_switch_ms;
    p.tracks_per_cylinder = spec.surfaces;
    p.track_seek_ms = seek.seek_ms(1);
    p.cylinders = v;
    p.disks = disks;
    p.log_cylinders = double(v) / regions_per_disk;
    p.parity_cylinders = double(v) / regions_per_disk;
    p.buffered_tracks = buffered_tracks;
    p.log_stripes = log_stripes;
    return p;
}

double nonredundant_ms(const parameters &p) {
    return p.seek_ms + (1 + 2 / p.units_per_track) * p.rotation_ms;
}

double mirroring_ms(const parameters &p) { return 2 * nonredundant_ms(p); }

double raid5_ms(const parameters &p) {
    // One read-rotate-write: seek, latency, read a unit, wait the rest of the revolution, write.
    return 2 * (p.seek_ms + (3 + 2 / p.units_per_track) * p.rotation_ms);
}

double floating_ms(const parameters &p) {
    const double unit_ms = 2 * p.rotation_ms / p.units_per_track;
    const double access = p.seek_ms + p.rotation_ms + unit_ms + p.head_switch_ms +
                          p.floating_free_slot_units * unit_ms + unit_ms;
    return 2 * access;
}

plog_terms parity_logging(const parameters &p, bool preread) {
    const double S = p.seek_ms, R = p.rotation_ms, D = p.units_per_track, H = p.head_switch_ms;
    const double T = p.tracks_per_cylinder, M = p.track_seek_ms, N = p.disks;
    const double K = p.buffered_tracks, CL = p.log_cylinders, CP = p.parity_cylinders;
    const double L = p.log_stripes;
    plog_terms t;
    t.data_access_ms = S + ((preread ? 3 : 1) + 2 / D) * R;
    const double t_ktrack = S + (2 * K + 1) * R + (K - 1) * H;
    t.log_write_ms = t_ktrack / (K * D);
    const double cylinder_ms = 2 * R * T + (T - 1) * H;  // read one cylinder, head switches
    double t_cl, t_cp;
    if (L <= 1) {
        t_cl = S + (2 * T * CL + 1) * R + (T - 1) * H * CL + (CL - 1) * M;
        t_cp = (N - 1) * (S + R) + CP * cylinder_ms + M * (CP - N + 1);
    } else {
        t_cl = L * (S + R) + CL * cylinder_ms + (CL - L) * M;
        t_cp = N * (S + R) + CP * cylinder_ms + (CP - N) * M;
    }
    const double writes_per_reintegration = D * T * CL;
    t.log_read_ms = t_cl / writes_per_reintegration;
    t.parity_read_ms = t_cp / writes_per_reintegration;
    t.parity_write_ms = t_cp / writes_per_reintegration;
    return t;
}

double saturation_rate_per_disk(double busy_ms_per_write) { return 1000.0 / busy_ms_per_write; }

double floating_table_bits_per_disk(const parameters &p) {
    const double dt = p.units_per_track * p.tracks_per_cylinder;
    return p.cylinders * p.units_per_track *
           (p.tracks_per_cylinder + (p.tracks_per_cylinder - 1) * std::ceil(std::log2(dt)));
}

std::vector<scheme_row> all_schemes(const parameters &p) {
    std::vector<scheme_row> rows = {
        {"nonredundant", nonredundant_ms(p), 0},
        {"mirroring", mirroring_ms(p), 0},
        {"raid5", raid5_ms(p), 0},
        {"floating", floating_ms(p), 0},
        {"parity_logging", parity_logging(p, true).total_ms(), 0},
        {"parity_logging_no_preread", parity_logging(p, false).total_ms(), 0},
    };
    for (auto &r : rows) r.rate_per_disk = saturation_rate_per_disk(r.busy_ms);
    return rows;
}

}  // namespace raidtlm::controller::plog_model
