#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "rtl_models/cpu/iss_cpu.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::rtl_models {

namespace {

void check(uc_err e, const char *what) {
    if (e != UC_ERR_OK) throw std::runtime_error(fmt::format("instruction-set simulator: {}: {}", what, uc_strerror(e)));
}

// Thumb-2: a halfword whose top five bits are 0b11101, 0b11110 or 0b11111 starts a 32-bit
// instruction (ARMv7-M ARM, A5.1).
uint32_t thumb_instructions(const std::vector<uint8_t> &code) {
    uint32_t n = 0;
    for (size_t i = 0; i + 1 < code.size();) {
        const uint16_t half = uint16_t(code[i] | (code[i + 1] << 8));
        i += (half >> 11) >= 0x1D ? 4 : 2;
        ++n;
    }
    return n;
}

}  // namespace

iss_cpu::iss_cpu(sc_core::sc_module_name name, const iss_cpu_config &config, const elf_image &image,
                 uint32_t device_base, uint32_t device_bytes, interrupt_controller_port &irq)
    : sc_module(name), bus("bus"), m_config(config), m_image(image), m_device_base(device_base),
      m_device_bytes(device_bytes), m_irq(irq) {
    m_instruction_time = sc_core::sc_time(config.cycles_per_instruction / (config.mhz * 1e6), sc_core::SC_SEC);
    m_keeper.set_global_quantum(sc_core::sc_time(config.quantum_us, sc_core::SC_US));
    m_keeper.reset();
    m_function_instructions.assign(image.functions().size(), 0);
    m_blocks.resize(memory_bytes / 2);

    open_engine();
    load_image_and_reset();

    if (config.gdb_port >= 0) {
        m_gdb_socket = std::make_unique<gdb_socket>(config.gdb_port);
        m_gdb = std::make_unique<gdb_session>(static_cast<gdb_target &>(*this));
        m_debug = debug_mode::running;
        std::fprintf(stderr, "raidtlm: the firmware is paused at reset; attach with: gdb-multiarch %s -ex 'target remote :%d'\n",
                     image.path().c_str(), m_gdb_socket->port());
        std::fflush(stderr);
    }

    m_payload.set_byte_enable_ptr(nullptr);
    m_payload.set_streaming_width(4);
    spawn_core();
}

iss_cpu::~iss_cpu() {
    if (m_uc) uc_close(m_uc);
    // m_held_engines stay open: a suspended thread's frames are inside them.
}

void iss_cpu::open_engine() {
    check(uc_open(UC_ARCH_ARM, uc_mode(UC_MODE_THUMB | UC_MODE_MCLASS), &m_uc), "open");
    check(uc_ctl_set_cpu_model(m_uc, UC_CPU_ARM_CORTEX_M4), "cpu model");
    // No exit address: each quantum ends by uc_emu_stop from the block hook. With the classic
    // `until` argument Unicorn invalidates the translated block at that address on every
    // uc_emu_start (a page lock and a tree of pages each time: a tenth of an ISS run).
    check(uc_ctl_exits_enable(m_uc), "exits");
    check(uc_ctl_set_exits(m_uc, nullptr, 0), "no exits");
    check(uc_mem_map(m_uc, 0, memory_bytes, UC_PROT_ALL), "map memory");
    check(uc_mmio_map(m_uc, m_device_base, m_device_bytes, &iss_cpu::on_read, this, &iss_cpu::on_write, this),
          "map device");
    uc_hook hook;
    check(uc_hook_add(m_uc, &hook, UC_HOOK_BLOCK, reinterpret_cast<void *>(&iss_cpu::on_block), this, 1, 0), "block hook");
}

