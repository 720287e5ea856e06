// A VCD trace file for SystemC (sc_trace(tf, var, name) as usual) that costs little per time step.
// SystemC 2.3.4's own VCD writer builds a stringstream for every time stamp and a bit string for
// every value it writes; on raidtlm's runs that made waves cost 6-12x the untraced run (issue 12).
// This one keeps the traced variables' last values in flat arrays, compares them at each time step
// the kernel reports, and writes the changes with its own number formatting into a buffer. It
// writes only within a time window [from, to) (the values at `from` as the initial values), so a
// window also saves the writing, and names signals as SystemC's writer does (top scope "SystemC",
// a dotted name nested scopes, "name [31:0]" for a 32-bit variable), so GTKWave shows the same names.
//
// Traceable: bool, int, unsigned int, long/long long and their unsigned forms (as their widths),
// double (as a real). Anything else is an error naming the signal. Time unit: the kernel's
// resolution (1 ps by default), so every change is at its exact time.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <systemc>

namespace raidtlm::waveforms {

class vcd_file : public sc_core::sc_trace_file {
public:
    // `path`: the file; `from`/`to`: the window in simulated time (to = SC_ZERO_TIME: no end).
    vcd_file(const std::string &path, const sc_core::sc_time &from = sc_core::SC_ZERO_TIME,
             const sc_core::sc_time &to = sc_core::SC_ZERO_TIME);
    ~vcd_file() override;
    vcd_file(const vcd_file &) = delete;
    vcd_file &operator=(const vcd_file &) = delete;

    // Writes what is pending and closes the file (also at destruction); throws
    // std::runtime_error("PATH: cannot write ...") when the file could not be written.
    void close();
    // The dump's time unit (the kernel's resolution), seconds.
    double time_unit_s() const;

    // sc_trace_file: the kinds raidtlm traces; the others report an error.
    void trace(const bool &object, const std::string &name) override { add(&object, kind::boolean, 1, name); }
    void trace(const int &object, const std::string &name, int width) override;
    void trace(const unsigned int &object, const std::string &name, int width) override;
    void trace(const long &object, const std::string &name, int width) override;
    void trace(const unsigned long &object, const std::string &name, int width) override;
    void trace(const sc_dt::int64 &object, const std::string &name, int width) override;
    void trace(const sc_dt::uint64 &object, const std::string &name, int width) override;
    void trace(const double &object, const std::string &name) override { add(&object, kind::real, 64, name); }

    void trace(const sc_core::sc_event &, const std::string &name) override { unsupported(name); }
    void trace(const sc_core::sc_time &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_bit &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_logic &, const std::string &name) override { unsupported(name); }
    void trace(const unsigned char &, const std::string &name, int) override { unsupported(name); }
    void trace(const unsigned short &, const std::string &name, int) override { unsupported(name); }
    void trace(const char &, const std::string &name, int) override { unsupported(name); }
    void trace(const short &, const std::string &name, int) override { unsupported(name); }
    void trace(const float &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_int_base &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_uint_base &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_signed &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_unsigned &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_fxval &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_fxval_fast &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_fxnum &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_fxnum_fast &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_bv_base &, const std::string &name) override { unsupported(name); }
    void trace(const sc_dt::sc_lv_base &, const std::string &name) override { unsupported(name); }
    void trace(const unsigned int &, const std::string &name, const char **) override { unsupported(name); }
    void write_comment(const std::string &comment) override;
    void set_time_unit(double, sc_core::sc_time_unit) override {}  // always the kernel's resolution

protected:
    void cycle(bool delta_cycle) override;

private:
    enum class kind { boolean, int32, uint32, int64, uint64, real };
    struct variable {
        const void *object;
        kind type;
        int bits;
        std::string name;  // as given (dotted)
        std::string id;    // the VCD identifier
        uint64_t last = 0; // the last value written (bit pattern; a double's bits for real)
    };
    void add(const void *object, kind type, int bits, const std::string &name);
    static void unsupported(const std::string &name);
    uint64_t value_of(const variable &v) const;
    void compare_and_write(size_t var, uint64_t value, uint64_t now, bool &stamped);
    void write_header();
    void write_value(const variable &v, uint64_t value);
    void write_time(uint64_t t);
    void flush();

    std::string m_path;
    std::FILE *m_file = nullptr;
    std::vector<variable> m_vars;
    // The 32-bit integers and the flags (nearly every signal) compared in tight loops: their
    // objects, their last values and their index in m_vars; the others go through value_of().
    std::vector<const int32_t *> m_int_objects;
    std::vector<int32_t> m_int_last;
    std::vector<size_t> m_int_var;
    std::vector<const bool *> m_bool_objects;
    std::vector<char> m_bool_last;  // not vector<bool>: a byte each, compared in a tight loop
    std::vector<size_t> m_bool_var;
    std::vector<size_t> m_other_var;
    std::string m_buffer;
    std::vector<std::string> m_comments;
    uint64_t m_from = 0, m_to = 0;  // in kernel resolution units; m_to 0: no end
    bool m_header_written = false;
    bool m_started = false;         // the initial values dumped
    uint64_t m_last_time = 0;       // the last time stamp written
    bool m_failed = false;
};

}  // namespace raidtlm::waveforms
