#include "waveforms/vcd_tracer.h"

namespace raidtlm::waveforms {

vcd_tracer::vcd_tracer(const std::string &path) {
    std::string base = path;
    const std::string suffix = ".vcd";
    if (base.size() >= suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        base.resize(base.size() - suffix.size());
    m_path = base + suffix;
    m_file = sc_core::sc_create_vcd_trace_file(base.c_str());
    m_file->set_time_unit(1, sc_core::SC_NS);
    // Models compute times finer than 1 ns (the kernel resolution is 1 ps); the VCD shows them to
    // the nanosecond, which is what a waveform needs. Without this SystemC warns at every such
    // change (W713).
    sc_core::sc_report_handler::set_actions("current kernel time is not representable in VCD time units",
                                            sc_core::SC_DO_NOTHING);
}

vcd_tracer::~vcd_tracer() { close(); }

void vcd_tracer::close() {
    if (m_file) {
        sc_core::sc_close_vcd_trace_file(m_file);
        m_file = nullptr;
    }
}

std::string vcd_tracer::gtkwave_name(const std::string &trace_name, int bits) {
    std::string n = "SystemC." + trace_name;
    if (bits > 1) n += "[" + std::to_string(bits - 1) + ":0]";
    return n;
}

}  // namespace raidtlm::waveforms
