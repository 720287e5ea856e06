// The controller's buffer DRAM: buffer space that blocks when full, and bandwidth shared by DMA
// ports through an arbiter (dram_arbiter.h: round-robin or fixed priority, granted in bursts).
//
// Sockets (TLM-2.0 targets):
//   port[i]  one per DMA port (host DMA, each SCSI channel's DMA, the XOR engine, the CPU); a
//            transaction carries a protocol::dma_command and blocks its caller until the DRAM has
//            moved the bytes, copying tokens between the payload and the buffer. With a posted_dma
//            extension (posted_dma.h) it starts at the annotated time and returns at once, counted
//            on the extension's dma_tracker: the SCSI channels' data phases, planned by the drive
//            possibly ahead of time.
//   space    buffer space: a buffer_request (buffer_request.h) allocates (blocking while full) or
//            frees a buffer_block.
// allocate/free/transfer/transfer_at are what the sockets do, for tests that hold the module.
//
// Bandwidth is shared as a fluid: while the set of active transfers is unchanged each moves at its
// arbitrated share (capped by its source's rate); the shares are recomputed, and one kernel event
// scheduled, only when a transfer starts or ends. With unlimited bandwidth nothing waits.
//
// Traced: <prefix>.occupancy_kib (buffer space allocated), <prefix>.alloc_waiting,
// <prefix>.grant_<port> (1 while the port moves data).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/common/blocking_target.h"
#include "rtl_models/memory/buffer_request.h"
#include "rtl_models/memory/dram_arbiter.h"
#include "rtl_models/memory/posted_dma.h"
#include "rtl_models/common/resource_stats.h"
#include "tlm/dma_command.h"
#include "waveforms/traced_value.h"

namespace raidtlm::rtl_models {

struct dram_port {
    std::string name;
    int priority = 0;  // fixed_priority: higher first
};

struct dram_port_statistics {
    uint64_t transfers = 0;
    double bytes = 0;    // bytes charged (whole bursts)
    double busy_s = 0;   // time with data moving
    wait_stats wait;     // per transfer: time beyond what it would take alone at its source's rate
};

struct dram_statistics {
    double bytes = 0;  // all ports
    std::vector<dram_port_statistics> ports;
    uint64_t allocations = 0;
    wait_stats alloc_wait;
    level_meter occupancy_bytes;
    double since_s = 0;
};

// The module is its `space` socket's forward interface (b_transport only).
class buffer_dram : public sc_core::sc_module, private blocking_target {
public:
    sc_core::sc_vector<tlm_utils::simple_target_socket_tagged<buffer_dram>> port;
    // May stay unbound (allocate()).
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND> space;

    buffer_dram(sc_core::sc_module_name name, const dram_config &config, const std::vector<dram_port> &ports);
    ~buffer_dram() override;

    const dram_config &config() const { return m_config; }
    int port_count() const { return int(m_ports.size()); }
    const dram_port &port_info(int i) const { return m_ports.at(size_t(i)); }
    int port_index(const std::string &name) const;  // -1 if none

    // Buffer space of `bytes` (FIFO: a request waits behind earlier ones), with `token_sectors`
    // tokens when data are carried. Blocks the calling SC_THREAD while the DRAM is full.
    protocol::buffer_block *allocate(uint64_t bytes, uint64_t token_sectors);
    void free(protocol::buffer_block *b);

    // Moves `bytes` through port `p` starting now, at most at `cap_bytes_per_s` (0: no cap);
    // blocks the calling SC_THREAD until done.
    void transfer(int p, uint64_t bytes, double cap_bytes_per_s);
    // The same, starting at `start` (now or later), without blocking: `t.pending` counts it until
    // it is done, then t.done is notified.
    void transfer_at(int p, uint64_t bytes, const sc_core::sc_time &start, double cap_bytes_per_s, dma_tracker &t);

    // Power loss: the contents of every buffer are gone (tokens poisoned); allocations stay
    // accounted.
    void power_fail();
    // Power back: every buffer is free again (whoever held one is gone); waiting requests dropped.
    void power_restore();
    static constexpr uint64_t poison_token = 0xdead'dead'dead'deadull;

    const dram_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    double utilisation() const;  // bytes moved / (bandwidth x time) since the last reset
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    struct flow;
    struct waiter;
    SC_HAS_PROCESS(buffer_dram);
    void b_transport(int p, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    // `space`
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) override;
    bool costs_time(int p, uint64_t bytes);
    void add_flow(flow &f, int p, uint64_t bytes, double cap, const sc_core::sc_time &start);
    void advance();
    void settle(double now);
    void on_wake();
    void set_occupancy(double now);

    dram_config m_config;
    std::vector<dram_port> m_ports;
    std::vector<flow *> m_flows;  // started or due to start
    std::vector<std::unique_ptr<flow>> m_flow_pool;
    std::vector<flow *> m_free_flows;
    std::vector<bandwidth_demand> m_demands;
    std::vector<double> m_rates;
    std::vector<char> m_moving;  // scratch: ports that moved data
    sc_core::sc_time m_last;  // advance() moved the transfers to here
    sc_core::sc_event m_wake;
    // Buffer space.
    uint64_t m_used = 0;
    std::vector<waiter *> m_alloc_queue;
    std::vector<std::unique_ptr<protocol::buffer_block>> m_block_pool;
    std::vector<protocol::buffer_block *> m_free_blocks;
    dram_statistics m_stats;
    // Traced.
    waveforms::traced_int m_occupancy_kib = 0;
    waveforms::traced_int m_alloc_waiting = 0;
    std::vector<waveforms::traced_flag> m_grant;
};

}  // namespace raidtlm::rtl_models
