// The firmware API: everything a controller firmware can do and see on the modelled controller
// platform (controller_top), and nothing more. docs/FIRMWARE.md walks through it.
//
// A firmware is a `firmware` (below), created by name from the firmware registry
// (firmware_registry.h) with a `firmware_platform &`. The platform calls `serve()` once per host
// command, on the SystemC thread of that command (the host's b_transport); everything the
// firmware does there takes simulated time on the blocks that do it:
//
//   the CPU        cpu_run / cpu_run_priced: cycles by task (rtl_models/cpu/cpu_cost.h), on a core
//                  chosen by `affinity` (per_core scheduling)
//   buffer DRAM    allocate_buffer / free_buffer (waits while the buffer is full);
//                  request_table_write (the CPU's request-table traffic)
//   host link      host_dma: the host command's data into or out of a buffer
//   XOR engine     xor_blocks; gf_blocks (its GF(2^8) multiply-accumulate mode: RAID 6's Q)
//   NVRAM          nvram_allocate / nvram_release / nvram_write, nvram_read (timed) / nvram_peek (untimed, the
//                  firmware reading its own non-volatile memory after a restart)
//   SCSI channels  drive_command: one command to one drive, returns its completion: status, the
//                  data (tokens in the buffer; for a read-rotate-write the old tokens) and three
//                  controller-side times: when the channel chip had delivered the command
//                  (selection and CDB done), when it saw the status, and when the completion was
//                  taken (after the channel's DMA drained the data and the completion interrupt
//                  ran on the CPU)
//   time, threads  now_ms; sc_core::wait on the firmware's own events and timers; parallel (jobs
//                  on the platform's worker pool, the caller waits) and run_background
//   network        network(): a storage brick's port on the switched network (or none)
//   power          a platform service returns only while the power stays on: after a power
//                  loss the calling thread stops there for good. power_epoch / check_power
//                  let a thread that waits on the firmware's own events stop the same way.
//
// What firmware sees of a drive is what a real controller's firmware sees: the datasheet facts
// (disk_info: capacity, queue length, the published geometry), the status of its commands, the
// data they return and the times its own hardware observed (drive_completion). The drive's
// internal timing (seek, rotation, media times, where the head ended, its spindle's phase) is
// not part of a completion: it feeds statistics and waves on the platform side (prediction
// probe: firmware attaches its predicted access time to a command, the platform compares).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "controller/firmware_api/member_states.h"
#include "controller/firmware_api/member_superblock.h"
#include "controller/layouts/layout.h"
#include "rtl_models/cpu/cpu_routine.h"
#include "tlm/dma_command.h"
#include "tlm/scsi_command.h"

// Named here, defined where they live: a firmware that reads them includes their headers
// (controller_config.h, disks/disk_spec.h, rtl_models/network/network_interface.h), so this
// header stays the narrow interface it describes.
namespace raidtlm::disks {
struct disk_spec;
}
namespace raidtlm::rtl_models {
class network_port;
}

namespace raidtlm::controller {

struct controller_config;

// A drive as the controller's firmware knows it: its datasheet.
struct disk_info {
    uint64_t capacity_blocks = 0;
    int max_queue_length = 1;  // the drive's own command queue
    // The drive's spec, for the firmware's copy of its geometry (needed by every scheduler but
    // fcfs); must outlive the controller's construction.
    const disks::disk_spec *geometry = nullptr;
};

// One host command as the firmware receives it. The host's data move only by host_dma.
struct host_command {
    uint64_t lbn = 0;
    uint32_t sectors = 0;
    bool write = false;
    bool carries_tokens = false;  // the host sends/expects data tokens (else timing only)
    uint64_t sequence = 0;        // host commands counted from 0 (since power-on)
    int affinity = 0;             // a core hint for per_core CPU scheduling
    void *platform_handle = nullptr;  // the platform's; firmware passes it back untouched
    // A piece of a larger host command (firmware_kit::serve_pieces): where its data start in the
    // host's transfer; host_dma moves this command's sectors from there.
    uint64_t host_offset_sectors = 0;
    uint64_t bytes() const { return uint64_t(sectors) * protocol::sector_bytes; }
};

// One SCSI command to one drive.
struct drive_request {
    bool write = false;
    int disk = 0;
    uint64_t lbn = 0;  // drive LBN
    uint32_t sectors = 0;
    protocol::buffer_block *buffer = nullptr;  // data from/into here (nullptr: no data)
    uint64_t first_sector = 0;                 // the sectors' place in `buffer`
    // A WRITE issued as one read-rotate-write: the sectors' previous tokens returned here.
    std::vector<uint64_t> *old_tokens = nullptr;
    int64_t relocate_lbn = -1;  // a read-rotate-write whose write goes there (>= 0)
    // A READ with FUA (Force Unit Access): from the media even when the drive's cache holds the
    // sectors (reference reads for spindle calibration).
    bool force_unit_access = false;
    // The firmware's predicted access time (seek + rotational wait) and its revolution period
    // estimate, for the platform's prediction probe (NaN: no prediction).
    double predicted_access_ms = std::nan("");
    double predicted_period_ms = 0;
    // The firmware's own member metadata (member_superblock.h): sent to the drive in a slot even
    // when the member is failed (the drive there may be a new one); fails only when no drive answers.
    bool member_metadata = false;
};

struct drive_completion {
    bool ok = false;
    bool medium_error = false;  // CHECK CONDITION, sense key MEDIUM ERROR: the sectors are unreadable
    // The controller's own clock, as its SCSI channel chip and CPU observed the command (ms):
    double delivered_ms = 0;  // selection and CDB done: the command was at the drive
    double status_ms = 0;     // the status phase ended (before the DMA drained the data)
    double observed_ms = 0;   // the completion taken: DMA drained, completion interrupt run
};

// What firmware can do: the services of the controller platform.
class firmware_platform {
public:
    virtual ~firmware_platform() = default;

