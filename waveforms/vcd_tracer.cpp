#include "waveforms/vcd_tracer.h"

#include "waveforms/vcd_file.h"

namespace raidtlm::waveforms {

vcd_tracer::vcd_tracer(const std::string &path, const sc_core::sc_time &from, const sc_core::sc_time &to)
    : m_file(std::make_unique<vcd_file>(path, from, to)), m_path(path) {}

vcd_tracer::~vcd_tracer() = default;

sc_core::sc_trace_file *vcd_tracer::file() const { return m_file.get(); }

double vcd_tracer::time_unit_s() const { return m_file->time_unit_s(); }

void vcd_tracer::close() { m_file->close(); }

std::string vcd_tracer::gtkwave_name(const std::string &trace_name, int bits) {
    std::string n = "SystemC." + trace_name;
    if (bits > 1) n += "[" + std::to_string(bits - 1) + ":0]";
    return n;
}

}  // namespace raidtlm::waveforms
