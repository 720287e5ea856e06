// Everything that configures a controller: its hardware blocks (rtl_models) and its firmware.
// Plain data; testbench/scenario/scenario.h fills it from the `controller:` section of a scenario.
#pragma once

#include <cstdint>
#include <string>

#include "config/plugin_keys.h"
#include "controller/families/bricks/brick_role.h"
#include "controller/kit/queues/disk_scheduler.h"
#include "controller/kit/predict/head_position_predictor.h"
#include "controller/families/parity_logging/log_buffer_pool.h"
#include "controller/kit/host_address_map.h"
#include "controller/layouts/parity_layout.h"
#include "controller/kit/parity_write_plan.h"
#include "controller/kit/rebuild/rebuild_pacing.h"
#include "rtl_models/cpu/cpu_cost.h"
#include "rtl_models/memory/dram_arbiter.h"
#include "rtl_models/buses/host_link_timing.h"
#include "rtl_models/memory/nvram.h"
#include "rtl_models/buses/scsi_bus_timing.h"
#include "rtl_models/xor/xor_logic.h"

namespace raidtlm::controller {

// The redundancy scheme of the array the firmware builds over the disks: what the firmware
// families serve and the scenario checks judge by. Each built-in layout (make_layout.h) is the
// scheme of its name; a layout plug-in (plugins.h: layout_factory) names the scheme it implements,
// e.g. a declustered RAID 5 is raid5 (examples/declustered_raid5), and is served as one.
// floating: RAID 5 whose data and parity units float within their cylinder (floating_firmware.cpp).
// parity_logging: Stodolsky et al. parity logging (parity_logging_firmware.h).
// adaptraid5: heterogeneous RAID 5 (Cortes and Labarta; adaptraid5_layout.h), run by the RAID firmware.
enum class array_kind { raid0, raid1, raid10, raid4, raid5, sr_array, floating, parity_logging, adaptraid5, raid6 };
// Whether the members carry a superblock (member_superblock.h) at the end of each drive: every
// layout with redundancy, which must tell a swapped drive from a member before it rebuilds or
// serves it (issue 27). RAID 0 / JBOD keeps none: nothing can be rebuilt, and its address space
// stays the drives' whole capacity, as the minimal host adapter's.
inline bool layout_keeps_member_identity(array_kind a) { return a != array_kind::raid0; }
const char *to_string(array_kind k);

// Parity logging (Stodolsky et al.; controller/families/parity_logging/parity_logging_firmware.h). Defaults are the
// paper's: B from its search around sqrt(T*V/K) (about 100 regions per disk), C_L = C_P (A = 1),
// K = 1 track per log write, K*B track buffers in NVRAM, a global buffer pool, small writes
// preread the old data; L = 4 sublogs, where the paper finds striping stops paying (sec. 8).
struct parity_logging_config {
    int regions_per_disk = 0;       // B; 0 = the paper's search (+-10% around sqrt(T*V/K))
    int log_stripes = 4;            // L
    // Check images per big row and log copies (the parity logging paper's Section 9 at f = checks):
    // 1 = parity (RAID 5 rows, one log); 2 = P and Q (RAID 6 rows, the log on 2 copies); 3 = P, Q
    // and R (R = sum g^2j D_j, the log on 3 copies).
    int checks = 1;
    double log_to_parity = 1.0;     // A = C_L / C_P
    int log_write_tracks = 1;       // K
    int buffer_tracks = 0;          // NVRAM log buffers; 0 = K * B
    buffer_policy policy = buffer_policy::global;
    bool preread = true;            // false: old data cached (no preread; taken from the drive untimed)
    int64_t reintegration_buffer_sectors = 0;  // 0 = the region's parity size
    int64_t track_sectors = 0;      // 0 = the drives' outermost zone (disk_info::geometry)
    // Start each region's log at a uniformly random whole-track fill (steady_state_log_fill.h)
    // instead of empty; the pre-filled part holds no records (its sublog reads are timed, it adds
    // nothing to the parity). Seeded from the workload's seed.
    bool steady_state_start = false;
    uint64_t steady_state_seed = 1;
    // Test hook: on a data disk loss, discard the logs instead of applying them (parity stale), to
    // show the scoreboard catches it. Not a scenario key.
    bool discard_log_on_failure = false;
    // Test hook: false serves host requests without ordering overlapping ones (host_read_fence.h),
    // to show the test that needs the fence fails. Not a scenario key.
    bool read_fence = true;
};

struct firmware_config {
    // The firmware family by its registered name (plugins.h: raid, replicated, parity_logging,
    // floating, or a user's); empty: the family that serves `array` by default.
    std::string firmware;
    // The head-position predictor plug-in for rotation-aware schedulers (plugins.h).
    std::string predictor_plugin = "head_position";
    // raid0 with layout jbod concatenates the disks; every other kind stripes (RAID 1 mirrors
    // whole disks).
    host_layout layout = host_layout::stripe;
    uint64_t stripe_unit_sectors = 64;
    // controller.layout: the layout's registered name (plugins.h: layout_registry) and the
    // scheme it implements. Empty name: the built-in layout of `array` (code that sets `array`
    // alone, e.g. the tests' benches).
    std::string array_layout;
    array_kind array = array_kind::raid0;
    int mirror_copies = 2;  // raid10
    // sr_array: the SR-Mirror family Ds x Dr x Dm (sr_mirror_layout.h) on the drives' geometry;
    // reads go to one replica (rsatf/rlook pick among the Dr on a disk at dispatch), writes as
    // for every replicated layout (delayed_writes below).
    int sr_ds = 1, sr_dr = 1, sr_dm = 1;
    parity_placement parity_rotation = parity_placement::left_symmetric;  // raid5
    // floating: the checks per stripe. 1: P, RAID 5 (floating_firmware); 2: P and Q, RAID 6
    // (floating_raid6_firmware), the parity logging paper's Section 9 "floating data and check";
    // 3: P, Q and R over the triple-check layout (its f = 3).
    int floating_checks = 1;
    // raid6: the checks per stripe. 2: P and Q; 3: P, Q and R = sum g^(2j) D_j (pq_parity.h), three
    // failures survived (the parity logging paper's Section 9 RAID 5 extended to f = 3).
    int raid6_checks = 2;
    parity_logging_config parity_logging;                                  // parity_logging
    // RAID 4/5 small writes: read-modify-write or reconstruct-write (threshold); read-modify-write
    // as separate read and write commands, or (read_rotate_write) as one read-rotate-write command
    // per disk (controller_top::rrw_stripe_write: the parity XOR modelled on the drive side).
    parity_write_policy parity_writes{0.5, false};
    // Read-rotate-write stripes (rmw read_rotate_write, floating): false sends the data disks' and
    // the parity disk's commands together; true sends the parity disk's only when the data disks'
    // are back (the parity logging paper's Section 8: a RAID 5 small write "completes two slow
    // read-rotate-write accesses sequentially", footnote 9).
    bool rrw_parity_after_data = false;
    // Read-rotate-write stripes: the old data of a small write is in the controller's cache (the
    // parity logging paper's "data cache hit", Figure 23(c) and Figure 27): the data disks get a
    // plain write, only the parity disk a read-rotate-write (floating: the data unit is rewritten
    // in place, the parity floats).
    bool old_data_cached = false;
    // Which waiting command of a disk's firmware queue gets the next free tag: fcfs, sstf, look,
    // c_look or cvscan (the head taken where the disk's last command ended, on the firmware's copy
    // of the geometry: disk_info::geometry). Each decision costs schedule_cycles(entries examined).
    // satf: shortest predicted access time first, from a head_position_predictor per disk
    // that calibrates on reference reads and sees only status times of its own clock; with
    // tags_per_disk 0 the firmware keeps one command at each drive (a known head).
    scheduling_policy scheduler = scheduling_policy::fcfs;
    // A scheduler plug-in by its registered name (plugins.h); empty: the built-in `scheduler`.
    std::string scheduler_plugin;
    double cvscan_r = 0.2;
    // The predictor's configuration (satf): model error, slack, reference-read calibration.
    head_position_predictor::config predictor;
    // Commands the firmware keeps outstanding at each drive (SCSI tagged queueing); 0: the drive's
    // own "Max queue length". More wait in the firmware's per-disk queue.
    int tags_per_disk = 0;
    // Before a write goes to the disks the firmware records it in NVRAM (a table update and an
    // NVRAM write of intent_record_bytes) and clears the record when the write is done, so after
    // a power loss the records name the writes that may be torn.
    bool write_intent_log = true;
    // Each table update also writes this many bytes of the request table in buffer DRAM (CPU port).
    uint32_t table_entry_bytes = 64;
    // Fault injection: disk `fail_disk` (-1: none) is marked lost when host request number
    // `fail_after_requests` arrives (controller_top::set_failed_disk). Parity logging drains the
    // requests in flight first; RAID 4/5 and mirrors take it as it comes.
    int fail_disk = -1;
    uint64_t fail_after_requests = 0;
    // A rebuild onto a replacement drive (firmware::start_rebuild): how fast against foreground I/O.
    rebuild_pacing rebuild;
    // Writes to replicated layouts (raid1, raid10, sr_array with Dr*Dm > 1), Yu et al. 3.4: the
    // first copy is scheduled like a read (any holder, duplicated into every holder's queue when
    // all are busy); when it is scheduled the other copies become delayed writes in the NVRAM
    // delayed-write table (delayed_write_table.h), written when their disk's foreground queue is
    // empty; the host is acknowledged when the first copy is on disk and the table entry in
    // NVRAM; the data buffer stays allocated until the last copy is written.
    struct delayed_write_config {
        bool foreground_propagation = false;  // true: every copy written before the acknowledgement
        size_t threshold_entries = 10000;     // forced to the foreground at this many entries (paper)
        // Delayed copies queued towards one disk at once when they cannot wait for it to be idle
        // (after a power loss; past the threshold), where the scheduler picks among them
        // (firmware_keys.cpp).
        size_t foreground_copies_per_disk = 32;
        // One table entry in NVRAM: logical LBN (8), sectors (4), disk and copy of the first
        // write (2 + 2): the paper keeps only the first write's physical location.
        uint32_t entry_bytes = 16;
    } delayed_writes;
};

struct controller_config {
    int channels = 1;       // SCSI buses; drive i sits on channel i mod channels
    int initiator_id = 7;   // the controller's SCSI ID on every bus (7: the highest priority)
    rtl_models::cpu_config cpu;
    rtl_models::scsi_bus_config bus = rtl_models::scsi_bus_config::with_preset(rtl_models::scsi_preset::ultra160);
    rtl_models::dram_config dram;
    rtl_models::nvram_config nvram;
    rtl_models::xor_config xor_engine;
    rtl_models::host_link_config host_link;
    firmware_config firmware;
    // The keys of plug-in sections (config/plugin_keys.h): a firmware registered with keys of its
    // own reads them here, `plugins.get<its_config>("controller.its_name")`.
    config::plugin_values plugins;
    // A storage brick's place on the network (brick firmware only; brick_role.h).
    brick_role brick;
};

// SCSI IDs given to the drives of a channel, in order: 0, 1, 2, ... skipping the initiator's.
int target_id(int position_on_channel, int initiator_id);
// How many drives fit on one bus of this width beside the initiator.
inline int max_targets(int width_bits) { return width_bits - 1; }

}  // namespace raidtlm::controller