    // ---- facts
    virtual const controller_config &config() const = 0;
    virtual int disk_count() const = 0;
    virtual const disk_info &drive_info(int d) const = 0;
    virtual int channel_of(int d) const = 0;
    // ---- members (member_states.h): each disk of the array is optimal, failed (lost: the
    // platform fails its commands at once, as a drive that no longer answers selection) or
    // rebuilding (a fresh drive in the slot whose contents are not yet the member's: the
    // firmware said so in start_rebuild and tells the platform when it is done: member_rebuilt).
    virtual member_state member_state_of(int disk) const = 0;
    // How many times member `disk` has been lost so far (the platform told the firmware each
    // time). A drive command or a plan made before the count moved was about a drive that is gone:
    // its data cannot be trusted, even if a fresh drive now sits in the slot.
    virtual uint64_t member_losses(int disk) const = 0;
    // The same over every member: whether any member was lost since.
    uint64_t member_losses() const {
        uint64_t n = 0;
        for (int d = 0; d < disk_count(); ++d) n += member_losses(d);
        return n;
    }
    // Members in state failed, ascending (rebuilding members are not among them).
    std::vector<int> failed_disks() const {
        std::vector<int> out;
        for (int d = 0; d < disk_count(); ++d)
            if (member_state_of(d) == member_state::failed) out.push_back(d);
        return out;
    }
    // The lowest failed member (-1: none): for firmware that tolerates one loss.
    int failed_disk() const {
        for (int d = 0; d < disk_count(); ++d)
            if (member_state_of(d) == member_state::failed) return d;
        return -1;
    }
    // The firmware finished rebuilding `disk`: rebuilding -> optimal.
    virtual void member_rebuilt(int disk) = 0;
    // The firmware's rebuild progress of `disk` (0..1 of the member), for statistics and waves.
    virtual void rebuild_progress(int disk, double fraction) = 0;
    virtual double now_s() const = 0;
    double now_ms() const { return now_s() * 1e3; }

    // ---- CPU
    virtual const rtl_models::cpu_cost_table &cpu_costs() const = 0;
    virtual void cpu_run(std::initializer_list<rtl_models::cpu_step> steps, int affinity) = 0;
    void cpu_run_priced(rtl_models::cpu_task task, int affinity) {
        cpu_run({{task, cpu_costs().cycles(task)}}, affinity);
    }

    // ---- buffer DRAM
    virtual protocol::buffer_block *allocate_buffer(uint64_t bytes, uint64_t token_sectors) = 0;
    virtual void free_buffer(protocol::buffer_block *b) = 0;
    // The CPU's write of `bytes` of request table into the buffer DRAM (its own port).
    virtual void request_table_write(uint32_t bytes) = 0;

    // ---- host link: the command's data into (write) or out of (read) `buffer`
    // `first_sector`: where in `buffer` the command's data start (a read served from a buffer
    // that holds more than the command, such as read-ahead data).
    virtual void host_dma(const host_command &cmd, protocol::buffer_block *buffer, uint64_t first_sector) = 0;
    void host_dma(const host_command &cmd, protocol::buffer_block *buffer) { host_dma(cmd, buffer, 0); }

    // ---- XOR engine: XOR of `inputs` into `output` over `sectors` sectors
    virtual void xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                            uint64_t sectors) = 0;
    // The engine's GF(2^8) multiply-accumulate mode: output = sum of coefficients[k] x inputs[k]
    // (byte lanes; rtl_models/xor/gf256.h), one coefficient per input.
    virtual void gf_blocks(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                           const protocol::buffer_ref &output, uint64_t sectors) = 0;

