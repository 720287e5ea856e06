// The analytic models of Yu et al., "Trading capacity for performance in a disk array",
// Section 2, as plain functions. They cover the overhead-independent part of a request's time:
// S is the full-stroke seek time, R the revolution time, both in ms; seek locality L replaces S
// by S / L (the paper's Table 3 "seek locality" row). An SR-Mirror Ds×Dr×Dm is approximated by
// the SR-Array formulas with Dr*Dm in place of Dr (Section 2.5).
#pragma once

namespace raidtlm::controller::sr_model {

struct disk_times {
    double max_seek_ms = 0;     // S
    double rotation_ms = 0;     // R
    double seek_locality = 1;   // L
    double seek_ms() const { return max_seek_ms / seek_locality; }  // S / L
};

// Section 2.1: mean seek (as a time proportional to distance) of a D-way stripe (Eq 1) and of a
// D-way mirror reading the closest copy.
double striping_seek_ms(const disk_times &d, double disks);  // S / (3D)
double mirror_seek_ms(const disk_times &d, double disks);    // S / (2D + 1)

// Section 2.2: rotational delay with D replicas on a track.
double even_replica_read_rotation_ms(const disk_times &d, double replicas);    // R / (2D), Eq 2
double random_replica_read_rotation_ms(const disk_times &d, double replicas);  // R / (D + 1)
double replica_write_rotation_ms(const disk_times &d, double replicas);        // R - R / (2D), Eq 3

struct aspect_ratio {
    double ds = 1;
    double dr = 1;
};

// Section 2.3, random reads: T_R = S/(3Ds) + R/(2Dr) (Eq 4); writes propagating every replica
// in the foreground: T_W = S/(3Ds) + R - R/(2Dr) (Eq 7); a mix where p is the share of requests
// that do not propagate replicas in the foreground (Eq 8): T = p T_R + (1 - p) T_W (Eq 9).
double read_latency_ms(const disk_times &d, double ds, double dr);
double write_latency_ms(const disk_times &d, double ds, double dr);
double mixed_latency_ms(const disk_times &d, double ds, double dr, double p);
// SR-Mirror Ds×Dr×Dm read latency: Eq 4 with Dr*Dm replicas.
double sr_mirror_read_latency_ms(const disk_times &d, double ds, double dr, double dm);

// The real-valued optimum over Ds*Dr = D: Eq 5 (p = 1) and Eq 10; the latency there, Eq 6 and
// Eq 11. With p <= 1/2 replication never pays: pure striping (Ds = D, Dr = 1) and its latency.
aspect_ratio optimal_aspect_ratio(const disk_times &d, double disks, double p = 1.0);
double best_latency_ms(const disk_times &d, double disks, double p = 1.0);

// Section 2.4, q requests per RLOOK stroke on one disk: T = S/(q Ds) + p R/(2Dr) +
// (1-p)(R - R/(2Dr)) (Eq 12), its optimum (Eq 13) and latency there (Eq 14). The paper uses
// these for q > 3 and the latency models below that.
double stroke_latency_ms(const disk_times &d, double ds, double dr, double p, double q);
aspect_ratio optimal_stroke_aspect_ratio(const disk_times &d, double disks, double p, double q);
double best_stroke_latency_ms(const disk_times &d, double disks, double p, double q);

// Eq 15: one disk's throughput, requests per second, with overhead T_o per request.
double single_disk_iops(double overhead_ms, double latency_ms);
// Eq 16: D disks with Q requests outstanding in all, spread at random: D [1 - (1 - 1/D)^Q] N_1.
double array_iops(double disks, double outstanding, double single_disk_iops);

// The paper's integer choice: the largest factor of D not above the real optimum Dr (nor
// max_replicas: the prototype stops at 6), at least 1.
int practical_replicas(int disks, double optimal_dr, int max_replicas = 6);

}  // namespace raidtlm::controller::sr_model
