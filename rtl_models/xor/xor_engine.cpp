#include "rtl_models/xor/xor_engine.h"
#include "rtl_models/xor/gf256.h"
#include "rtl_models/common/sim_time.h"
#include "tlm/annotated_delay.h"


#include <algorithm>

namespace raidtlm::rtl_models {

struct xor_engine::job {
    protocol::xor_command *cmd;
    double submitted_s;
    sc_core::sc_event done;
    bool finished = false;
};

xor_engine::xor_engine(sc_core::sc_module_name name, const xor_config &config)
    : sc_module(name), command("command"), dram("dram"), m_config(config) {
    if (config.mhz <= 0 || config.bytes_per_cycle <= 0 || config.gf_bytes_per_cycle <= 0 || config.queue_depth < 1)
        SC_REPORT_FATAL("/raidtlm/rtl_models/xor_engine", "clock, bytes per cycle and queue depth must be > 0");
    command.register_b_transport(this, &xor_engine::b_transport);
    SC_THREAD(engine_thread);
}

void xor_engine::b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay) {
    protocol::wait_annotated(delay);
    auto *cmd = gp.get_extension<protocol::xor_command>();
    if (!cmd || cmd->inputs.empty() || !cmd->output.block ||
        (!cmd->coefficients.empty() && cmd->coefficients.size() != cmd->inputs.size())) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    job j{cmd, now_s(), {}, false};
    while (m_depth >= m_config.queue_depth) sc_core::wait(m_room);
    ++m_depth;
    m_queue.push_back(&j);
    m_arrival.notify(sc_core::SC_ZERO_TIME);
    while (!j.finished) sc_core::wait(j.done);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void xor_engine::engine_thread() {
    for (;;) {
        while (m_queue.empty()) sc_core::wait(m_arrival);
        job *j = m_queue.front();
        m_queue.pop_front();
        execute(*j);
        --m_depth;
        m_room.notify(sc_core::SC_ZERO_TIME);
        j->finished = true;
        j->done.notify(sc_core::SC_ZERO_TIME);
    }
}

void xor_engine::execute(job &j) {
    const protocol::xor_command &c = *j.cmd;
    const double start = now_s();
    m_stats.wait.add(start - j.submitted_s);
    const bool gf = !c.coefficients.empty();
    m_busy = true;
    m_gf_busy = gf;
    const uint64_t block_bytes = c.sectors * 512;
    sc_core::wait(span_s(double(m_config.setup_cycles) * m_config.cycle_s()));
    // N inputs in, one result out, through the DRAM at the engine's pace at best.
    const double stream_start = now_s();
    const double n = double(c.inputs.size() + 1);
    tlm::tlm_generic_payload gp;
    protocol::dma_command d;
    d.bytes = uint64_t(n) * block_bytes;
    d.cap_bytes_per_s = n * m_config.bytes_per_s(gf);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(0);
    gp.set_extension(&d);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    dram->b_transport(gp, delay);
    gp.clear_extension(&d);
    const double engine_s = double(m_config.cycles(block_bytes, gf) - m_config.setup_cycles) * m_config.cycle_s();
    const double left = engine_s - (now_s() - stream_start);
    if (left > 1e-12) sc_core::wait(span_s(left));
    // The tokens.
    std::vector<const uint64_t *> in;
    bool data = c.output.block->tokens.size() >= c.output.first_sector + c.sectors;
    for (const protocol::buffer_ref &r : c.inputs) {
        if (!r.block || r.block->tokens.size() < r.first_sector + c.sectors) data = false;
        else in.push_back(r.block->tokens.data() + r.first_sector);
    }
    uint64_t *out = c.output.block->tokens.data() + c.output.first_sector;
    if (data && gf) gf256::multiply_accumulate_tokens(in, c.coefficients, c.sectors, out);
    else if (data) xor_tokens(in, c.sectors, out);
    ++m_stats.commands;
    m_stats.result_bytes += double(block_bytes);
    m_stats.busy_s += now_s() - start;
    if (gf) {
        ++m_stats.gf_commands;
        m_stats.gf_result_bytes += double(block_bytes);
        m_stats.gf_busy_s += now_s() - start;
    }
    m_busy = false;
    m_gf_busy = false;
}

void xor_engine::reset_statistics() {
    xor_statistics fresh;
    fresh.since_s = now_s();
    m_stats = fresh;
}

double xor_engine::utilisation() const { return fraction_since(m_stats.busy_s, m_stats.since_s); }

void xor_engine::trace(sc_core::sc_trace_file *tf, const std::string &prefix) {
    waveforms::trace(tf, m_busy, prefix + ".busy");
    waveforms::trace(tf, m_gf_busy, prefix + ".gf_busy");
    waveforms::trace(tf, m_depth, prefix + ".queue_depth");
}

}  // namespace raidtlm::rtl_models
