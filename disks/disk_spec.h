// Every parameter of a disk drive, as plain data. Names and meanings follow DiskSim 4.0's
// `disksim_disk` and diskmodel's `dm_disk` / `dm_layout_g1` / `dm_mech_g1` blocks (see
// shared/reference/disksim/*manual.txt); times are in milliseconds as DiskSim writes them.
// A spec is built by the DiskSim importer (diskspec_loader.h) or by hand in tests.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace raidtlm::disks {

// Where a parameter came from, so a later check ("not supported") can name file and line.
struct source_location {
    std::string file;
    int line = 0;
    std::string str() const { return file + ":" + std::to_string(line); }
};

// DiskSim's "LBN-to-PBN mapping scheme".
enum class lbn_mapping : int {
    conventional = 0,         // all tracks of a cylinder, then the next cylinder
    serpentine_zone = 1,      // odd cylinders (counted from the zone start) run heads downwards
    serpentine_absolute = 2,  // odd cylinders (absolute number) run heads downwards
};

// DiskSim's "Sparing scheme used" (diskmodel manual 1.4.2).
enum class sparing_scheme : int {
    none = 0,
    tracks_per_zone = 1,             // spare tracks at the end of each zone; slips are tracks
    sectors_per_cylinder = 2,        // spare sectors at the end of each cylinder
    sectors_per_track = 3,           // spare sectors at the end of each track
    sectors_per_cylinder_noslip = 4, // as 2, slipped sectors do not use the spares
    sectors_front_cylinder = 5,      // spare sectors at the front of each cylinder
    sectors_front_cylinder_noslip = 6,
    sectors_end_of_disk = 7,
    sectors_per_range = 8,           // spare sectors at the end of each range of cylinders
    sectors_per_zone = 9,            // spare sectors at the end of each zone
    sectors_per_zone_noslip = 10,
};

struct zone_spec {
    int first_cyl = 0;
    int last_cyl = 0;
    int sectors_per_track = 0;
    double first_block_offset_sectors = 0;  // angle of the zone's first logical sector
    int empty_front_sectors = 0;            // management area, not mapped
    double track_skew_sectors = 0;
    double cylinder_skew_sectors = 0;
    int spares = 0;                         // per sparing region (sectors, or tracks for scheme 1)
    std::vector<int64_t> slips;             // zone-relative slot (or track) numbers skipped
    std::vector<std::pair<int64_t, int64_t>> defects;  // (defective, replacement) zone-relative
    source_location where;
};

struct layout_spec {
    lbn_mapping mapping = lbn_mapping::conventional;
    sparing_scheme sparing = sparing_scheme::none;
    int sparing_range_cyl = 1;  // "Rangesize for sparing", scheme 8
    std::vector<zone_spec> zones;
};

enum class seek_type {
    constant,    // DiskSim "constant": one time for every non-zero seek
    linear,      // DiskSim "linear": single-cylinder, average and full-strobe, interpolated
    curve,       // DiskSim "curve": Lee's equation from single, average and full-strobe
    hpl,         // DiskSim "hpl": Ruemmler-Wilkes HPL six-value equation
    hplplus10,   // DiskSim "hplplus10": HPL beyond 10 cylinders, first-ten table below
    extracted,   // DiskSim "extracted": measured (distance, time) points, linear interpolation
    sqrt_linear, // a + b*sqrt(d) + c*d (parity-logging paper's IBM 0661 curve)
    two_piece,   // Ruemmler-Wilkes short/long: d < boundary ? a1 + b1*sqrt(d) : a2 + b2*d
};

struct seek_spec {
    seek_type type = seek_type::extracted;
    double single_cylinder_ms = 0;
    double average_ms = 0;
    double full_strobe_ms = 0;
    double constant_ms = 0;
    std::vector<std::pair<int, double>> curve;  // extracted: (distance_cyl, time_ms), ascending
    std::array<double, 6> hpl{};                // V1..V6
    std::array<double, 10> first_ten_ms{};      // seek times for 1..10 cylinders
    double a_ms = 0, b_ms = 0, c_ms = 0;        // sqrt_linear
    int boundary_cyl = 0;                       // two_piece
    double short_a_ms = 0, short_b_ms = 0, long_a_ms = 0, long_b_ms = 0;
    int cylinders = 0;                          // for linear/curve interpolation
};

enum class access_time_type { constant, average_rotation, track_switch_plus_rotation };

struct mech_spec {
    access_time_type access = access_time_type::track_switch_plus_rotation;
    double constant_access_ms = 0;
    seek_spec seek;
    double write_settle_ms = 0;
    double head_switch_ms = 0;
    double rpm = 0;
};

// DiskSim "Buffer continuous read".
enum class prefetch_scheme : int {
    none = 0,
    to_track_end = 1,
    to_cylinder_end = 2,
    to_segment_full = 3,
    next_track_if_sequential = 4,
};

