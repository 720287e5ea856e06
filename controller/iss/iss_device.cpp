#include "controller/iss/iss_device.h"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "controller/firmware_api/controller_config.h"
#include "tlm/scsi_command.h"

namespace raidtlm::controller {

namespace {
constexpr uint32_t queue_stride = RT_QUEUE_BASE(1) - RT_QUEUE_BASE(0);
constexpr uint32_t queue_region_bytes = RT_QUEUES * queue_stride;
// The NVRAM window: as much of the NVRAM as the firmware may need for its write-intent records.
constexpr uint64_t nvram_window_bytes = 16 * 1024;
}  // namespace

iss_device::iss_device(sc_core::sc_module_name name, firmware_platform &platform, const iss_array_facts &facts,
                       double access_ns)
    : sc_module(name), socket("socket"), m_platform(platform), m_facts(facts),
      m_access(access_ns, sc_core::SC_NS), m_queues(RT_QUEUES), m_slots(facts.host_slots), m_buffers(1, nullptr) {
    socket.register_b_transport(this, &iss_device::b_transport);
    for (uint32_t s = facts.host_slots; s-- > 0;) m_free_slots.push_back(s);
    const uint64_t window = std::min<uint64_t>(nvram_window_bytes, platform.nvram_capacity_bytes());
    m_nvram_base = platform.nvram_allocate(window);
    if (m_nvram_base < 0) throw std::invalid_argument("iss firmware: no room in the NVRAM for its window");
    m_nvram_bytes = uint32_t(window);
    SC_HAS_PROCESS(iss_device);
    SC_METHOD(on_timer);
    sensitive << m_timer_event;
    dont_initialize();
}

void iss_device::firmware_error(const std::string &what) const {
    throw std::runtime_error("firmware error (register block): " + what);
}

// ---- the host side --------------------------------------------------------------------------

bool iss_device::serve(const host_command &cmd) {
    while (!m_ready || m_free_slots.empty()) sc_core::wait(m_ready ? m_slot_freed : m_ready_event);
    const uint64_t epoch = m_platform.power_epoch();
    const uint32_t s = m_free_slots.back();
    m_free_slots.pop_back();
    host_slot &slot = m_slots[s];
    slot.cmd = &cmd;
    slot.done = false;
    post(RT_Q_HOST, {s, cmd.write ? RT_HOST_WRITE : 0u, uint32_t(cmd.lbn), cmd.sectors});
    while (!slot.done) sc_core::wait(slot.finished);
    m_platform.check_power(epoch);  // the power failed meanwhile: the command is gone
    slot.cmd = nullptr;
    m_free_slots.push_back(s);
    m_slot_freed.notify(sc_core::SC_ZERO_TIME);
    return slot.ok;
}

void iss_device::power_reset() {
    for (auto &q : m_queues) q = queue{};
    for (auto &slot : m_slots) {
        if (!slot.cmd) continue;
        slot.done = true;  // its thread wakes and stops (check_power)
        slot.finished.notify(sc_core::SC_ZERO_TIME);
        slot.cmd = nullptr;
    }
    m_free_slots.clear();
    for (uint32_t s = m_facts.host_slots; s-- > 0;) m_free_slots.push_back(s);
    m_buffers.assign(1, nullptr);  // the buffer DRAM came back empty
    m_free_handles.clear();
    m_buffers_live = 0;
    m_pending = m_enable = 0;
    m_sleep_request = false;
    m_ready = false;
    m_recovered = 0;
    m_timer_armed = false;
    m_timer_event.cancel();
    // A rebuild the power interrupted: the member is still rebuilding, the firmware takes it again.
    m_rebuild_taken = -1;
    m_rebuild_request = rebuilding_member();
    m_window = 0;
    m_verdicts.clear();
    m_check_awaited = m_verdicts_posted = m_members_applied = m_members_changed = false;
}

std::vector<member_verdict> iss_device::await_member_check() {
    m_check_awaited = true;
    while (!m_verdicts_posted) sc_core::wait(m_verdicts_event);
    return m_verdicts;
}

void iss_device::apply_member_check() {
    m_check_awaited = false;
    // A rebuilding member the check failed is not taken again from before the loss: it is
    // replaced anew (controller_top::replace_member, request_rebuild).
    m_rebuild_request = rebuilding_member();
    m_members_applied = true;
    update_lines();
}

void iss_device::members_changed() {
    m_members_changed = true;
    update_lines();
}

uint64_t &iss_device::window_word(const char *what) {
    const protocol::buffer_ref at = ref_of(m_window, 1, what);
    if (at.block->tokens.size() <= at.first_sector)
        firmware_error(fmt::format("{}: buffer {} carries no sector words", what, m_window >> 16));
    return at.block->tokens[at.first_sector];
}

int iss_device::waiting_rebuild() const {
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (d != m_rebuild_taken && m_platform.member_state_of(d) == member_state::rebuilding) return d;
    return -1;
}

int iss_device::rebuilding_member() const {
    for (int d = 0; d < m_platform.disk_count(); ++d)
        if (m_platform.member_state_of(d) == member_state::rebuilding) return d;
    return -1;
}

void iss_device::request_rebuild(int disk) {
    // One request at a time: another member's waiting request stays; this one is offered once
    // that is taken (waiting_rebuild).
    if (m_rebuild_request < 0 || m_rebuild_request == disk || m_platform.member_state_of(m_rebuild_request) != member_state::rebuilding)
        m_rebuild_request = disk;
    update_lines();
}

// ---- register accesses ------------------------------------------------------------------------

void iss_device::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    if (!m_platform.powered()) {  // off: the access does nothing (the core is held, iss_cpu stops)
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    const uint64_t address = gp.get_address();
    const unsigned bytes = gp.get_data_length();
    if (address >= RT_NVRAM_BASE && address + bytes <= RT_NVRAM_BASE + m_nvram_bytes) {
        nvram_access(gp, uint32_t(address - RT_NVRAM_BASE), delay);
        return;
    }
    if (bytes != 4 || (address & 3) != 0 || gp.get_byte_enable_ptr()) {
        gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);  // registers are 32-bit words
        return;
    }
    ++m_register_accesses;
    delay += m_access;
    uint32_t value = 0;
    const uint32_t offset = uint32_t(address - RT_DEVICE_BASE);
    if (gp.is_read()) {
        value = read_register(offset, delay);
        std::memcpy(gp.get_data_ptr(), &value, 4);
    } else {
        std::memcpy(&value, gp.get_data_ptr(), 4);
        write_register(offset, value, delay);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void iss_device::nvram_access(tlm::tlm_generic_payload &gp, uint32_t offset, sc_core::sc_time &delay) {
    // The NVRAM is timed by its own model: reach it when the core does.
    const uint64_t epoch = m_platform.power_epoch();
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!m_platform.powered() || m_platform.power_epoch() != epoch) return;  // the core is held
    ++m_nvram_accesses;
    if (gp.is_read())
        m_platform.nvram_read(uint64_t(m_nvram_base) + offset, gp.get_data_ptr(), gp.get_data_length());
    else
        m_platform.nvram_write(uint64_t(m_nvram_base) + offset, gp.get_data_ptr(), gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

uint32_t iss_device::read_register(uint32_t offset, sc_core::sc_time &delay) {
    const uint32_t block = offset & ~0xFFFu;
    const uint32_t reg = offset & 0xFFFu;
    if (offset >= RT_QUEUE_BASE(0) - RT_DEVICE_BASE && offset < RT_QUEUE_BASE(0) - RT_DEVICE_BASE + queue_region_bytes) {
        const uint32_t rel = offset - (RT_QUEUE_BASE(0) - RT_DEVICE_BASE);
        const queue &q = m_queues[rel / queue_stride];
        const uint32_t r = rel % queue_stride;
        if (r == RT_Q_SQ_TAIL) return q.sq_tail;
        if (r == RT_Q_SQ_HEAD) return q.sq_head;
        if (r == RT_Q_CQ_HEAD) return q.cq_head;
        if (r == RT_Q_CQ_TAIL) return q.cq_tail;
        if (r == RT_Q_DEPTH) return RT_QUEUE_DEPTH;
        if (r >= RT_Q_CQ_ENTRY(0) && r < RT_Q_CQ_ENTRY(RT_QUEUE_DEPTH)) {
            const uint32_t i = (r - RT_Q_CQ_ENTRY(0)) / 16, w = (r - RT_Q_CQ_ENTRY(0)) % 16 / 4;
            return q.cq[i][w];
        }
        if (r >= RT_Q_SQ_ENTRY(0) && r < RT_Q_SQ_ENTRY(RT_QUEUE_DEPTH)) {
            const uint32_t i = (r - RT_Q_SQ_ENTRY(0)) / 32, w = (r - RT_Q_SQ_ENTRY(0)) % 32 / 4;
            return q.sq[i][w];
        }
    } else if (block == RT_SYS_BASE - RT_DEVICE_BASE) {
        if (reg >= RT_SYS_CHANNEL_OF && reg < RT_SYS_CHANNEL_OF + 4 * RT_MAX_DISKS) {
            const int d = int((reg - RT_SYS_CHANNEL_OF) / 4);
            return d < m_platform.disk_count() ? uint32_t(m_platform.channel_of(d)) : 0;
        }
        if (reg >= RT_SYS_MEMBER_STATE && reg < RT_SYS_MEMBER_STATE + 4 * RT_MAX_DISKS) {
            const int d = int((reg - RT_SYS_MEMBER_STATE) / 4);
            if (d >= m_platform.disk_count()) return RT_STATE_FAILED;
            switch (m_platform.member_state_of(d)) {
            case member_state::optimal: return RT_STATE_OPTIMAL;
            case member_state::failed: return RT_STATE_FAILED;
            case member_state::rebuilding: return RT_STATE_REBUILDING;
            }
        }
        switch (reg) {
        case RT_SYS_ID: return RT_ID_VALUE;
        case RT_SYS_DISKS: return uint32_t(m_platform.disk_count());
        case RT_SYS_CHANNELS: return uint32_t(m_platform.config().channels);
        case RT_SYS_LAYOUT: return m_facts.layout;
        case RT_SYS_STRIPE_UNIT: return m_facts.stripe_unit_sectors;
        case RT_SYS_DISK_SECTORS: return m_facts.disk_sectors;
        case RT_SYS_TAGS_PER_DISK: return m_facts.tags_per_disk;
        case RT_SYS_HOST_SLOTS: return m_facts.host_slots;
        case RT_SYS_NVRAM_BYTES: return m_nvram_bytes;
        case RT_SYS_FAILED_DISK: {
            // A member with a fresh drive the firmware has not taken yet holds nothing of its own:
            // lost, as it was before the drive came (once taken, the firmware knows which stripes
            // its rebuild has reached).
            const int failed = m_platform.failed_disk();
            return failed >= 0 ? uint32_t(failed) : m_rebuild_request >= 0 ? uint32_t(m_rebuild_request) : RT_NO_DISK;
        }
        case RT_SYS_READY: return m_ready;
        case RT_SYS_REBUILD_DISK: {
            const int d = m_rebuild_request >= 0 ? m_rebuild_request : waiting_rebuild();
            return d < 0 ? RT_NO_DISK : uint32_t(d);
        }
        case RT_SYS_REBUILD_SHARE: return uint32_t(m_platform.config().firmware.rebuild.share * 1000 + 0.5);
        case RT_SYS_REBUILD_RATE: return uint32_t(m_platform.config().firmware.rebuild.rate_mb_s * 1000 + 0.5);
        case RT_SYS_WINDOW: return m_window;
        case RT_SYS_WINDOW_LO: return uint32_t(window_word("WINDOW_LO"));
        case RT_SYS_WINDOW_HI: return uint32_t(window_word("WINDOW_HI") >> 32);
        case RT_SYS_MEMBERS_CHECKED: return m_members_applied;
        default: break;
        }
    } else if (block == RT_IRQ_BASE - RT_DEVICE_BASE) {
        if (reg == RT_IRQ_PENDING) return m_pending;
        if (reg == RT_IRQ_ENABLE) return m_enable;
    } else if (block == RT_TIMER_BASE - RT_DEVICE_BASE) {
        if (reg == RT_TIMER_NOW_US) return uint32_t(uint64_t((sc_core::sc_time_stamp() + delay).to_seconds() * 1e6));
        if (reg == RT_TIMER_CONTROL) return m_timer_armed;
    }
    firmware_error(fmt::format("load from unmapped register 0x{:08x}", RT_DEVICE_BASE + offset));
}

void iss_device::write_register(uint32_t offset, uint32_t value, sc_core::sc_time &delay) {
    const uint32_t block = offset & ~0xFFFu;
    const uint32_t reg = offset & 0xFFFu;
    if (offset >= RT_QUEUE_BASE(0) - RT_DEVICE_BASE && offset < RT_QUEUE_BASE(0) - RT_DEVICE_BASE + queue_region_bytes) {
        const uint32_t rel = offset - (RT_QUEUE_BASE(0) - RT_DEVICE_BASE);
        const unsigned qi = rel / queue_stride;
        queue &q = m_queues[qi];
        const uint32_t r = rel % queue_stride;
        if (r >= RT_Q_SQ_ENTRY(0) && r < RT_Q_SQ_ENTRY(RT_QUEUE_DEPTH)) {
            const uint32_t i = (r - RT_Q_SQ_ENTRY(0)) / 32, w = (r - RT_Q_SQ_ENTRY(0)) % 32 / 4;
            q.sq[i][w] = value;
            return;
        }
        if (r == RT_Q_SQ_TAIL) {
            if (value >= RT_QUEUE_DEPTH) firmware_error(fmt::format("queue {}: SQ tail {} past the ring", qi, value));
            ring_doorbell(qi, value, delay);
            return;
        }
        if (r == RT_Q_CQ_HEAD) {
            if (value >= RT_QUEUE_DEPTH) firmware_error(fmt::format("queue {}: CQ head {} past the ring", qi, value));
            q.cq_head = value;
            while (!q.waiting.empty() && (q.cq_tail + 1) % RT_QUEUE_DEPTH != q.cq_head) {
                q.cq[q.cq_tail] = q.waiting.front();
                q.waiting.pop_front();
                q.cq_tail = (q.cq_tail + 1) % RT_QUEUE_DEPTH;
            }
            update_lines();
            return;
        }
    } else if (block == RT_SYS_BASE - RT_DEVICE_BASE) {
        switch (reg) {
        case RT_SYS_ARRAY_SECTORS:
            if (value != m_facts.array_sectors)
                firmware_error(fmt::format("the firmware computes an array of {} sectors, the platform's layout {}",
                                           value, m_facts.array_sectors));
            return;
        case RT_SYS_RECOVERED:
            m_recovered = value;
            return;
        case RT_SYS_LOST_LBN:
            m_lost_lbn = value;
            return;
        case RT_SYS_LOST_SECTORS:
            if (value == 0 || uint64_t(m_lost_lbn) + value > m_facts.array_sectors)
                firmware_error(fmt::format("lost range [{}, +{}) outside the array", m_lost_lbn, value));
            m_lost_ranges.emplace_back(int64_t(m_lost_lbn), int32_t(value));
            return;
        case RT_SYS_REPAIRED:
            m_media_repaired_sectors += value;
            return;
        case RT_SYS_WINDOW:
            m_window = value;
            return;
        case RT_SYS_WINDOW_LO: {
            uint64_t &w = window_word("WINDOW_LO");
            w = (w & 0xFFFFFFFF00000000ull) | value;
            return;
        }
        case RT_SYS_WINDOW_HI: {
            uint64_t &w = window_word("WINDOW_HI");
            w = (w & 0xFFFFFFFFull) | uint64_t(value) << 32;
            return;
        }
        case RT_SYS_MEMBER_VERDICT: {
            const uint32_t d = value >> 8, code = value & 0xFF;
            if (d >= uint32_t(m_platform.disk_count()) || code > RT_MEMBER_STALE)
                firmware_error(fmt::format("MEMBER_VERDICT 0x{:x}: no such member or verdict", value));
            static constexpr member_verdict verdicts[] = {member_verdict::current, member_verdict::absent,
                                                          member_verdict::missing, member_verdict::foreign,
                                                          member_verdict::stale};
            m_verdicts.resize(size_t(m_platform.disk_count()), member_verdict::current);
            m_verdicts[d] = verdicts[code];
            return;
        }
        case RT_SYS_MEMBERS_CHECKED:
            m_verdicts.resize(size_t(m_platform.disk_count()), member_verdict::current);
            m_verdicts_posted = true;
            m_verdicts_event.notify(sc_core::SC_ZERO_TIME);
            // The first power-on: nobody judges the verdicts (the array was just created).
            if (!m_check_awaited) m_members_applied = true;
            update_lines();
            return;
        case RT_SYS_MEMBERS_TAKEN:  // a change, or at start-up the applied verdicts
            m_members_changed = m_members_applied = false;
            update_lines();
            return;
        case RT_SYS_REBUILD_DISK:
            if (value != RT_NO_DISK) {
                if (value >= uint32_t(m_platform.disk_count()) ||
                    m_platform.member_state_of(int(value)) != member_state::rebuilding)
                    firmware_error(fmt::format("REBUILD_DISK {}: no such member rebuilding", value));
                ++m_rebuild.started;
                m_rebuild_taken = int(value);
            }
            // A second member with a fresh drive (beyond RAID 5's one) is offered next.
            m_rebuild_request = waiting_rebuild();
            update_lines();
            return;
        case RT_SYS_REBUILD_PROGRESS:
        case RT_SYS_REBUILD_DONE: {
            const int d = m_rebuild_taken >= 0 && m_platform.member_state_of(m_rebuild_taken) == member_state::rebuilding
                              ? m_rebuild_taken : -1;
            // The member's units the array uses: one per RAID 5 stripe.
            const uint64_t stripe_sectors = uint64_t(m_facts.stripe_unit_sectors) * uint64_t(m_platform.disk_count() - 1);
            const uint64_t units = stripe_sectors ? m_facts.array_sectors / stripe_sectors : 0;
            if (d < 0 || (reg == RT_SYS_REBUILD_DONE && value != uint32_t(d)) || value > units)
                firmware_error(fmt::format("{} {}: no such member rebuilding", reg == RT_SYS_REBUILD_DONE
                                                                                  ? "REBUILD_DONE" : "REBUILD_PROGRESS",
                                           value));
            if (reg == RT_SYS_REBUILD_DONE) {
                ++m_rebuild.finished;
                m_rebuild_taken = -1;
                m_platform.member_rebuilt(d);
                return;
            }
            ++m_rebuild.units_rebuilt;  // the firmware reports after each stripe
            m_platform.rebuild_progress(d, units ? double(value) / double(units) : 1.0);
            return;
        }
        case RT_SYS_READY:
            m_ready = value != 0;
            m_ready_event.notify(sc_core::SC_ZERO_TIME);
            return;
        case RT_SYS_CONSOLE:
            m_console += char(value);
            return;
        case RT_SYS_PANIC:
            firmware_error(fmt::format("the firmware panicked with code {} (console: \"{}\")", value, m_console));
        default: break;
        }
    } else if (block == RT_IRQ_BASE - RT_DEVICE_BASE) {
        if (reg == RT_IRQ_ENABLE) {
            m_enable = value;
            update_lines();
            return;
        }
        if (reg == RT_IRQ_WFI) {
            m_sleep_request = true;
            return;
        }
    } else if (block == RT_TIMER_BASE - RT_DEVICE_BASE) {
        if (reg == RT_TIMER_COMPARE_US) {
            // The comparator's 32-bit microsecond count, unwrapped relative to now.
            const sc_core::sc_time now = sc_core::sc_time_stamp() + delay;
            const uint32_t now_us = uint32_t(uint64_t(now.to_seconds() * 1e6));
            const uint32_t ahead_us = value - now_us;
            m_timer_at = now + sc_core::sc_time(double(ahead_us < 0x80000000u ? ahead_us : 0), sc_core::SC_US);
            return;
        }
        if (reg == RT_TIMER_CONTROL) {
            m_timer_armed = value != 0;
            m_pending &= ~(1u << RT_IRQ_TIMER);
            m_timer_event.cancel();
            if (m_timer_armed) {
                const sc_core::sc_time now = sc_core::sc_time_stamp();
                m_timer_event.notify(m_timer_at > now ? m_timer_at - now : sc_core::SC_ZERO_TIME);
            }
            update_lines();
            return;
        }
    }
    firmware_error(fmt::format("store of 0x{:x} to unmapped or read-only register 0x{:08x}", value,
                               RT_DEVICE_BASE + offset));
}

bool iss_device::take_sleep_request() {
    const bool r = m_sleep_request;
    m_sleep_request = false;
    return r;
}

void iss_device::on_timer() {
    if (!m_timer_armed) return;
    m_pending |= 1u << RT_IRQ_TIMER;
    update_lines();
}

void iss_device::update_lines() {
    uint32_t p = m_pending & (1u << RT_IRQ_TIMER);
    if (m_rebuild_request >= 0) p |= 1u << RT_IRQ_REBUILD;
    if (m_members_changed || m_members_applied) p |= 1u << RT_IRQ_MEMBERS;
    for (unsigned q = 0; q < RT_QUEUES; ++q)
        if (m_queues[q].cq_head != m_queues[q].cq_tail) p |= 1u << q;
    m_pending = p;
    if (asserted()) m_rise.notify(sc_core::SC_ZERO_TIME);  // a sleeping core wakes
}

// ---- statistics and waves -----------------------------------------------------------------------

void iss_device::reset_statistics() {
    m_descriptors.fill(0);
    m_register_accesses = m_nvram_accesses = 0;
    m_buffers_peak = m_buffers_live;
}

void iss_device::report(nlohmann::json &out) const {
    out["register_accesses"] = m_register_accesses;
    out["nvram_accesses"] = m_nvram_accesses;
    out["descriptors"] = {{"host_completions", m_descriptors[RT_Q_HOST]},
                          {"buffer", m_descriptors[RT_Q_BUFFER]},
                          {"host_dma", m_descriptors[RT_Q_DMA]},
                          {"xor", m_descriptors[RT_Q_XOR]}};
    uint64_t scsi = 0;
    for (unsigned q = RT_Q_SCSI0; q < RT_QUEUES; ++q) scsi += m_descriptors[q];
    out["descriptors"]["scsi"] = scsi;
    out["peak_buffers"] = m_buffers_peak;
    out["register_access_ns"] = m_access.to_seconds() * 1e9;
}

void iss_device::report_repairs(nlohmann::json &out) const {
    out["media_repaired_sectors"] = m_media_repaired_sectors;
    if (m_rebuild.started == 0) return;
    const double unit_mb = double(m_facts.stripe_unit_sectors) * double(protocol::sector_bytes) / 1e6;
    out["rebuild"] = {{"started", m_rebuild.started},
                      {"finished", m_rebuild.finished},
                      {"units_rebuilt", m_rebuild.units_rebuilt},
                      {"mb_rebuilt", double(m_rebuild.units_rebuilt) * unit_mb}};
}

void iss_device::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    sc_core::sc_trace(tf, m_pending, prefix + ".irq_pending");
    sc_core::sc_trace(tf, m_enable, prefix + ".irq_enable");
}

}  // namespace raidtlm::controller
