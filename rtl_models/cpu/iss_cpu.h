// The controller CPU as an instruction-set simulator: a Cortex-M4 (Thumb-2) core emulated by
// Unicorn 2 (Debian's libunicorn), running a firmware ELF image. The image's memory (code, data,
// stack) is the core's own tightly coupled memory; every load or store in the device region
// becomes a TLM-2.0 generic-payload transaction (address, data, byte enables) on `bus`.
//
// Time (loosely timed, tlm_quantumkeeper): each executed instruction costs
// cycles_per_instruction cycles at `mhz`, charged per translated basic block when it is entered;
// a device access adds the latency its target annotates (a stall); the core runs ahead of the
// SystemC kernel by at most one quantum. Interrupts: the core has no NVIC model (Unicorn has
// none); the firmware sleeps with a store to the interrupt controller's WFI register, which ends
// the quantum, and the core then waits until the interrupt controller's line rises — an
// interrupt-driven main loop in the "WFI, then read the pending register" style.
//
// Reports instructions, cycles, CPI, device-access stall time and idle (asleep) time, and,
// when profiling, cycles per firmware function (ELF symbols); the waves show the function the
// core is in.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "rtl_models/cpu/elf_image.h"
#include "rtl_models/cpu/gdb_remote.h"
#include "rtl_models/cpu/gdb_socket.h"
#include "waveforms/traced_value.h"

struct uc_struct;

namespace raidtlm::rtl_models {

struct iss_cpu_config {
    double mhz = 600;  // the cost-table CPU's clock (IOP321 class), so both CPU models compare
    // An in-order single-issue core retires about one instruction per cycle when it does not
    // wait on memory (ARM Cortex-M4 TRM, instruction timings: most data-processing
    // instructions 1 cycle, loads 2); device-access stalls are charged separately.
    double cycles_per_instruction = 1.0;
    double quantum_us = 1.0;  // how far the core may run ahead of the kernel
    bool profile = false;     // cycles per firmware function
    // A GDB remote stub on this TCP port (127.0.0.1; 0: any free port): the core waits at reset
    // for gdb-multiarch to attach (rtl_models/cpu/gdb_remote.h). -1: no debugger.
    int gdb_port = -1;
};

// The interrupt controller as the core sees it.
class interrupt_controller_port {
public:
    virtual ~interrupt_controller_port() = default;
    // The core's interrupt input: some enabled source is pending.
    virtual bool asserted() const = 0;
    // Notified whenever asserted() may have become true.
    virtual const sc_core::sc_event &may_have_risen() const = 0;
    // The firmware asked to sleep (a store to the WFI register) since the last call.
    virtual bool take_sleep_request() = 0;
    // The core is held in reset (the controller's power is off): it stops at its next device
    // access or quantum end and runs again only after iss_cpu::restart().
    virtual bool core_held() const { return false; }
};

class iss_cpu : public sc_core::sc_module, private gdb_target {
public:
    tlm_utils::simple_initiator_socket<iss_cpu> bus;
    static constexpr uint32_t memory_bytes = 0x00100000;  // RT_IMAGE_BYTES: the core's own memory

    // Throws std::runtime_error when the image does not fit the core's memory.
    iss_cpu(sc_core::sc_module_name name, const iss_cpu_config &config, const elf_image &image,
            uint32_t device_base, uint32_t device_bytes, interrupt_controller_port &irq);
    ~iss_cpu() override;

    // The power came back: the core starts again at the image's reset vector with its memory
    // loaded anew (a new thread; the old one ends when it next wakes, or stays held for good
    // inside a device access that spans the power loss, in which case it keeps its engine and
    // the core gets a fresh one).
    void restart();

