// The ISS's GDB remote stub glue: the core as a gdb_target (registers, its own memory), software
// breakpoints as Unicorn code hooks on their addresses only (no per-instruction hook while
// running), single steps as uc_emu_start with a count of one. While the debugger holds the core,
// the SystemC thread blocks in the socket, so simulated time stands still for every block.
#include "rtl_models/cpu/iss_cpu.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::rtl_models {

namespace {

// GDB's m-profile register order (gdb_remote.h) in Unicorn's names.
constexpr int register_ids[gdb_target::register_count] = {
    UC_ARM_REG_R0, UC_ARM_REG_R1, UC_ARM_REG_R2,  UC_ARM_REG_R3,  UC_ARM_REG_R4, UC_ARM_REG_R5,
    UC_ARM_REG_R6, UC_ARM_REG_R7, UC_ARM_REG_R8,  UC_ARM_REG_R9,  UC_ARM_REG_R10, UC_ARM_REG_R11,
    UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};

}  // namespace

uint32_t iss_cpu::read_register(unsigned n) {
    uint32_t v = 0;
    if (n < gdb_target::register_count) uc_reg_read(m_uc, register_ids[n], &v);
    return v;
}

void iss_cpu::write_register(unsigned n, uint32_t value) {
    if (n >= gdb_target::register_count) return;
    if (register_ids[n] == UC_ARM_REG_PC) value |= 1u;  // an M-profile core is always in Thumb state
    uc_reg_write(m_uc, register_ids[n], &value);
}

bool iss_cpu::read_memory(uint32_t address, uint8_t *out, uint32_t bytes) {
    // Only the core's own memory: a debugger load from a register would have the register's side
    // effects (a completion ring's head, a doorbell) outside simulated time.
    if (uint64_t(address) + bytes > memory_bytes) return false;
    return uc_mem_read(m_uc, address, out, bytes) == UC_ERR_OK;
}

bool iss_cpu::write_memory(uint32_t address, const uint8_t *data, uint32_t bytes) {
    if (uint64_t(address) + bytes > memory_bytes) return false;
    if (uc_mem_write(m_uc, address, data, bytes) != UC_ERR_OK) return false;
    uc_ctl_remove_cache(m_uc, address, uint64_t(address) + bytes);  // code may have changed
    for (uint32_t a = address & ~1u; a < address + bytes; a += 2) m_blocks[size_t(a >> 1) % m_blocks.size()] = {};
    return true;
}

void iss_cpu::sync_breakpoints() {
    const std::set<uint32_t> &wanted = m_gdb->breakpoints();
    std::vector<std::pair<uint32_t, size_t>> kept;
    for (const auto &[address, hook] : m_breakpoint_hooks) {
        if (wanted.count(address)) {
            kept.emplace_back(address, hook);
        } else {
            uc_hook_del(m_uc, hook);
            uc_ctl_remove_cache(m_uc, address, address + 4);
        }
    }
    for (uint32_t address : wanted) {
        if (std::any_of(kept.begin(), kept.end(), [&](const auto &h) { return h.first == address; })) continue;
        uc_hook hook = 0;
        // A hook on one address: translated code calls it only there. Blocks translated before
        // the hook existed do not call it, so they are dropped from Unicorn's cache.
        if (uc_hook_add(m_uc, &hook, UC_HOOK_CODE, reinterpret_cast<void *>(&iss_cpu::on_breakpoint), this,
                        address, address) != UC_ERR_OK)
            continue;
        uc_ctl_remove_cache(m_uc, address, address + 4);
        kept.emplace_back(address, hook);
    }
    m_breakpoint_hooks = std::move(kept);
}

void iss_cpu::on_breakpoint(uc_struct *uc, uint64_t address, uint32_t, void *self) {
    auto *cpu = static_cast<iss_cpu *>(self);
    if (cpu->m_debug == debug_mode::off) return;
    if (int64_t(address) == cpu->m_skip_breakpoint_at) {
        cpu->m_skip_breakpoint_at = -1;  // resuming from this breakpoint: its instruction runs
        return;
    }
    cpu->m_breakpoint_hit = true;
    uc_emu_stop(uc);  // before the instruction at `address` runs
}

void iss_cpu::debug_after_run(bool stepped, uint64_t instructions_before) {
    if (m_breakpoint_hit) {
        m_breakpoint_hit = false;
        uncharge_rest_of_block(current_pc());
        debug_pause(true);
        return;
    }
    if (stepped) {
        // A step that the block hook ended before its block (a quantum ended) executed nothing
        // yet: run() syncs and steps again.
        if (m_instructions == instructions_before) return;
        uncharge_rest_of_block(current_pc());
        debug_pause(true);
        return;
    }
    // Ctrl-C in GDB: looked for every few hundred quanta (a poll is a system call).
    if (++m_runs % 256 == 0 && m_gdb_socket->interrupt_requested()) {
        uncharge_rest_of_block(current_pc());
        debug_pause(true);
    }
}

void iss_cpu::debug_pause(bool announce_stop) {
    if (!m_gdb_socket->connected()) m_gdb_socket->accept_debugger();
    if (announce_stop) m_gdb_socket->send(gdb_session::stopped());
    for (;;) {
        const auto event = m_gdb_socket->next();
        if (!event) {
            // The debugger went away: the firmware runs on without it.
            m_debug = debug_mode::off;
            for (const auto &h : m_breakpoint_hooks) uc_hook_del(m_uc, h.second);
            m_breakpoint_hooks.clear();
            uc_ctl_flush_tlb(m_uc);
            return;
        }
        if (event->what == gdb_packet_reader::event::interrupt) {
            m_gdb_socket->send(gdb_session::stopped());  // already stopped
            continue;
        }
        const gdb_session::reply r = m_gdb->handle(event->payload);
        if (r.payload) m_gdb_socket->send(*r.payload);
        if (!event->payload.empty() && (event->payload[0] == 'Z' || event->payload[0] == 'z')) sync_breakpoints();
        switch (r.next) {
        case gdb_session::action::stay:
            continue;
        case gdb_session::action::resume:
        case gdb_session::action::step: {
            const uint32_t pc = current_pc();
            m_skip_breakpoint_at = m_gdb->is_breakpoint(pc) ? int64_t(pc) : -1;
            m_debug = r.next == gdb_session::action::step ? debug_mode::stepping : debug_mode::running;
            return;
        }
        case gdb_session::action::kill:
            m_gdb_socket->close_connection();
            throw std::runtime_error(fmt::format("{}: the debugger ended the run (GDB kill)", m_image.path()));
        case gdb_session::action::detach:
            m_gdb_socket->close_connection();
            m_debug = debug_mode::off;
            for (const auto &h : m_breakpoint_hooks) uc_hook_del(m_uc, h.second);
            m_breakpoint_hooks.clear();
            uc_ctl_flush_tlb(m_uc);
            return;
        }
    }
}

}  // namespace raidtlm::rtl_models