void iss_cpu::load_image_and_reset() {
    for (const auto &s : m_image.segments()) {
        if (uint64_t(s.address) + s.bytes.size() > memory_bytes)
            throw std::runtime_error(fmt::format("{}: a segment at 0x{:08x} ({} bytes) does not fit the core's {} KiB memory",
                                                 m_image.path(), s.address, s.bytes.size(), memory_bytes / 1024));
        check(uc_mem_write(m_uc, s.address, s.bytes.data(), s.bytes.size()), "load image");
    }
    // Cortex-M reset: the initial stack pointer is the vector table's first word.
    uint32_t initial_sp = 0;
    check(uc_mem_read(m_uc, 0, &initial_sp, 4), "read the vector table");
    check(uc_reg_write(m_uc, UC_ARM_REG_SP, &initial_sp), "set SP");
    const uint32_t entry = m_image.entry() | 1u;  // Thumb
    check(uc_reg_write(m_uc, UC_ARM_REG_PC, &entry), "set PC");
}

void iss_cpu::spawn_core() {
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(16 * 1024 * 1024);  // Unicorn's translator and helpers run on this stack
    const uint64_t generation = m_generation;
    sc_core::sc_spawn([this, generation] { run(generation); },
                      generation == 0 ? "core" : fmt::format("core_restart{}", generation).c_str(), &opts);
}

void iss_cpu::restart() {
    if (m_generation_in_emu == int64_t(m_generation)) {
        // Held inside a device access for good: that thread keeps its engine.
        m_held_engines.push_back(m_uc);
        m_uc = nullptr;
        open_engine();
        std::fill(m_blocks.begin(), m_blocks.end(), block_info{});
    }
    ++m_generation;
    load_image_and_reset();
    m_sleep_pending = false;
    if (m_asleep) m_idle += sc_core::sc_time_stamp() - std::max(m_sleep_start, m_since);  // asleep or off
    m_asleep = false;
    m_keeper.reset();
    m_restarted.notify(sc_core::SC_ZERO_TIME);  // a held thread ends
    spawn_core();
}

void iss_cpu::fail(const std::string &what) const {
    uint32_t pc = 0;
    uc_reg_read(m_uc, UC_ARM_REG_PC, &pc);
    const int f = m_image.function_at(pc);
    throw std::runtime_error(fmt::format("{}: {} (firmware at pc 0x{:08x}, in {})", m_image.path(), what, pc,
                                         f < 0 ? "no symbol" : m_image.functions()[size_t(f)].name));

}

uint32_t iss_cpu::current_pc() const {
    uint32_t pc = 0;
    uc_reg_read(m_uc, UC_ARM_REG_PC, &pc);
    return pc;
}

void iss_cpu::run(uint64_t generation) {
    if (m_debug != debug_mode::off && generation == 0) debug_pause(false);  // at reset, before the first instruction
    for (;;) {
        if (generation != m_generation) return;  // restarted: a newer thread runs the core
        if (m_irq.core_held()) {
            // Power off: nothing runs until restart(), which counts the time as idle.
            m_sleep_start = sc_core::sc_time_stamp();
            m_asleep = true;
            while (generation == m_generation) sc_core::wait(m_restarted);
            return;
        }
        const bool stepping = m_debug == debug_mode::stepping;
        const uint64_t instructions_before = m_instructions;
        uc_struct *const uc = m_uc;
        m_generation_in_emu = int64_t(generation);
        const uc_err e = uc_emu_start(uc, current_pc() | 1u, 0xFFFFFFFFull, 0, stepping ? 1 : 0);
        if (generation != m_generation) return;  // came back from an engine left to it
        m_generation_in_emu = -1;
        if (!m_error.empty()) fail(m_error);
        if (e != UC_ERR_OK) fail(std::string("stopped: ") + uc_strerror(e));
        if (m_debug != debug_mode::off) debug_after_run(stepping, instructions_before);
        if (m_sleep_pending) {
            m_sleep_pending = false;
            m_keeper.sync();
            if (!m_irq.asserted() && generation == m_generation) {
                m_sleep_start = sc_core::sc_time_stamp();
                m_asleep = true;
                while (!m_irq.asserted() && generation == m_generation) sc_core::wait(m_irq.may_have_risen());
                if (generation != m_generation) return;  // restart() counted the sleep
                m_asleep = false;
                m_idle += sc_core::sc_time_stamp() - std::max(m_sleep_start, m_since);
            }
        } else if (m_keeper.need_sync()) {
            m_keeper.sync();
        }
    }
}

