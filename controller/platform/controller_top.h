// The RAID controller platform: the hardware blocks wired together (rtl_models: CPU, buffer
// DRAM, NVRAM, XOR engine, host link, one SCSI bus per channel with its DMA engine), the host
// target socket, one initiator socket per drive, power fail/restore, and a firmware created by
// name from the firmware registry (plugins.h; controller.firmware, default: the family of
// controller.layout). The platform offers the firmware its services through firmware_api.h and
// nothing else; every service is charged on the block that does it, so the blocks contend with
// each other and the firmware with itself.
//
// Verification and measurement live here, outside the firmware: the scoreboard watches the host
// interface (write data on arrival, the acknowledgement, read data in the response); the
// prediction probe compares the access time a firmware predicted for a drive command with the
// drive's actual seek + rotation; block statistics and waves.
//
// Sockets: `host` takes host commands (generic payload + protocol::scsi_command with a host LBN
// range, data_length = sectors * 8 for tokens or 0); `disk[i]` is bound to drive i's target and
// drive i's own bus socket to `disk_bus[i]` (both lead to the SCSI bus of the drive's channel).
// The response is TLM_OK_RESPONSE when the firmware succeeded; a range beyond the capacity gets
// TLM_ADDRESS_ERROR_RESPONSE, a payload without scsi_command TLM_GENERIC_ERROR_RESPONSE.
// Inside, every hop between blocks is a TLM-2.0 socket: `host` is the host link's `command`
// socket (bound hierarchically), and the link passes each command on to `from_link`; the platform's
// services reach the CPU (`to_cpu` -> controller_cpu::tasks, a cpu_routine), buffer space
// (`to_space` -> buffer_dram::space, a buffer_request), the DRAM's CPU port, the host link's DMA,
// the XOR engine, the NVRAM and each channel (`to_channel[c]` -> scsi_channel::command).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "controller/firmware_api/controller_config.h"
#include "controller/firmware_api/firmware_api.h"
#include "controller/kit/predict/prediction_statistics.h"
#include "controller/platform/extended_payloads.h"
#include "controller/platform/scoreboard.h"
#include "controller/platform/worker_pool.h"
#include "controller/kit/write_intent_log.h"
#include "rtl_models/memory/buffer_dram.h"
#include "rtl_models/cpu/controller_cpu.h"
#include "rtl_models/buses/host_link.h"
#include "rtl_models/memory/nvram.h"
#include "rtl_models/common/resource_stats.h"
#include "rtl_models/common/sim_time.h"
#include "rtl_models/buses/scsi_bus.h"
#include "rtl_models/buses/scsi_channel.h"
#include "rtl_models/xor/xor_engine.h"
#include "tlm/payload_pool.h"
#include "waveforms/wave_groups.h"
#include "waveforms/traced_value.h"

namespace raidtlm::controller {

// What the platform counts (the firmware families count their own: firmware::report).
struct controller_statistics {
    uint64_t requests = 0;
    uint64_t physical_commands = 0;  // drive commands over the channels
    int peak_outstanding = 0;
    // Host requests the firmware could not serve (whole run, never reset: a fault's outcome).
    uint64_t failed_reads = 0, failed_writes = 0;
    uint64_t medium_errors = 0;  // drive commands that ended in CHECK CONDITION, MEDIUM ERROR
    uint64_t commands_to_failed = 0;  // drive commands to a failed member (failed at once)
    // Drive commands at a drive when its member was lost: no completion comes from a drive that
    // is gone (failed when the member is lost, whatever the drive did with them).
    uint64_t commands_lost_in_flight = 0;
    // Host response times by the array's state when the request arrived (every member optimal,
    // some member failed and none rebuilding, some member rebuilding): ms summed and counted.
    double response_ms_sum[3] = {0, 0, 0};
    uint64_t responses[3] = {0, 0, 0};
    // The prediction probe: a firmware's predicted vs the drive's actual access time of every
    // command that reached the media with a prediction attached (Yu et al.'s Table 2).
    prediction_statistics prediction;
};

class controller_top : public sc_core::sc_module, private firmware_platform {
public:
    tlm::tlm_target_socket<> host;  // the host link's command socket
    sc_core::sc_vector<tlm::tlm_initiator_socket<>> disk;
    sc_core::sc_vector<tlm::tlm_target_socket<>> disk_bus;

