// Non-volatile RAM on the controller (battery-backed): a small byte-addressable memory whose
// contents survive a power loss, for what must outlive one (later issues keep the delayed-write
// table and the parity-log buffers here; the first firmware keeps its write-intent records).
//
// A TLM-2.0 target: a generic-payload read or write of data_length bytes at `address`, timed as
// the access latency plus the bytes at the NVRAM's bandwidth, one access at a time (FIFO, so a
// caller waits once); transport_dbg reads and writes without time (inspection after a power
// loss). Space is handed out by allocate()/release(); the bytes allocated are its occupancy.
//
// Traced: <prefix>.occupancy_bytes, <prefix>.busy.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/common/resource_stats.h"
#include "waveforms/traced_value.h"

namespace raidtlm::rtl_models {

// Defaults: a documented assumption for battery-backed SRAM on an I/O processor's peripheral
// bus: 512 KiB, 150 ns per access, 100 MB/s.
struct nvram_config {
    uint64_t capacity_bytes = 512 * 1024;
    double latency_ns = 150;
    double mb_per_s = 100;  // 0 = unlimited

    // Time of one access of `bytes`, seconds.
    double access_s(uint64_t bytes) const {
        return latency_ns * 1e-9 + (mb_per_s > 0 ? double(bytes) / (mb_per_s * 1e6) : 0.0);
    }
};

struct nvram_statistics {
    uint64_t reads = 0, writes = 0;
    double bytes = 0;
    double busy_s = 0;
    wait_stats wait;
    level_meter occupancy_bytes;
    double since_s = 0;
};

class nvram : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<nvram> socket;

    nvram(sc_core::sc_module_name name, const nvram_config &config);

    const nvram_config &config() const { return m_config; }
    // Space for `bytes` (first fit); returns its address, or -1 when the NVRAM is full.
    int64_t allocate(uint64_t bytes);
    void release(int64_t address);
    uint64_t used_bytes() const { return m_used; }
    // Address -> size of every allocation.
    const std::map<int64_t, uint64_t> &allocations() const { return m_allocated; }

    // Power loss: the contents and the allocations stay (that is what NVRAM is for).
    void power_fail() { ++m_power_failures; }
    int power_failures() const { return m_power_failures; }

    const nvram_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    double utilisation() const;
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &gp);
    bool in_range(const tlm::tlm_generic_payload &gp) const;

    nvram_config m_config;
    std::vector<unsigned char> m_bytes;
    std::map<int64_t, uint64_t> m_allocated;  // address -> size
    uint64_t m_used = 0;
    double m_free_at_s = 0;  // the port is busy until then
    int m_power_failures = 0;
    nvram_statistics m_stats;
    waveforms::traced_int m_trace_occupancy = 0;
    waveforms::traced_flag m_trace_busy = false;
};

}  // namespace raidtlm::rtl_models
