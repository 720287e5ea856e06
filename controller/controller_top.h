// The RAID controller: its hardware blocks wired together (rtl_models: CPU, buffer DRAM, NVRAM,
// XOR engine, host link, one SCSI bus per channel) and a firmware driven by a controller::layout
// (RAID 0/1/10/4/5, or JBOD; docs/ARCHITECTURE.md "The layout-driven firmware"):
//
//   host command -> CPU: host_command -> buffer allocated in DRAM (waits when full)
//   write: CPU: table_update + NVRAM write-intent record; CPU: dma_setup; host link DMA into the buffer
//   per disk piece, in parallel (RAID 4/5 writes: per stripe, reads -> XOR engine -> writes):
//        a tag for the disk (firmware queue per disk, order by controller.scheduler) ->
//        CPU: schedule (a + b*n over the disk's queue) + physical_command + dma_setup ->
//        SCSI select over the drive's channel -> the drive (disconnects, reselects, data phases
//        drained by the channel's DMA into/out of the buffer) -> status -> CPU: completion_interrupt
//   read: CPU: dma_setup; host link DMA out of the buffer
//   CPU: table_update (+ request table entry in DRAM), intent record cleared, buffer freed -> done
//
// Replicated layouts (RAID 1/10, SR-Array) read from one holder (the idle one closest to a copy,
// else duplicated into every holder's queue and cancelled on the others when one disk picks
// it) and write the first copy the same way; the other copies are delayed writes in the NVRAM
// delayed-write table (controller_config delayed_writes), the buffer kept until they are written.
//
// Every step is charged on the block that does it, so the blocks contend with each other and the
// firmware with itself; a step that costs nothing adds no kernel event. Data tokens go host ->
// buffer -> drive and back, so a read returns what was written.
//
// Sockets: `host` takes host commands (generic payload + protocol::scsi_command with a host LBN
// range, data_length = sectors * 8 for tokens or 0); `disk[i]` is bound to drive i's target and
// drive i's own bus socket to `disk_bus[i]` (both lead to the SCSI bus of the drive's channel).
// The response is TLM_OK_RESPONSE when every piece succeeded; a range beyond the capacity gets
// TLM_ADDRESS_ERROR_RESPONSE, a payload without scsi_command TLM_GENERIC_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "controller/controller_config.h"
#include "controller/delayed_write_table.h"
#include "controller/duplicate_request_tracker.h"
#include "controller/host_address_map.h"
#include "controller/layout.h"
#include "controller/parity_layout.h"
#include "controller/parity_write_plan.h"
#include "controller/parity_logging_firmware.h"
#include "controller/prediction_statistics.h"
#include "controller/queued_request.h"
#include "controller/scoreboard.h"
#include "controller/worker_pool.h"
#include "controller/write_order_guard.h"
#include "disks/disk_layout.h"
#include "rtl_models/buffer_dram.h"
#include "rtl_models/controller_cpu.h"
#include "rtl_models/host_link.h"
#include "rtl_models/nvram.h"
#include "rtl_models/scsi_bus.h"
#include "rtl_models/scsi_channel.h"
#include "rtl_models/xor_engine.h"
#include "tlm/payload_pool.h"