    // ---- NVRAM
    virtual int64_t nvram_allocate(uint64_t bytes) = 0;  // -1: no room
    virtual void nvram_release(int64_t address) = 0;
    virtual void nvram_write(uint64_t address, const void *data, unsigned bytes) = 0;
    virtual void nvram_read(uint64_t address, void *data, unsigned bytes) = 0;  // timed
    // Untimed read (after a restart); false when the range is not readable.
    virtual bool nvram_peek(uint64_t address, void *data, unsigned bytes) const = 0;
    // Allocated regions: address -> bytes.
    virtual const std::map<int64_t, uint64_t> &nvram_allocations() const = 0;
    virtual uint64_t nvram_capacity_bytes() const = 0;
    virtual uint64_t nvram_used_bytes() const = 0;

    // ---- SCSI: one command to a drive over its channel; blocks until its completion
    virtual drive_completion drive_command(const drive_request &request) = 0;
    // Modelling shortcuts (documented where used): tokens placed on or read from a drive's media
    // without time (a parity XOR the model puts on the drive; old data taken as cached).
    virtual bool install_untimed(int disk, uint64_t lbn, const uint64_t *tokens, uint32_t sectors) = 0;
    virtual void peek_untimed(int disk, uint64_t lbn, uint32_t sectors, uint64_t *tokens) = 0;

    // ---- threads
    // Runs job(0) .. job(n-1) in parallel (job 0 in the calling thread); true when all returned true.
    virtual bool parallel(size_t n, const std::function<bool(size_t)> &job) = 0;
    // Runs `job` on a worker in the current power epoch; nobody waits for it.
    virtual void run_background(std::function<void()> job) = 0;
    // A thread of its own for the firmware's whole life (e.g. a periodic task); at elaboration.
    virtual void spawn(const std::string &name, std::function<void()> body) = 0;

    // ---- network (a storage brick's interface to the switched network): send, receive, its
    // address. nullptr when the platform has none (a controller in a host). Ready once the
    // simulation runs (the topology attaches it after the platform is built).
    virtual rtl_models::network_port *network() { return nullptr; }

    // ---- power
    virtual bool powered() const = 0;
    virtual uint64_t power_epoch() const = 0;
    // Stops the calling thread for good when the power failed since it started (or since `epoch`).
    virtual void check_power() = 0;
    virtual void check_power(uint64_t epoch) = 0;
    // The calling thread works for `epoch` from now on (check_power() stops it once that is over).
    virtual void join_epoch(uint64_t epoch) = 0;
};

// What the platform asks of a firmware.
class firmware {
public:
    virtual ~firmware() = default;
    // The array's size in sectors, and its layout (nullptr: none, e.g. JBOD).
    virtual uint64_t capacity_sectors() const = 0;
    virtual const layout *array_layout() const = 0;
    // One host command, from arrival to the point the host may be answered; true: succeeded.
    virtual bool serve(const host_command &cmd) = 0;
    // Maintenance access to one drive's sectors, bypassing the array map (tests); `buffer`
    // holds `sectors` tokens. Timed; blocks.
    virtual bool maintenance_io(bool read, int disk, uint64_t lbn, uint32_t sectors,
                                protocol::buffer_block *buffer) = 0;
    // The power came back: the firmware restarts (empty queues, the buffer DRAM empty), recovers
    // from what its NVRAM kept, and returns how many copies/parts it rewrote. Blocks.
    virtual size_t restart_after_power_loss() = 0;
    // A fresh drive sits in failed member `disk`'s slot (the platform marked it rebuilding): the
    // firmware starts rebuilding the member onto it (on a thread of its own, calling
    // member_rebuilt when done) and returns true, or returns false when it cannot (no redundancy
    // for it, or no rebuild in this family): the member then stays failed.
    virtual bool start_rebuild(int /*disk*/) { return false; }
    // ---- member identity on the drives (member_superblock.h); families without it keep the
    // defaults (nothing on the drives, nothing checked).
    // Before the simulation starts: the array as created before the run, each member's
    // superblock in place (as the drives' zeros are taken as consistent parity).
    virtual void create_members_before_run() {}
    // The members' states changed (a loss, a replacement, a rebuild done): the firmware records
    // the change on the members it still serves. From a SystemC thread.
    virtual void members_changed() {}
    // At start-up (the power back, a replacement controller), before restart_after_power_loss:
    // every member's superblock read back and judged. Empty: every member current (or not
    // checked). Blocks.
    virtual std::vector<member_verdict> check_members() { return {}; }
    // stats.json controller.firmware.member_identity (nothing when no member changed or was checked).
    virtual void report_member_identity(nlohmann::json & /*out*/) const {}
    virtual void reset_statistics() = 0;
    // Its statistics into stats.json's controller.firmware object.
    virtual void report(nlohmann::json &out) const = 0;
    virtual void trace(sc_core::sc_trace_file *tf, const std::string &prefix) = 0;
    // A family's per-disk command queues, when it has them (<prefix>.disk<i>.queue_depth, ...).
    virtual void trace_queues(sc_core::sc_trace_file *, const std::string &) {}
};

}  // namespace raidtlm::controller