const iss_cpu::block_info &iss_cpu::info_of(uint64_t address, uint32_t bytes) {
    block_info &b = m_blocks[size_t(address >> 1) % m_blocks.size()];
    if (b.bytes == bytes && bytes != 0) return b;
    std::vector<uint8_t> code(bytes);
    check(uc_mem_read(m_uc, address, code.data(), bytes), "read a block");
    b.bytes = bytes;
    b.instructions = thumb_instructions(code);
    b.function = m_image.function_at(uint32_t(address));
    return b;
}

void iss_cpu::step_block(uc_struct *uc, uint64_t address, uint32_t bytes) {
    if (m_sleep_pending || m_keeper.need_sync() || uc != m_uc) {
        // End the quantum before this block runs; run() resumes here.
        uc_emu_stop(uc);
        return;
    }
    const block_info &b = info_of(address, bytes);
    m_instructions += b.instructions;
    m_function = b.function;
    if (m_config.profile && b.function >= 0) m_function_instructions[size_t(b.function)] += b.instructions;
    m_keeper.inc(m_instruction_time * double(b.instructions));
    m_block_start = uint32_t(address);
    m_block_end = uint32_t(address) + bytes;
}

void iss_cpu::uncharge_rest_of_block(uint32_t pc) {
    // The block hook charged the whole block on entry; a debugger stop inside it executed only
    // the instructions before `pc`, and resuming charges the rest as a block of its own.
    if (pc <= m_block_start || pc >= m_block_end) return;
    std::vector<uint8_t> code(m_block_end - pc);
    if (uc_mem_read(m_uc, pc, code.data(), code.size()) != UC_ERR_OK) return;
    const uint32_t n = std::min<uint64_t>(thumb_instructions(code), m_instructions);
    m_instructions -= n;
    const int f = m_image.function_at(m_block_start);
    if (m_config.profile && f >= 0) m_function_instructions[size_t(f)] -= std::min<uint64_t>(n, m_function_instructions[size_t(f)]);
    const sc_core::sc_time t = m_instruction_time * double(n);
    if (m_keeper.get_local_time() >= t) m_keeper.set(m_keeper.get_local_time() - t);
    m_block_end = pc;
}

uint64_t iss_cpu::device_access(uc_struct *uc, bool write, uint32_t address, unsigned bytes, uint64_t value) {
    if (uc != m_uc || m_irq.core_held()) {
        // An engine left to a thread of before a restart, or the power is off: the core stops.
        uc_emu_stop(uc);
        return 0;
    }
    std::memcpy(m_data, &value, sizeof(value));
    m_payload.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    m_payload.set_address(address);
    m_payload.set_data_ptr(m_data);
    m_payload.set_data_length(bytes);
    m_payload.set_streaming_width(bytes);
    m_payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const sc_core::sc_time before = sc_core::sc_time_stamp() + m_keeper.get_local_time();
    sc_core::sc_time delay = m_keeper.get_local_time();
    try {
        bus->b_transport(m_payload, delay);
    } catch (const std::exception &e) {
        // Not through Unicorn's C frames: stop, and run() rethrows.
        m_error = e.what();
        uc_emu_stop(m_uc);
        return 0;
    }
    if (uc != m_uc || m_irq.core_held()) {  // the power failed (or came back) during the access
        uc_emu_stop(uc);
        return 0;
    }
    m_keeper.set(delay);
    const sc_core::sc_time after = sc_core::sc_time_stamp() + delay;
    if (after > before) m_stall += after - before;
    if (!m_payload.is_response_ok()) {
        m_error = fmt::format("{} {} bytes at 0x{:08x}: {}", write ? "store of" : "load of", bytes, address,
                         m_payload.get_response_string());
        uc_emu_stop(m_uc);
        return 0;
    }
    write ? ++m_device_writes : ++m_device_reads;
    // WFI: the core stops at the next basic block (step_block) and run() sleeps. Not here:
    // Unicorn stopped inside a load or store restarts that instruction, repeating the access.
    if (m_irq.take_sleep_request()) m_sleep_pending = true;
    uint64_t out = 0;
    std::memcpy(&out, m_data, std::min<size_t>(bytes, sizeof(out)));
    return out;
}

