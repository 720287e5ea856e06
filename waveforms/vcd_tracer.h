// VCD tracing setup: one SystemC VCD trace file with a 1 ns time unit, closed when the tracer goes
// (or by close()). Create it during elaboration, register signals with the modules'
// trace(tf, prefix), run, then close before reading the file.
//
// SystemC writes every traced name under a top scope "SystemC", and a dotted name becomes nested
// scopes ("disk0.state" -> scope disk0, variable state); GTKWave then calls a 32-bit integer
// "SystemC.disk0.state[31:0]". gtkwave_name() gives that name for a .gtkw file.
#pragma once

#include <string>

#include <systemc>

namespace raidtlm::waveforms {

class vcd_tracer {
public:
    // `path` is the file to write, e.g. "out/waves.vcd" (SystemC insists on the .vcd suffix: one is
    // added if missing).
    explicit vcd_tracer(const std::string &path);
    ~vcd_tracer();
    vcd_tracer(const vcd_tracer &) = delete;
    vcd_tracer &operator=(const vcd_tracer &) = delete;

    sc_core::sc_trace_file *file() const { return m_file; }
    const std::string &path() const { return m_path; }
    void close();

    // The name GTKWave shows for a traced variable of `bits` bits registered as `trace_name`.
    static std::string gtkwave_name(const std::string &trace_name, int bits = 32);

private:
    sc_core::sc_trace_file *m_file = nullptr;
    std::string m_path;
};

}  // namespace raidtlm::waveforms