    // Throws std::invalid_argument (layout_error among them) when the firmware or the layout
    // does not fit the configuration.
    controller_top(sc_core::sc_module_name name, const controller_config &config, const std::vector<disk_info> &disks);
    ~controller_top() override;

    const controller_config &config() const override { return m_config; }
    uint64_t capacity_sectors() const { return m_capacity; }
    // The array's address map (nullptr for a JBOD concatenation).
    const layout *array_layout() const { return m_firmware->array_layout(); }
    // Every host read carrying tokens is checked against every acknowledged write.
    const scoreboard &integrity() const { return m_scoreboard; }
    // ---- members (member_states.h)
    // Every member optimal, then disk `d` failed (-1: none): one loss at a time, for tests that
    // fail each disk in turn (marking a disk optimal again exposes what it missed).
    void set_failed_disk(int d);
    // Disk `d` is lost (any other loss stays): the drive no longer answers, its commands fail
    // from now on (at once: the controller noticed), and the firmware records the change on the
    // other members (firmware::members_changed).
    void fail_member(int d);
    // A fresh drive is in failed member `d`'s slot (the caller replaced the drive's media): the
    // member is rebuilding when the firmware starts a rebuild onto it (firmware::start_rebuild),
    // else it stays failed. Returns whether the rebuild started. From an SC_THREAD; a
    // replacement while the firmware recovers from a power loss is taken once it has recovered.
    bool replace_member(int d);
    // While the controller is off (power_fail .. power_restore_and_recover) nobody is there to
    // notice: drive `d` is pulled from its slot (its commands fail once the power is back), or a
    // drive is put into the slot. The firmware finds out at start-up from what the drives answer
    // and hold (firmware::check_members), not from these calls.
    void pull_drive(int d);
    void insert_drive(int d);
    const member_states &members() const { return m_members; }
    member_state member_state_of(int d) const override { return m_members.state(d); }
    uint64_t member_losses(int d) const override { return m_members.losses(d); }
    using firmware_platform::member_losses;
    using firmware_platform::failed_disk;
    using firmware_platform::failed_disks;
    // Maintenance access to one drive's sectors through the firmware's queue for it (timed,
    // blocks the calling SC_THREAD), bypassing the array map, the parity and the scoreboard: for
    // tests that inspect or corrupt what is on a disk. `tokens` holds `sectors` tokens.
    bool raw_disk_io(bool read, int disk, uint64_t lbn, uint32_t sectors, uint64_t *tokens);
    int channel_of(int disk) const override { return m_channel.at(size_t(disk)); }
    int target_id_of(int disk) const { return m_target.at(size_t(disk)); }

    // A storage brick: the platform's network interface (before the simulation starts).
    void attach_network(rtl_models::network_port *nic) { m_network = nic; }

    // The firmware API as firmware sees it (for tests that act as firmware).
    firmware_platform &services() { return *this; }
    // The firmware running (controller.firmware) and, when it is of family T, as T.
    const firmware &running_firmware() const { return *m_firmware; }
    template <class T>
    T *firmware_as() {
        return dynamic_cast<T *>(m_firmware.get());
    }
    template <class T>
    const T *firmware_as() const {
        return dynamic_cast<const T *>(m_firmware.get());
    }

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

    // Power loss: the firmware stops (requests in flight never complete), the buffer DRAM's
    // contents are lost, the NVRAM keeps its contents. intent_log() then reads what survived.
    void power_fail();
    // Power back (call from an SC_THREAD, once the drives have finished what they were doing):
    // the firmware restarts with an empty buffer DRAM and recovers from its NVRAM
    // (firmware::restart_after_power_loss: replicated layouts rewrite stale copies and return
    // how many; RAID 4/5 resynchronise the parity of the stripes their intent records name).
    // Host requests arriving meanwhile wait. Returns when the recovery is done.
    // Outages nest: a power_fail while off begins one more cause of the outage and changes
    // nothing else; the power comes back (and the firmware starts, once) only when the restore of
    // the last cause comes. A restore that leaves another cause in force returns 0 at once.
    size_t power_restore_and_recover();
    bool powered() const override { return m_powered; }
    // Causes of the present outage not yet restored (0: powered).
    int outages_in_force() const { return m_outages_in_force; }
    // The write-intent records in NVRAM (write_intent_log.h).
    std::vector<intent_record> intent_log() const;