void iss_cpu::on_block(uc_struct *uc, uint64_t address, uint32_t size, void *self) {
    static_cast<iss_cpu *>(self)->step_block(uc, address, size);
}

uint64_t iss_cpu::on_read(uc_struct *uc, uint64_t offset, unsigned size, void *self) {
    auto *cpu = static_cast<iss_cpu *>(self);
    return cpu->device_access(uc, false, cpu->m_device_base + uint32_t(offset), size, 0);
}

void iss_cpu::on_write(uc_struct *uc, uint64_t offset, unsigned size, uint64_t value, void *self) {
    auto *cpu = static_cast<iss_cpu *>(self);
    cpu->device_access(uc, true, cpu->m_device_base + uint32_t(offset), size, value);
}

void iss_cpu::reset_statistics() {
    m_instructions = 0;
    m_stall = m_idle = sc_core::SC_ZERO_TIME;
    m_since = sc_core::sc_time_stamp();
    m_device_reads = m_device_writes = 0;
    std::fill(m_function_instructions.begin(), m_function_instructions.end(), 0);
}

void iss_cpu::report(nlohmann::json &out) const {
    const double elapsed_s = (sc_core::sc_time_stamp() - m_since).to_seconds();
    const double cycles = double(m_instructions) * m_config.cycles_per_instruction;
    const double cycle_s = 1.0 / (m_config.mhz * 1e6);
    const double stall_cycles = m_stall.to_seconds() / cycle_s;
    out["model"] = "iss";
    out["core"] = "ARM Cortex-M4 (Thumb-2), Unicorn 2";
    out["image"] = m_image.path();
    out["mhz"] = m_config.mhz;
    out["instructions"] = m_instructions;
    out["cycles"] = cycles + stall_cycles;
    out["cycles_per_instruction"] = m_config.cycles_per_instruction;
    out["cpi"] = m_instructions ? (cycles + stall_cycles) / double(m_instructions) : 0.0;
    out["device_reads"] = m_device_reads;
    out["device_writes"] = m_device_writes;
    out["device_stall_ms"] = m_stall.to_seconds() * 1e3;
    out["idle_ms"] = m_idle.to_seconds() * 1e3;
    out["elapsed_ms"] = elapsed_s * 1e3;
    out["utilization"] = elapsed_s > 0 ? std::clamp(1.0 - m_idle.to_seconds() / elapsed_s, 0.0, 1.0) : 0.0;
    // The waves' `function` signal is an index into this list (ELF function symbols by address).
    nlohmann::json names = nlohmann::json::array();
    for (const auto &f : m_image.functions()) names.push_back(f.name);
    out["function_names"] = std::move(names);
}

void iss_cpu::write_profile(std::ostream &out) const {
    std::vector<size_t> order(m_function_instructions.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return m_function_instructions[a] > m_function_instructions[b]; });
    uint64_t total = 0;
    for (uint64_t n : m_function_instructions) total += n;
    out << "# cycles per firmware function (instructions x cycles_per_instruction; device stalls not included)\n";
    out << "function\tinstructions\tcycles\tshare\n";
    for (size_t i : order) {
        if (m_function_instructions[i] == 0) continue;
        out << fmt::format("{}\t{}\t{:.0f}\t{:.4f}\n", m_image.functions()[i].name, m_function_instructions[i],
                           double(m_function_instructions[i]) * m_config.cycles_per_instruction,
                           double(m_function_instructions[i]) / double(std::max<uint64_t>(total, 1)));
    }
}

void iss_cpu::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_function, prefix + ".function");
    waveforms::trace(tf, m_asleep, prefix + ".asleep");
}

std::vector<std::pair<int, std::string>> iss_cpu::function_names() const {
    std::vector<std::pair<int, std::string>> out;
    for (size_t i = 0; i < m_image.functions().size(); ++i) out.emplace_back(int(i), m_image.functions()[i].name);
    return out;
}

}  // namespace raidtlm::rtl_models
