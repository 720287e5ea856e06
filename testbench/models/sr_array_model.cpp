#include "testbench/models/sr_array_model.h"

#include <algorithm>
#include <cmath>

namespace raidtlm::controller::sr_model {

double striping_seek_ms(const disk_times &d, double disks) { return d.seek_ms() / (3 * disks); }
double mirror_seek_ms(const disk_times &d, double disks) { return d.seek_ms() / (2 * disks + 1); }

double even_replica_read_rotation_ms(const disk_times &d, double replicas) { return d.rotation_ms / (2 * replicas); }
double random_replica_read_rotation_ms(const disk_times &d, double replicas) { return d.rotation_ms / (replicas + 1); }
double replica_write_rotation_ms(const disk_times &d, double replicas) {
    return d.rotation_ms - even_replica_read_rotation_ms(d, replicas);
}

double read_latency_ms(const disk_times &d, double ds, double dr) {
    return striping_seek_ms(d, ds) + even_replica_read_rotation_ms(d, dr);
}
double write_latency_ms(const disk_times &d, double ds, double dr) {
    return striping_seek_ms(d, ds) + replica_write_rotation_ms(d, dr);
}
double mixed_latency_ms(const disk_times &d, double ds, double dr, double p) {
    return p * read_latency_ms(d, ds, dr) + (1 - p) * write_latency_ms(d, ds, dr);
}
double sr_mirror_read_latency_ms(const disk_times &d, double ds, double dr, double dm) {
    return read_latency_ms(d, ds, dr * dm);
}

namespace {
// Minimises a/Ds + b*Ds/D over Ds (Dr = D/Ds): Ds = sqrt(a D / b), minimum 2 sqrt(a b / D).
aspect_ratio balance(double a, double b, double disks) {
    if (b <= 0) return {disks, 1};
    const double ds = std::sqrt(a * disks / b);
    return {ds, disks / ds};
}
}  // namespace

// Eq 9 is S/(3Ds) + (2p-1) R Ds / (2D) + (1-p) R.
aspect_ratio optimal_aspect_ratio(const disk_times &d, double disks, double p) {
    return balance(d.seek_ms() / 3, (2 * p - 1) * d.rotation_ms / 2, disks);
}
double best_latency_ms(const disk_times &d, double disks, double p) {
    const aspect_ratio a = optimal_aspect_ratio(d, disks, p);
    return mixed_latency_ms(d, a.ds, a.dr, p);
}

double stroke_latency_ms(const disk_times &d, double ds, double dr, double p, double q) {
    return d.seek_ms() / (q * ds) + p * even_replica_read_rotation_ms(d, dr) + (1 - p) * replica_write_rotation_ms(d, dr);
}
aspect_ratio optimal_stroke_aspect_ratio(const disk_times &d, double disks, double p, double q) {
    return balance(d.seek_ms() / q, (2 * p - 1) * d.rotation_ms / 2, disks);
}
double best_stroke_latency_ms(const disk_times &d, double disks, double p, double q) {
    const aspect_ratio a = optimal_stroke_aspect_ratio(d, disks, p, q);
    return stroke_latency_ms(d, a.ds, a.dr, p, q);
}

double single_disk_iops(double overhead_ms, double latency_ms) { return 1000.0 / (overhead_ms + latency_ms); }
double array_iops(double disks, double outstanding, double single_disk_iops) {
    return disks * (1 - std::pow(1 - 1 / disks, outstanding)) * single_disk_iops;
}

int practical_replicas(int disks, double optimal_dr, int max_replicas) {
    const double limit = std::min<double>(optimal_dr, max_replicas);
    int best = 1;
    for (int f = 1; f <= disks; ++f)
        if (disks % f == 0 && f <= limit) best = f;
    return best;
}

}  // namespace raidtlm::controller::sr_model
