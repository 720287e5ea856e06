#include "rtl_models/memory/nvram.h"
#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"


#include <algorithm>
#include <cstring>

namespace raidtlm::rtl_models {

nvram::nvram(sc_core::sc_module_name name, const nvram_config &config)
    : sc_module(name), socket("socket"), m_config(config), m_bytes(config.capacity_bytes, 0) {
    socket.register_b_transport(this, &nvram::b_transport);
    socket.register_transport_dbg(this, &nvram::transport_dbg);
}

int64_t nvram::allocate(uint64_t bytes) {
    int64_t at = 0;
    for (const auto &[addr, size] : m_allocated) {
        if (uint64_t(addr - at) >= bytes) break;
        at = addr + int64_t(size);
    }
    if (uint64_t(at) + bytes > m_config.capacity_bytes) return -1;
    m_allocated[at] = bytes;
    m_used += bytes;
    m_stats.occupancy_bytes.set(now_s(), double(m_used));
    m_trace_occupancy = int(m_used);
    return at;
}

void nvram::release(int64_t address) {
    auto it = m_allocated.find(address);
    if (it == m_allocated.end()) return;
    m_used -= it->second;
    m_allocated.erase(it);
    m_stats.occupancy_bytes.set(now_s(), double(m_used));
    m_trace_occupancy = int(m_used);
}

bool nvram::in_range(const tlm::tlm_generic_payload &gp) const {
    return gp.get_address() <= m_config.capacity_bytes &&
           gp.get_data_length() <= m_config.capacity_bytes - gp.get_address();
}

void nvram::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    if (!in_range(gp)) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    // One access at a time, in arrival order: its slot is known when it arrives.
    const double now = now_s();
    const double start = std::max(now, m_free_at_s);
    const double d = m_config.access_s(gp.get_data_length());
    m_free_at_s = start + d;
    m_stats.wait.add(start - now);
    m_stats.busy_s += d;
    (gp.is_write() ? m_stats.writes : m_stats.reads) += 1;
    m_stats.bytes += double(gp.get_data_length());
    m_trace_busy = true;
    if (m_free_at_s > now) sc_core::wait(span_s(m_free_at_s - now));
    if (now_s() >= m_free_at_s - 1e-12) m_trace_busy = false;
    transport_dbg(gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned nvram::transport_dbg(tlm::tlm_generic_payload &gp) {
    if (!in_range(gp)) return 0;
    unsigned char *p = m_bytes.data() + gp.get_address();
    if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
    else std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
    return gp.get_data_length();
}

void nvram::reset_statistics() {
    nvram_statistics fresh;
    fresh.occupancy_bytes = m_stats.occupancy_bytes;
    fresh.occupancy_bytes.restart(now_s());
    fresh.since_s = now_s();
    m_stats = fresh;
}

double nvram::utilisation() const { return fraction_since(m_stats.busy_s, m_stats.since_s); }

void nvram::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_trace_occupancy, prefix + ".occupancy_bytes");
    waveforms::trace(tf, m_trace_busy, prefix + ".busy");
}

}  // namespace raidtlm::rtl_models
