// The XOR engine: N-input XOR from buffer memory to buffer memory (xor_logic.h for the arithmetic
// and the cycle count), with a command queue.
//
// A TLM-2.0 target: a generic payload carrying a protocol::xor_command; b_transport returns when
// the command is done. Commands queue FIFO, at most queue_depth accepted at a time (a submitter
// beyond that waits for room). Each command costs its setup cycles, then streams its N inputs in
// and its result out through the buffer DRAM's XOR port (initiator socket `dram`) at the engine's
// bytes/cycle x clock or the DRAM's share, whichever is slower. The result's tokens are the XOR of
// the inputs' tokens, so parity built here is checked exactly.
//
// A command with coefficients runs in the GF(2^8) multiply-accumulate mode (RAID 6's Q and
// two-erasure recovery, rtl_models/xor/gf256.h) at gf_bytes_per_cycle; it shares the queue, the
// clock and the DRAM port with XOR commands (one engine, two modes), and is counted apart.
//
// Traced: <prefix>.busy, <prefix>.gf_busy (a multiply-accumulate command running), <prefix>.queue_depth
// (commands accepted and not done).
#pragma once

#include <deque>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/common/resource_stats.h"
#include "rtl_models/xor/xor_logic.h"
#include "tlm/dma_command.h"
#include "waveforms/traced_value.h"

namespace raidtlm::rtl_models {

struct xor_statistics {
    uint64_t commands = 0;  // both modes
    double result_bytes = 0;
    double busy_s = 0;
    // Of these, the multiply-accumulate (GF) mode's.
    uint64_t gf_commands = 0;
    double gf_result_bytes = 0;
    double gf_busy_s = 0;
    wait_stats wait;  // submitted -> started
    double since_s = 0;
};

class xor_engine : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<xor_engine> command;
    tlm_utils::simple_initiator_socket<xor_engine> dram;

    xor_engine(sc_core::sc_module_name name, const xor_config &config);

    const xor_config &config() const { return m_config; }
    const xor_statistics &statistics() const { return m_stats; }
    void reset_statistics();
    double utilisation() const;
    int queue_depth() const { return m_depth; }
    void trace(sc_core::sc_trace_file *tf, const std::string &prefix);

private:
    struct job;
    SC_HAS_PROCESS(xor_engine);
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    void engine_thread();
    void execute(job &j);

    xor_config m_config;
    std::deque<job *> m_queue;
    sc_core::sc_event m_arrival;
    sc_core::sc_event m_room;
    waveforms::traced_int m_depth = 0;  // accepted, not done (traced)
    waveforms::traced_flag m_busy = false;     // traced
    waveforms::traced_flag m_gf_busy = false;  // traced
    xor_statistics m_stats;
};

}  // namespace raidtlm::rtl_models
