// VCD tracing setup: one trace file (waveforms::vcd_file) in the kernel's time resolution (1 ps),
// written only within a time window, closed when the tracer goes (or by close()). Create it during
// elaboration, register signals with the modules' trace(tf, prefix), run, then close before
// reading the file.
//
// Signals are named as SystemC's own VCD writer names them: everything under a top scope
// "SystemC", a dotted name as nested scopes ("disk0.state" -> scope disk0, variable state);
// GTKWave then calls a 32-bit integer "SystemC.disk0.state[31:0]". gtkwave_name() gives that name
// for a .gtkw file.
#pragma once

#include <memory>
#include <string>

#include <systemc>

namespace raidtlm::waveforms {

class vcd_file;

class vcd_tracer {
public:
    // `path` is the file to write, e.g. "out/waves.vcd"; `from`/`to` the window (to zero: the
    // end of the run).
    explicit vcd_tracer(const std::string &path, const sc_core::sc_time &from = sc_core::SC_ZERO_TIME,
                        const sc_core::sc_time &to = sc_core::SC_ZERO_TIME);
    ~vcd_tracer();
    vcd_tracer(const vcd_tracer &) = delete;
    vcd_tracer &operator=(const vcd_tracer &) = delete;

    sc_core::sc_trace_file *file() const;
    const std::string &path() const { return m_path; }
    // The dump's time unit (the kernel's resolution), in seconds.
    double time_unit_s() const;
    // Throws std::runtime_error("PATH: cannot write ...") when the file could not be written.
    void close();

    // The name GTKWave shows for a traced variable of `bits` bits registered as `trace_name`.
    static std::string gtkwave_name(const std::string &trace_name, int bits = 32);

private:
    std::unique_ptr<vcd_file> m_file;
    std::string m_path;
};

}  // namespace raidtlm::waveforms
