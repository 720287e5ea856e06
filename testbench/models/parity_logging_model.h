// The utilization model of Stodolsky, Holland, Courtright and Gibson, "Parity logging: overcoming
// the small write problem in redundant disk arrays", Sections 3-4 (../shared/papers/
// 001_adad7b23d9ed6262.txt), as plain functions: disk-arm busy time per small user write for each
// scheme and the per-disk I/O rate at saturation (1000 / busy ms: every write costs busy_ms of
// some disk's time, spread evenly over the N disks). Notation of the paper's Figure 5; times ms.
#pragma once

#include <string>
#include <vector>

namespace raidtlm::disks {
struct disk_spec;
}

namespace raidtlm::controller::plog_model {

struct parameters {
    double seek_ms = 0;          // S, average seek
    double rotation_ms = 0;      // R, average rotational delay = half a revolution
    double units_per_track = 0;  // D, data units (stripe units) per track
    double head_switch_ms = 0;   // H
    double tracks_per_cylinder = 0;  // T
    double track_seek_ms = 0;    // M, single-track (one-cylinder) seek
    double cylinders = 0;        // V, cylinders per disk
    double disks = 0;            // N
    double log_cylinders = 0;    // C_L, log cylinders per region
    double parity_cylinders = 0; // C_P, parity cylinders per region
    double buffered_tracks = 1;  // K, log tracks buffered per region
    double log_stripes = 1;      // L, log striping factor (1: the unstriped log of Section 3)
    // Menon and Kasson's measured mean distance to the free slot, in data units (Section 4).
    double floating_free_slot_units = 0.76;
};

// Figure 12 as printed: S = 12.5 ms ("12.5 ms avg"), R = 13.9/2, D = 24 KB track / 2 KB unit,
// H = 1.16, T = 14, M = seek(1) = 2.47, V = 949, N = 22, and ~100 regions per disk, so a region
// holds V/100 cylinders on each disk; with the log to parity ratio A = 1 of Section 3,
// C_L = C_P = V/100.
parameters figure12();

// The same from a drive spec: S is the mean seek over uniformly random start and end cylinders
// (distance 0 included, as a random write lands anywhere) from the spec's own seek curve, R and
// D, T, V, H, M from its geometry and mechanics; the array shape (N, regions per disk, K, L) and
// the stripe unit are arguments.
parameters from_disk(const disks::disk_spec &spec, int stripe_unit_sectors, int disks,
                     int regions_per_disk, int buffered_tracks, int log_stripes);

// Section 4.
double nonredundant_ms(const parameters &p);  // S + (1 + 2/D) R
double mirroring_ms(const parameters &p);     // 2S + (2 + 4/D) R
double raid5_ms(const parameters &p);         // two read-rotate-writes: 2S + (6 + 4/D) R
// Each of the two accesses: seek, latency, read a unit, head switch, 0.76 units to the free slot,
// write a unit: S + (1 + (4 + 2*0.76)/D) R + H; total 2S + (2 + 11.04/D) R + 2H.
double floating_ms(const parameters &p);

// Section 3: the parity logging terms after the data access, per user write.
struct plog_terms {
    double data_access_ms = 0;  // t_rmw = S + (3 + 2/D) R, or t_w = S + (1 + 2/D) R
    double log_write_ms = 0;    // t_Ktrack / (K D), t_Ktrack = S + (2K+1) R + (K-1) H
    double log_read_ms = 0;     // t_CL / (D T C_L)
    double parity_read_ms = 0;  // t_CP / (D T C_L)
    double parity_write_ms = 0; // the same again
    double total_ms() const {
        return data_access_ms + log_write_ms + log_read_ms + parity_read_ms + parity_write_ms;
    }
};
// L = 1: the unstriped log (t_CL and t_CP of Section 3, with the paper's (T+1)H typo in t_CP
// read as (T-1)H); L > 1: the striped forms L(S+R) + C_L(2RT + (T-1)H) + (C_L - L) M and
// N(S+R) + C_P(2RT + (T-1)H) + (C_P - N) M.
plog_terms parity_logging(const parameters &p, bool preread);

// Per-disk I/O rate at saturation for a busy time per user write.
double saturation_rate_per_disk(double busy_ms_per_write);

// Section 4: floating data and parity's controller memory: a DT-bit allocation mask and a
// D(T-1) ceil(log2(DT))-bit location table per cylinder, V cylinders per disk.
double floating_table_bits_per_disk(const parameters &p);

struct scheme_row {
    std::string scheme;
    double busy_ms = 0;
    double rate_per_disk = 0;
};
// Every scheme in the order of the paper's Figure 15 (with and without preread).
std::vector<scheme_row> all_schemes(const parameters &p);

}  // namespace raidtlm::controller::plog_model
