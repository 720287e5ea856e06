// The register-level controller the firmware on the instruction-set simulator programs: the
// memory map of controller/iss/firmware_c/raidtlm_regs.h (docs/REGISTER_MAP.md) as one TLM-2.0
// target. Behind the registers are the platform's own blocks, reached through the same
// firmware_platform services the C++ firmware families use — buffer DRAM (the buffer manager
// queue), the host link (host DMA queue), the XOR engine, the NVRAM (a window the core loads and
// stores), and the SCSI channels (a queue per channel) — so the hardware, its contention and the
// scoreboard are the same whichever firmware runs.
//
// Each engine has a submission ring (descriptors the firmware writes, then a doorbell) and a
// completion ring (entries the engine posts, an interrupt line while not empty). A descriptor
// starts its platform service as a job of its own when the doorbell rings; the completion is
// posted when the service returns. Register accesses cost `access_ns` (annotated, loosely
// timed); a job starts at the core's local time of its doorbell, and an NVRAM access first
// brings the kernel up to the core's local time, so the NVRAM is reached when the core did it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "controller/firmware_api/firmware_api.h"
#include "controller/iss/firmware_c/raidtlm_regs.h"
#include "rtl_models/cpu/iss_cpu.h"

namespace raidtlm::controller {

// The largest host request the C firmware (controller/iss/firmware_c) serves: it moves a command in
// one buffer, for a degraded RAID 5 read `disks` times the request (requests.c), and a buffer
// holds at most 65535 sectors (a buffer address's 16-bit sector field, RT_BUFFER_ADDRESS) and
// must fit the buffer DRAM (dram_bytes; 0: unlimited). Larger requests are refused before the run.
constexpr uint64_t iss_largest_request_sectors(int disks, uint64_t dram_bytes) {
    const uint64_t per_buffer = 0xFFFFull / uint64_t(disks > 0 ? disks : 1);
    const uint64_t in_dram = dram_bytes / 512 / uint64_t(disks > 0 ? disks : 1);
    return dram_bytes == 0 || per_buffer < in_dram ? per_buffer : in_dram;
}

// The array facts the firmware reads from the system block.
struct iss_array_facts {
    uint32_t layout = RT_LAYOUT_RAID0;
    uint32_t stripe_unit_sectors = 0;
    uint32_t disk_sectors = 0;  // the smallest drive's
    uint32_t tags_per_disk = 1;
    uint32_t host_slots = 64;
    uint64_t array_sectors = 0;  // what the platform's layout says; the firmware must agree
};

class iss_device : public sc_core::sc_module, public rtl_models::interrupt_controller_port {
public:
    tlm_utils::simple_target_socket<iss_device> socket;

    // A register access on the peripheral bus: an AMBA APB transfer takes two PCLK cycles
    // (AMBA APB Protocol Specification, IHI 0024C) — 20 ns at a 100 MHz peripheral clock — plus
    // about one cycle of the AHB-to-APB bridge: 30 ns.
    static constexpr double default_access_ns = 30;

    iss_device(sc_core::sc_module_name name, firmware_platform &platform, const iss_array_facts &facts,
               double access_ns);

    // The host side: one host command through the host queue; returns when the firmware has
    // completed it (true: success).
    bool serve(const host_command &cmd);

    // interrupt_controller_port
    bool asserted() const override { return (m_pending & m_enable) != 0; }
    const sc_core::sc_event &may_have_risen() const override { return m_rise; }
    bool take_sleep_request() override;
    bool core_held() const override { return !m_platform.powered(); }

    // The power came back (firmware::restart_after_power_loss): every queue, line, buffer handle
    // and host slot empty; the host commands in flight are gone (their threads stop). The
    // firmware boots again and sets READY when it takes host commands.
    void power_reset();
    bool ready() const { return m_ready; }
    const sc_core::sc_event &ready_event() const { return m_ready_event; }
    // What the firmware wrote to RECOVERED at its last boot: the stripes it resynchronised.
    uint32_t recovered() const { return m_recovered; }
    // A fresh drive sits in member `disk`'s slot (firmware::start_rebuild): line REBUILD rises
    // until the firmware takes it (REBUILD_DISK).
    void request_rebuild(int disk);
    // Member identity (controller/iss/firmware_c/members.c): at boot the firmware reads every member's
    // superblock and posts a verdict per member (MEMBER_VERDICT, MEMBERS_CHECKED), then waits
    // until MEMBERS_CHECKED reads 1. firmware::check_members calls await_member_check after the
    // restart: it returns the verdicts and the firmware waits until apply_member_check. A boot
    // nobody checks (the first power-on) goes on at once.
    std::vector<member_verdict> await_member_check();
    void apply_member_check();
    // firmware::members_changed: line MEMBERS rises until the firmware takes the change.
    void members_changed();
    // The array ranges the firmware reported lost (LOST_LBN, LOST_SECTORS), in report order.
    const std::vector<std::pair<int64_t, int32_t>> &lost_ranges() const { return m_lost_ranges; }