    // Called with every host request's number (counted from 0) as it arrives, before the
    // firmware sees it (the testbench's fault schedule: faults at a request count).
    std::function<void(uint64_t sequence)> on_host_request;

    int outstanding() const { return m_outstanding; }
    const controller_statistics &statistics() const { return m_stats; }
    // The firmware's statistics into stats.json's controller.firmware object.
    void report_firmware(nlohmann::json &out) const {
        m_firmware->report(out);
        m_firmware->report_member_identity(out);
    }
    // Restarts every block's statistics and the firmware's (at the end of a warm-up).
    void reset_statistics();
    // Adds every block's signals under `prefix`: <prefix>.outstanding, <prefix>.cpu.*,
    // <prefix>.dram.*, <prefix>.nvram.*, <prefix>.xor.*, <prefix>.host_link.*, <prefix>.chN.*,
    // and the firmware's (replicated: <prefix>.nvram.delayed_entries; parity logging: <prefix>.plog.*).
    // `disk_names`: the drives' names, for the per-device waiting flags of each bus; `groups`: the
    // blocks traced (cpu, dram, host_link, xor, nvram, channels, queues, parity_logging).
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix, const std::vector<std::string> &disk_names = {},
               const waveforms::wave_groups &groups = {});

private:
    SC_HAS_PROCESS(controller_top);