namespace raidtlm::controller {

// A drive as the controller sees it.
struct disk_info {
    uint64_t capacity_blocks = 0;
    int max_queue_length = 1;  // the drive's own command queue
    // The drive's spec, for the firmware's copy of its geometry (needed by every scheduler but
    // fcfs); must outlive the controller's construction.
    const disks::disk_spec *geometry = nullptr;
    // The spindle phase calibration measured (revolutions), for the head-position predictor.
    double spindle_phase = 0;
};

// What the firmware knows about a write in flight, as kept in NVRAM.
struct intent_record {
    static constexpr uint32_t magic_value = 0x4e544e49;  // "INTN"
    uint32_t magic = magic_value;
    uint32_t valid = 1;
    uint64_t lbn = 0;
    uint32_t sectors = 0;
    uint32_t reserved = 0;
    uint64_t sequence = 0;
};

struct controller_statistics {
    uint64_t requests = 0;
    uint64_t physical_commands = 0;
    rtl_models::wait_stats tag_wait;  // a piece waiting in the firmware's per-disk queue
    int peak_outstanding = 0;
    // RAID 4/5: stripe writes by path (indexed by write_path), reads of a lost disk's data rebuilt.
    uint64_t stripe_writes[3] = {0, 0, 0};
    uint64_t rebuilt_reads = 0;
    uint64_t degraded_stripe_writes = 0;
    uint64_t read_rotate_writes = 0;  // drive commands issued as read-rotate-write
    // floating: units moved to a free slot, the rotational wait to it (revolutions, summed), moves
    // that needed a head switch, units rewritten in place (cylinder full), the mapping tables' bits.
    uint64_t floating_moves = 0;
    double floating_wait_revolutions = 0;
    uint64_t floating_head_switches = 0;
    uint64_t floating_in_place = 0;
    uint64_t floating_table_bits = 0;
    // satf: predicted vs actual access time of every command that reached the media (all disks).
    prediction_statistics prediction;
    double slack_sectors_sum = 0;  // the predictors' slack at each recorded command
    // Replicated layouts: the delayed-write table (controller_config delayed_writes).
    uint64_t delayed_writes_issued = 0;      // propagations sent to a drive (delayed or forced)
    uint64_t delayed_writes_superseded = 0;  // pending entries (or parts) dropped by a newer write
    uint64_t delayed_writes_forced = 0;      // propagations forced to the foreground at the threshold
    size_t peak_table_entries = 0;
    int64_t peak_buffered_sectors = 0;       // sectors of data the table's entries keep in buffer DRAM
    // Requests queued on every holder's disk (mirror reads, first writes) and the copies cancelled.
    uint64_t duplicated_requests = 0;
    uint64_t cancelled_duplicates = 0;
    uint64_t reference_reads = 0;    // the predictor's re-anchoring reads
    uint64_t recovered_copies = 0;   // stale copies rewritten by power_restore_and_recover()
};

class controller_top : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<controller_top> host;
    sc_core::sc_vector<tlm::tlm_initiator_socket<>> disk;
    sc_core::sc_vector<tlm::tlm_target_socket<>> disk_bus;

    controller_top(sc_core::sc_module_name name, const controller_config &config, const std::vector<disk_info> &disks);
    ~controller_top() override;

    const controller_config &config() const { return m_config; }
    const host_address_map &address_map() const { return m_map; }
    uint64_t capacity_sectors() const { return m_capacity; }
    // The array's address map (nullptr for a JBOD concatenation, which uses address_map()).
    const layout *array_layout() const { return m_layout.get(); }
    // Every host read carrying tokens is checked against every acknowledged write.
    const scoreboard &integrity() const { return m_scoreboard; }
    // Marks a disk lost (-1: none): reads avoid it (mirrors: another replica; RAID 4/5: rebuilt
    // from the rest of the stripe through the XOR engine); writes skip it (RAID 4/5: the parity
    // is computed from the whole rows, the lost disk's old contents rebuilt first). There is no
    // rebuild: marking the disk live again exposes what it missed.
    void set_failed_disk(int d) { m_failed = d; }
    int failed_disk() const { return m_failed; }
    // Maintenance access to one drive's sectors through the controller's channel (timed, blocks
    // the calling SC_THREAD), bypassing the array map, the parity and the scoreboard: for tests
    // that inspect or corrupt what is on a disk. `tokens` holds `sectors` tokens.
    bool raw_disk_io(bool read, int disk, uint64_t lbn, uint32_t sectors, uint64_t *tokens);
    int channel_of(int disk) const;
    int target_id_of(int disk) const;
    int tags_of(int disk) const;

    rtl_models::controller_cpu &cpu() { return *m_cpu; }
    rtl_models::buffer_dram &dram() { return *m_dram; }
    rtl_models::nvram &nvram() { return *m_nvram; }
    rtl_models::xor_engine &xor_unit() { return *m_xor; }
    rtl_models::host_link &link() { return *m_link; }
    rtl_models::scsi_bus &bus(int channel) { return *m_buses.at(size_t(channel)); }
    const rtl_models::controller_cpu &cpu() const { return *m_cpu; }
    const rtl_models::buffer_dram &dram() const { return *m_dram; }
    const rtl_models::nvram &nvram() const { return *m_nvram; }
    const rtl_models::xor_engine &xor_unit() const { return *m_xor; }
    const rtl_models::host_link &link() const { return *m_link; }
    const rtl_models::scsi_bus &bus(int channel) const { return *m_buses.at(size_t(channel)); }
    int channels() const { return int(m_buses.size()); }