struct cache_spec {
    bool enabled = true;                 // "Enable caching in buffer"
    int segments = 1;
    int segment_blocks = 0;
    int max_write_segments = 1;
    bool separate_write_segment = false;
    double low_water_mark = 0;           // fraction
    double high_water_mark = 0;          // fraction
    bool watermark_by_request_size = true;
    prefetch_scheme continuous_read = prefetch_scheme::none;
    int min_read_ahead_blocks = 0;
    int max_read_ahead_blocks = 0;
    bool read_ahead_over_requested = false;
    bool read_ahead_on_idle_hit = false;
    bool read_any_free_blocks = false;
    int fast_write_level = 0;
    bool immediate_buffer_read = false;  // zero-latency reads
    bool immediate_buffer_write = false; // zero-latency writes
    bool combine_seq_writes = false;
    bool stop_prefetch_in_sector = false;
    bool disconnect_write_if_seek = false;
    bool write_hit_stop_prefetch = false;
    bool read_directly_to_buffer = true;
    bool immediate_transfer_partial_hit = true;
    bool read_hits_on_write_data = false;
    bool allow_almost_read_hits = false;
    bool allow_sneaky_full_read_hits = false;
    bool allow_sneaky_partial_read_hits = false;
    bool allow_sneaky_intermediate_read_hits = false;
    bool allow_write_prebuffering = false;
};

struct overhead_spec {
    double per_request_ms = 0;
    double time_scale = 1.0;
    double read_hit_after_read_ms = 0;
    double read_hit_after_write_ms = 0;
    double read_miss_after_read_ms = 0;
    double read_miss_after_write_ms = 0;
    double write_hit_after_read_ms = 0;
    double write_hit_after_write_ms = 0;
    double write_miss_after_read_ms = 0;
    double write_miss_after_write_ms = 0;
    double read_completion_ms = 0;
    double write_completion_ms = 0;
    double data_preparation_ms = 0;
    double first_reselect_ms = 0;
    double other_reselect_ms = 0;
    double read_disconnect_after_read_ms = 0;
    double read_disconnect_after_write_ms = 0;
    double write_disconnect_ms = 0;
    bool extra_write_disconnect = false;
    double extradisc_command_ms = 0;
    double extradisc_disconnect_ms = 0;
    double extradisc_inter_disconnect_ms = 0;
    double extradisc_2nd_disconnect_ms = 0;
    double extradisc_seek_delta_ms = 0;
    double minimum_seek_delay_ms = 0;
};

// DiskSim ioqueue "Scheduling policy" numbers that the drive's own queue implements.
enum class drive_scheduling : int {
    fcfs = 1,
    elevator_lbn = 2,
    cycle_lbn = 3,
    sstf_lbn = 4,
};

struct interface_spec {
    double bulk_sector_transfer_ms = 0;  // drive's own bus rate per 512-byte sector
    // The host path's time per sector by direction when a DiskSim system configuration (.parv)
    // gives one (its buses' "Read/Write block transfer time"); 0 otherwise. Like DiskSim's
    // disk_get_blktranstime, the drive moves data at the slowest of these, its own rate and its link.
    double host_read_sector_ms = 0;
    double host_write_sector_ms = 0;
    // The host path's "Arbitration time" (summed over its buses) paid for the command and every
    // reselection, as DiskSim's bus_ownership_get does; 0 otherwise.
    double host_arbitration_ms = 0;
    bool hold_bus_entire_read = false;
    bool hold_bus_entire_write = false;
    bool never_disconnect = false;
    int preseeking_level = 0;
    int max_queue_length = 1;
    drive_scheduling scheduling = drive_scheduling::fcfs;
    // The initiator's queue in front of the drive (DiskSim's iodriver queue with "Use queueing in
    // subsystem" 1): commands beyond Max queue length wait there and go in in this order when a
    // slot frees. Not a drive parameter: set by the scenario (disks.host_queue_policy).
    drive_scheduling held_scheduling = drive_scheduling::fcfs;
};

struct disk_spec {
    std::string name;
    int surfaces = 0;
    int cylinders = 0;
    int64_t block_count = 0;  // capacity exported to the host
    layout_spec layout;
    mech_spec mech;
    cache_spec cache;
    overhead_spec overheads;
    interface_spec interface;
    // Source of every parameter by its DiskSim name ("Seek type", "Fast write level", ...),
    // for error messages raised after loading.
    std::map<std::string, source_location> origin;
    // Numeric DiskSim parameters that the loader recognises but that have no field above, by
    // DiskSim name ("Print stats", "Avg sectors per cylinder", "Calc sector by sector" and the
    // ioqueue's options other than "Scheduling policy", e.g. "Sequential stream scheme"), so the
    // drive can refuse values it does not model instead of ignoring them silently.
    std::map<std::string, double> other_params;

    std::string where(const std::string &param) const {
        auto it = origin.find(param);
        return it == origin.end() ? std::string("<built-in>") : it->second.str();
    }
};

}  // namespace raidtlm::disks