    void reset_statistics();
    void report(nlohmann::json &out) const;
    // What the firmware did for the array's faults, as the registers saw it: sectors rewritten
    // after MEDIUM ERRORs, and its rebuilds (none started: no "rebuild").
    void report_repairs(nlohmann::json &out) const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);
    const std::string &console() const { return m_console; }

private:
    using completion = std::array<uint32_t, RT_CQ_WORDS>;
    struct queue {
        std::array<std::array<uint32_t, RT_SQ_WORDS>, RT_QUEUE_DEPTH> sq{};
        std::array<completion, RT_QUEUE_DEPTH> cq{};
        uint32_t sq_head = 0, sq_tail = 0, cq_head = 0, cq_tail = 0;
        std::deque<completion> waiting;  // posted while the completion ring was full
    };
    struct host_slot {
        const host_command *cmd = nullptr;
        bool done = false;
        bool ok = false;
        sc_core::sc_event finished;
    };

    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    uint32_t read_register(uint32_t offset, sc_core::sc_time &delay);
    void write_register(uint32_t offset, uint32_t value, sc_core::sc_time &delay);
    void nvram_access(tlm::tlm_generic_payload &gp, uint32_t offset, sc_core::sc_time &delay);
    void ring_doorbell(unsigned q, uint32_t tail, const sc_core::sc_time &at);
    void start(unsigned q, const std::array<uint32_t, RT_SQ_WORDS> &d, const sc_core::sc_time &at);
    void post(unsigned q, const completion &c);
    void update_lines();
    void on_timer();
    protocol::buffer_block *buffer_of(uint32_t handle, const char *what) const;
    protocol::buffer_ref ref_of(uint32_t address, uint32_t sectors, const char *what) const;
    [[noreturn]] void firmware_error(const std::string &what) const;

    firmware_platform &m_platform;
    iss_array_facts m_facts;
    sc_core::sc_time m_access;
    std::vector<queue> m_queues;
    std::vector<host_slot> m_slots;
    std::vector<uint32_t> m_free_slots;
    sc_core::sc_event m_slot_freed;
    std::vector<protocol::buffer_block *> m_buffers;  // by handle; [0] unused
    std::vector<uint32_t> m_free_handles;
    int64_t m_nvram_base = -1;
    uint32_t m_nvram_bytes = 0;
    uint32_t m_pending = 0;
    uint32_t m_enable = 0;
    bool m_sleep_request = false;
    bool m_ready = false;
    uint32_t m_recovered = 0;
    uint32_t m_lost_lbn = 0;
    int m_rebuild_request = -1;  // a member waiting for the firmware to take its rebuild
    // The member whose rebuild the firmware took (REBUILD_DISK written): REBUILD_PROGRESS and
    // REBUILD_DONE are about it, also while a second member has a fresh drive waiting.
    int m_rebuild_taken = -1;
    // A member rebuilding whose rebuild the firmware has not taken (-1: none).
    int waiting_rebuild() const;
    uint32_t m_window = 0;  // WINDOW: the buffer address of the sector the core sees
    uint64_t &window_word(const char *what);
    std::vector<member_verdict> m_verdicts;
    bool m_check_awaited = false;    // a start-up check waits for the verdicts (await_member_check)
    bool m_verdicts_posted = false;
    bool m_members_applied = false;  // MEMBERS_CHECKED reads 1: the firmware may go on
    bool m_members_changed = false;  // the members' states changed since MEMBERS_TAKEN
    sc_core::sc_event m_verdicts_event;
    int rebuilding_member() const;
    std::vector<std::pair<int64_t, int32_t>> m_lost_ranges;
    sc_core::sc_event m_rise;
    sc_core::sc_event m_ready_event;
    sc_core::sc_event m_timer_event;
    bool m_timer_armed = false;
    sc_core::sc_time m_timer_at;
    std::string m_console;

    // statistics
    std::array<uint64_t, RT_QUEUES> m_descriptors{};
    uint64_t m_register_accesses = 0;
    uint64_t m_nvram_accesses = 0;
    uint64_t m_buffers_live = 0, m_buffers_peak = 0;
    struct {
        uint64_t started = 0, finished = 0, units_rebuilt = 0;
    } m_rebuild;
    uint64_t m_media_repaired_sectors = 0;  // REPAIRED: rewritten after a MEDIUM ERROR
};

}  // namespace raidtlm::controller