    void b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay);
    // The array as created before the run: each member's superblock on its drive.
    void start_of_simulation() override;
    // At start-up: the firmware's verdict on every member; those not current are failed and, when a
    // drive answers in the slot, rebuilt once the recovery is done. Returns those to rebuild.
    std::vector<int> fail_members_not_current();
    void members_changed();
    // One timed NVRAM read or write through the NVRAM socket.
    void nvram_access(tlm::tlm_command command, uint64_t address, void *data, unsigned bytes);

    // ---- firmware_platform (firmware_api.h)
    int disk_count() const override { return int(m_disks.size()); }
    const disk_info &drive_info(int d) const override { return m_disks.at(size_t(d)); }
    double now_s() const override { return rtl_models::now_s(); }
    const rtl_models::cpu_cost_table &cpu_costs() const override { return m_cpu->costs(); }
    void cpu_run(std::initializer_list<rtl_models::controller_cpu::step> steps, int affinity) override;
    protocol::buffer_block *allocate_buffer(uint64_t bytes, uint64_t token_sectors) override;
    void free_buffer(protocol::buffer_block *b) override;
    void request_table_write(uint32_t bytes) override;
    void host_dma(const host_command &cmd, protocol::buffer_block *buffer, uint64_t first_sector) override;
    using firmware_platform::host_dma;
    void gf_blocks(const std::vector<protocol::buffer_ref> &inputs, const std::vector<uint8_t> &coefficients,
                   const protocol::buffer_ref &output, uint64_t sectors) override;
    void xor_blocks(const std::vector<protocol::buffer_ref> &inputs, const protocol::buffer_ref &output,
                    uint64_t sectors) override;
    int64_t nvram_allocate(uint64_t bytes) override { return m_nvram->allocate(bytes); }
    void nvram_release(int64_t address) override { m_nvram->release(address); }
    void nvram_write(uint64_t address, const void *data, unsigned bytes) override;
    void nvram_read(uint64_t address, void *data, unsigned bytes) override;
    bool nvram_peek(uint64_t address, void *data, unsigned bytes) const override;
    const std::map<int64_t, uint64_t> &nvram_allocations() const override { return m_nvram->allocations(); }
    uint64_t nvram_capacity_bytes() const override { return m_config.nvram.capacity_bytes; }
    uint64_t nvram_used_bytes() const override { return m_nvram->used_bytes(); }
    drive_completion drive_command(const drive_request &request) override;
    bool install_untimed(int disk, uint64_t lbn, const uint64_t *tokens, uint32_t sectors) override;
    void peek_untimed(int disk, uint64_t lbn, uint32_t sectors, uint64_t *tokens) override;
    bool parallel(size_t n, const std::function<bool(size_t)> &job) override;
    void run_background(std::function<void()> job) override;
    void spawn(const std::string &name, std::function<void()> body) override;
    rtl_models::network_port *network() override { return m_network; }
    uint64_t power_epoch() const override { return m_epoch; }
    void check_power() override;
    void check_power(uint64_t epoch) override;
    void join_epoch(uint64_t epoch) override;
    void member_rebuilt(int d) override;
    void sync_traced_members();
    void rebuild_progress(int d, double fraction) override;
    // Traced: each member's state (member_state as a number) and rebuild progress in whole percent.
    std::vector<waveforms::traced_int> m_traced_state;
    std::vector<waveforms::traced_int> m_traced_rebuild_pct;

    controller_config m_config;
    std::vector<disk_info> m_disks;
    std::vector<int> m_channel, m_target;  // per disk
    uint64_t m_capacity = 0;
    member_states m_members;
    std::vector<bool> m_drive_gone;  // per slot: no drive answers there (pulled, or lost)
    // Per slot: drives put in it (insert_drive, replace_member). A start-up check that found no
    // drive there says nothing of one put in while it ran.
    std::vector<uint64_t> m_drives_inserted;
    rtl_models::network_port *m_network = nullptr;
    scoreboard m_scoreboard;
    std::unique_ptr<rtl_models::controller_cpu> m_cpu;
    std::unique_ptr<rtl_models::buffer_dram> m_dram;
    std::unique_ptr<rtl_models::nvram> m_nvram;
    std::unique_ptr<rtl_models::xor_engine> m_xor;
    std::unique_ptr<rtl_models::host_link> m_link;
    std::vector<std::unique_ptr<rtl_models::scsi_bus>> m_buses;
    std::vector<std::unique_ptr<rtl_models::scsi_channel>> m_channels;
    int m_cpu_port = 0;
    // Sockets: host commands from the host link; from the platform's services to the blocks.
    tlm_utils::simple_target_socket<controller_top> m_from_link{"from_link"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_cpu{"to_cpu"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_space{"to_space"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_link{"to_link"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_xor{"to_xor"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_nvram{"to_nvram"};
    tlm_utils::simple_initiator_socket<controller_top> m_to_dram{"to_dram"};
    sc_core::sc_vector<tlm_utils::simple_initiator_socket<controller_top>> m_to_channel{"to_channel"};
    protocol::payload_pool m_pool;
    // Reused payloads (no allocation per request once grown to the peak in flight).
    extended_payloads<protocol::dma_command> m_dma_payloads;
    extended_payloads<rtl_models::buffer_request> m_space_payloads;  // allocations (they may wait)
    // Transactions that never wait in their target, so never in use twice: a CPU routine (booked
    // at once) and a buffer freed; each with its extension, owned by the payload.
    tlm::tlm_generic_payload m_cpu_trans, m_free_trans;
    rtl_models::cpu_routine *m_cpu_routine = nullptr;
    rtl_models::buffer_request *m_free_request = nullptr;
    worker_pool m_workers;
    worker_pool::group m_background;  // jobs nobody waits for
    bool m_powered = true;
    int m_outages_in_force = 0;
    bool m_recovering = false;  // power back, recovery running: host requests wait
    bool m_members_changed_during_recovery = false;
    sc_core::sc_event m_recovered;
    uint64_t m_epoch = 0;  // power cycles: a thread from before the last power loss stops
    // A thread's power epoch by its process object; the handle keeps an ended thread's object
    // allocated, so a thread started later is never placed where it was and taken for it.
    struct thread_epoch {
        sc_core::sc_process_handle thread;
        uint64_t epoch = 0;
    };
    std::unordered_map<const sc_core::sc_object *, thread_epoch> m_thread_epoch;
    sc_core::sc_event m_never;
    uint64_t m_sequence = 0;
    // For the waves: the host command (its sequence) each thread serves, so a drive command is
    // traced with the host request it serves (-1: none, such as a destage); kept while traced.
    bool m_traced = false;
    std::unordered_map<const sc_core::sc_object *, int64_t> m_serving;
    int64_t serving_request() const;
    void set_serving(int64_t request);
    waveforms::traced_int m_outstanding = 0;  // traced
    controller_statistics m_stats;
    std::unique_ptr<firmware> m_firmware;  // last: it uses every block
};

}  // namespace raidtlm::controller