    // XOR of `inputs` into `output` over `sectors` sectors on the XOR engine, after the CPU has
    // set it up (xor_setup). For firmware that keeps parity; blocks the calling SC_THREAD.
    void xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                    uint64_t sectors, int affinity = 0);

    // Power loss: the firmware stops (requests in flight never complete), the buffer DRAM's
    // contents are lost, the NVRAM keeps its contents. intent_log() then reads what survived.
    void power_fail();
    // Power back (call from an SC_THREAD, once the drives have finished what they were doing):
    // the firmware restarts with empty queues and an empty buffer DRAM; what survives is NVRAM,
    // so the delayed-write table drives recovery: every copy it lists as not yet written is
    // rewritten from its first write's location (read, then written). Returns how many copies
    // the table named stale; returns when they are all written. Replicated layouts without the
    // table (foreground propagation) resync instead the ranges of the intent records (writes in
    // flight at the loss) from their first live copy and return the copies rewritten. The intent
    // records of replicated layouts are cleared; RAID 4/5 keeps them (no parity resync yet).
    size_t power_restore_and_recover();
    bool powered() const { return m_powered; }
    // The NVRAM delayed-write table (nullptr unless the layout is replicated and propagation delayed).
    const delayed_write_table *delayed_writes() const { return m_table.get(); }
    std::vector<intent_record> intent_log() const;

    // controller.layout parity_logging: its firmware (statistics, lose_controller_state); else nullptr.
    parity_logging_firmware *parity_logging() { return m_plog.get(); }
    const parity_logging_firmware *parity_logging() const { return m_plog.get(); }

    int outstanding() const { return m_outstanding; }
    const controller_statistics &statistics() const { return m_stats; }
    // Restarts every block's statistics (at the end of a warm-up).
    void reset_statistics();
    // Adds every block's signals under `prefix`: <prefix>.outstanding, <prefix>.cpu.*,
    // <prefix>.dram.*, <prefix>.nvram.* (with delayed writes: <prefix>.nvram.delayed_entries),
    // <prefix>.xor.*, <prefix>.host_link.*, <prefix>.chN.*.
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    friend class parity_logging_firmware;  // its paths use disk_io, parallel, the locks and the blocks
    // A disk holding a copy of a chunk, with the placements there that can serve it.
    struct holder {
        int disk = 0;
        std::vector<placement> choices;
    };
    struct grant {
        size_t holder = 0, placement = 0;
        uint64_t n = 1;  // entries the scheduling decision examined
    };
    // A host write's buffer kept for its delayed copies.
    struct held_buffer {
        protocol::buffer_block *buffer = nullptr;
        uint64_t lbn = 0;  // the host write's first logical sector (offset 0 in the buffer)
        bool acknowledged = false;
        int in_flight = 0;  // propagations handed out and not yet done
    };
    struct disk_state;
    SC_HAS_PROCESS(controller_top);
    // satf, rlook, rsatf with predictor.reference_interval_ms > 0: a disk idle that long after
    // its last command gets a read of its reference sector, from which its predictor re-anchors
    // the phase and re-measures the period (Yu et al. 3.2's head tracking).
    void reference_reader();
    struct piece_job;

    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    // One drive command: `sectors` at drive LBN `lbn`, data into/out of `buffer` from
    // `first_sector`; the drive's timing is copied to `timing_to` when given.
    // `old_tokens` set: a WRITE issued as one read-rotate-write, the sectors' previous tokens
    // returned there (resized to `sectors`; left empty when the buffer carries no tokens).
    bool disk_io(tlm::tlm_command command, int disk, uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer,
                 uint64_t first_sector, protocol::scsi_command *timing_to, std::vector<uint64_t> *old_tokens = nullptr,
                 const std::vector<placement> *choices = nullptr, size_t *chosen = nullptr,
                 int64_t relocate_lbn = -1);
    // relocate_lbn >= 0: a read-rotate-write that writes there (floating); raw_drive_lbn: `lbn` is
    // a drive LBN as it is (raw_disk_io), not translated through floating's maps.
    static constexpr int64_t raw_drive_lbn = -2;
    // floating (floating_firmware.cpp): the per-disk maps; a logical drive LBN -> where it is now;
    // a read-modify-write stripe as two relocating read-rotate-writes.
    struct floating_state;
    void init_floating(const std::vector<disk_info> &disks);
    uint64_t floating_lbn(int disk, uint64_t lbn, uint32_t sectors) const;
    bool floating_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer,
                               int affinity);
    // The drive command itself, on a tag already granted (`n`: entries its decision examined);
    // the caller releases the tag.
    bool drive_command(tlm::tlm_command command, int disk, uint64_t n, uint64_t lbn, uint32_t sectors,
                       protocol::buffer_block *buffer, uint64_t first_sector, protocol::scsi_command *timing_to,
                       std::vector<uint64_t> *old_tokens = nullptr, int64_t relocate_lbn = -1);
    // Replicated layouts' reads: each run of chunks to one holder (the idle one closest to a copy,
    // else duplicated into every holder's queue), the replica on it picked at dispatch.
    // With the delayed-write table, `logical` receives the request's tickets in the logical
    // order (m_logical), which b_transport releases once the read is checked or the write
    // acknowledged.
    // `buffer_lbn`: the logical sector at offset 0 of `buffer` (default: lbn).
    bool replicated_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, protocol::scsi_command *timing,
                         std::vector<uint64_t> *logical, uint64_t buffer_lbn = UINT64_MAX);
    // Replicated layouts' writes through the delayed-write table; `owner` names the buffer.
    bool replicated_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, uint64_t owner, int affinity,
                          std::vector<uint64_t> *logical);
    // One run of a replicated write: its first copy, the table entry, the acknowledgement order.
    bool write_run(const chunk &c, uint64_t host_lbn, protocol::buffer_block *buffer, uint64_t owner, int affinity,
                   std::vector<uint64_t> *logical, uint64_t epoch);
    // The layout's chunks of a range, consecutive ones merged where every copy continues on its disk.
    void runs_of(uint64_t lbn, uint32_t sectors, std::vector<chunk> &out) const;
    void holders_of(const chunk &c, std::vector<holder> &out) const;
    // A tag on one of the holders: an idle one closest to its copy at once, else one with a free
    // tag, else the request is queued on every holder and the first disk to schedule it wins.
    grant acquire_any(const std::vector<holder> &holders, bool write);
    // Delayed writes of disk d while its foreground queue is empty and a tag is free.
    void serve_delayed(int d);
    void run_propagation(propagation p, bool have_tag);
    void after_table_change();
    // Copies every live replica of [lbn, lbn + sectors) from the first one; returns copies written.
    size_t resync_copies(uint64_t lbn, uint32_t sectors);
    std::vector<std::pair<int64_t, intent_record>> intent_records() const;  // by NVRAM address
    void try_free(uint64_t owner);
    // Blocks until no earlier write to the same sectors of its disk is in the guard.
    void wait_turn(uint64_t ticket, uint64_t epoch);
    void check_power(uint64_t epoch);
    // The calling thread works for power epoch `epoch`: check_power() stops it once the epoch is
    // over (a power loss and restore), wherever it was waiting meanwhile.
    void join_epoch(uint64_t epoch);
    // Runs job(0) .. job(n-1) in parallel (job 0 in the calling thread); true when all returned true.
    bool parallel(size_t n, const std::function<bool(size_t)> &job);
    bool run_fragments(tlm::tlm_generic_payload &host_trans, const std::vector<disk_fragment> &pieces,
                       protocol::buffer_block *buffer);
    // Host range -> drive commands of a layout without parity: RAID 0, and writes to every copy
    // of a replicated layout under foreground propagation (reads: the first live replica).
    void fragments_of(bool write, uint64_t lbn, uint32_t sectors, std::vector<disk_fragment> &out) const;
    bool parity_write(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    bool stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity);
    // Read-modify-write as one read-rotate-write per disk (controller.rmw: read_rotate_write).
    bool rrw_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer, int affinity);
    bool degraded_stripe_write(const stripe_write_plan &plan, uint64_t lbn, protocol::buffer_block *buffer,
                               int affinity);
    bool degraded_read(uint64_t lbn, uint32_t sectors, protocol::buffer_block *buffer, int affinity);
    void lock_stripe(int64_t stripe);
    void unlock_stripe(int64_t stripe);
    // `choices` set: the command may be served by any of these placements (their first extents);
    // the one picked goes to *chosen.
    uint64_t acquire_tag(int d, uint64_t lbn, uint32_t sectors, bool write,
                         const std::vector<placement> *choices = nullptr, size_t *chosen = nullptr);
    void release_tag(int d);
    scheduling_decision choose(disk_state &ds);
    void host_dma(tlm::tlm_generic_payload &host_trans, protocol::buffer_block *buffer, uint64_t bytes, int affinity);
    void table_update(int affinity);
    int64_t log_intent(uint64_t lbn, uint32_t sectors, uint64_t seq, int affinity);
    void clear_intent(int64_t address);
    // A timed NVRAM write.
    void nvram_write(uint64_t address, const void *data, unsigned bytes);
    // After a power loss a firmware thread stops here for good.
    void check_power();

    controller_config m_config;
    host_address_map m_map;
    std::unique_ptr<layout> m_layout;
    const parity_layout *m_parity = nullptr;  // m_layout when it is RAID 4/5
    bool m_replicated_reads = false;           // sr_array: reads through replicated_read
    uint64_t m_capacity = 0;
    int m_failed = -1;
    scoreboard m_scoreboard;
    struct stripe_lock {
        bool held = false;
        std::deque<sc_core::sc_event *> waiting;
    };
    std::map<int64_t, stripe_lock> m_stripe_locks;
    std::unique_ptr<rtl_models::controller_cpu> m_cpu;
    std::unique_ptr<rtl_models::buffer_dram> m_dram;
    std::unique_ptr<rtl_models::nvram> m_nvram;
    std::unique_ptr<rtl_models::xor_engine> m_xor;
    std::unique_ptr<rtl_models::host_link> m_link;
    std::vector<std::unique_ptr<rtl_models::scsi_bus>> m_buses;
    std::vector<std::unique_ptr<rtl_models::scsi_channel>> m_channels;
    std::vector<disk_state> m_disk;
    std::vector<std::unique_ptr<disks::disk_layout>> m_geometries;  // one per distinct spec
    int m_cpu_port = 0;
    // Sockets from the firmware to the blocks.
    tlm_utils::simple_initiator_socket<controller_top> m_to_link{"to_link"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_xor{"to_xor"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_nvram{"to_nvram"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_dram{"to_dram"};
    protocol::payload_pool m_pool;
    // Reused objects (no allocation per request once grown to the peak in flight).
    template <class T>
    struct reuse {
        std::vector<std::unique_ptr<T>> all;
        std::vector<T *> idle;
        T &get() {
            if (idle.empty()) {
                all.push_back(std::make_unique<T>());
                if constexpr (std::is_same_v<T, tlm::tlm_generic_payload>)
                    all.back()->set_extension(new protocol::dma_command);
                return *all.back();
            }
            T *t = idle.back();
            idle.pop_back();
            return *t;
        }
        void put(T &t) { idle.push_back(&t); }
    };
    reuse<tlm::tlm_generic_payload> m_dma_payloads;  // each with a dma_command extension
    worker_pool m_workers;
    bool m_powered = true;
    uint64_t m_epoch = 0;  // power cycles: a thread from before the last power loss stops
    std::unordered_map<const sc_core::sc_object *, uint64_t> m_thread_epoch;
    std::unique_ptr<delayed_write_table> m_table;
    int64_t m_nvram_table_base = -1;  // the table's region in NVRAM
    uint64_t m_nvram_slot = 0;
    uint64_t m_superseded_base = 0, m_forced_base = 0;
    std::map<uint64_t, held_buffer> m_held;  // by owner
    duplicate_request_tracker m_dups;
    uint64_t m_next_dup = 1;
    write_order_guard m_guard;    // per disk: writes (and reads) reach a copy in order
    write_order_guard m_logical;  // all disks as one: acknowledgements in the write order
    sc_core::sc_event m_guard_changed;
    sc_core::sc_event m_table_changed;
    sc_core::sc_event m_disk_activity;  // a drive command completed
    int m_table_entries = 0;            // traced: the delayed-write table's entries
    worker_pool::group m_background;  // propagations (nobody waits for them)
    sc_core::sc_event m_never;
    sc_core::sc_event m_nvram_space;
    uint64_t m_sequence = 0;
    int m_outstanding = 0;  // traced
    controller_statistics m_stats;
    std::unique_ptr<floating_state> m_floating;
    std::unique_ptr<parity_logging_firmware> m_plog;  // after every block it uses
};

}  // namespace raidtlm::controller