    void reset_statistics();
    void report(nlohmann::json &out) const;
    // The per-function cycle profile (profile on), most cycles first.
    void write_profile(std::ostream &out) const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);
    // A GTKWave translate filter's entries for the traced function index.
    std::vector<std::pair<int, std::string>> function_names() const;

private:
    struct block_info {
        uint32_t bytes = 0;  // 0: not yet seen
        uint32_t instructions = 0;
        int function = -1;
    };
    void open_engine();
    void load_image_and_reset();
    void spawn_core();
    void run(uint64_t generation);
    void step_block(uc_struct *uc, uint64_t address, uint32_t bytes);
    uint64_t device_access(uc_struct *uc, bool write, uint32_t address, unsigned bytes, uint64_t value);
    const block_info &info_of(uint64_t address, uint32_t bytes);
    void fail(const std::string &what) const;
    uint32_t current_pc() const;

    // The debugger (iss_cpu_debug.cpp): serve packets while the core is paused; after a stop
    // inside a block, give back the instructions the block hook charged beyond the stop.
    void debug_pause(bool announce_stop);
    void debug_after_run(bool stepped, uint64_t instructions_before);
    void sync_breakpoints();
    void uncharge_rest_of_block(uint32_t pc);
    uint32_t read_register(unsigned n) override;
    void write_register(unsigned n, uint32_t value) override;
    bool read_memory(uint32_t address, uint8_t *out, uint32_t bytes) override;
    bool write_memory(uint32_t address, const uint8_t *data, uint32_t bytes) override;
    static void on_breakpoint(uc_struct *uc, uint64_t address, uint32_t size, void *self);

    static void on_block(uc_struct *uc, uint64_t address, uint32_t size, void *self);
    static uint64_t on_read(uc_struct *uc, uint64_t offset, unsigned size, void *self);
    static void on_write(uc_struct *uc, uint64_t offset, unsigned size, uint64_t value, void *self);

    iss_cpu_config m_config;
    const elf_image &m_image;
    uint32_t m_device_base;
    uint32_t m_device_bytes;
    interrupt_controller_port &m_irq;
    uc_struct *m_uc = nullptr;
    // Restarts (restart()): the core thread of each generation ends once a newer one exists.
    uint64_t m_generation = 0;
    int64_t m_generation_in_emu = -1;  // the generation whose thread is inside uc_emu_start
    std::vector<uc_struct *> m_held_engines;  // engines left to threads held inside a device access
    sc_core::sc_event m_restarted;
    tlm_utils::tlm_quantumkeeper m_keeper;
    sc_core::sc_time m_instruction_time;
    // Blocks by start halfword in the core's memory (Thumb code is halfword-aligned); a block
    // entered with another length (Unicorn splits a block at a page) replaces the entry.
    std::vector<block_info> m_blocks;
    tlm::tlm_generic_payload m_payload;
    uint8_t m_data[8] = {};

    // statistics (since the last reset)
    uint64_t m_instructions = 0;
    sc_core::sc_time m_stall;
    sc_core::sc_time m_idle;
    sc_core::sc_time m_sleep_start;  // while m_asleep: since when (asleep in WFI, or held with the power off)
    sc_core::sc_time m_since;
    uint64_t m_device_reads = 0;
    uint64_t m_device_writes = 0;
    std::vector<uint64_t> m_function_instructions;
    // waves
    waveforms::traced_int m_function = -1;
    waveforms::traced_flag m_asleep = false;
    bool m_sleep_pending = false;
    std::string m_error;  // a device access that failed

    // debugger (gdb_port >= 0)
    enum class debug_mode { off, running, stepping };
    std::unique_ptr<gdb_socket> m_gdb_socket;
    std::unique_ptr<gdb_session> m_gdb;
    debug_mode m_debug = debug_mode::off;
    std::vector<std::pair<uint32_t, size_t>> m_breakpoint_hooks;  // address, uc_hook
    bool m_breakpoint_hit = false;
    int64_t m_skip_breakpoint_at = -1;  // resuming from a breakpoint: do not stop on it at once
    uint32_t m_block_start = 0, m_block_end = 0;  // the block charged last
    uint64_t m_runs = 0;
};

}  // namespace raidtlm::rtl_models
