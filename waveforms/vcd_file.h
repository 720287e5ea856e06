// A VCD trace file for SystemC (sc_trace(tf, var, name) as usual) that costs little per time step.
// SystemC 2.3.4's own VCD writer builds a stringstream for every time stamp and a bit string for
// every value it writes; on raidtlm's runs that made waves cost 6-12x the untraced run (issue 12).
// This one keeps the traced variables' last values in flat arrays, compares them at each time step
// the kernel reports, and writes the changes with its own number formatting into a buffer.
//
// Changes known ahead of time (a drive's whole access, a bus phase after arbitration, a CPU
// routine's start) come to it with their times (schedule(), through waveforms::scheduled_trace)
// instead of as kernel events: it writes them at their times once simulated time has passed them,
// so tracing adds no time step to the run. Such a variable is no longer sampled; it takes either
// absolute values or increments before the window (both: kept in order until the window opens).
//
// The window [from, to]: before it the file is not among the kernel's trace files (no call per
// time step, no comparison, no writing; a scheduled change due before `from` only updates the
// variable's value); at `from` it registers, writes the values then as the initial values, and
// after `to` it leaves the kernel again and drops what is scheduled later. It names signals as
// SystemC's writer does (top scope "SystemC", a dotted name nested scopes, "name [31:0]" for a
// 32-bit variable), so GTKWave shows the same names.
//
// Traceable: bool, int, unsigned int, long/long long and their unsigned forms (as their widths),
// double (as a real). Anything else is an error naming the signal. Time unit: the kernel's
// resolution (1 ps by default), so every change is at its exact time.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "waveforms/monotone_changes.h"
#include "waveforms/traced_value.h"

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

    // `var` (traced in this file) takes `value` (relative: changes by it) at `at_s` seconds of
    // simulated time (now or later; earlier means now). Changes due at one instant apply in the
    // order scheduled.
    void schedule(const int &var, int value, bool relative, double at_s);
    // `var` (an int traced in this file) holding `value` is written as z, high impedance: GTKWave
    // draws it as nothing driven (e.g. "no request" for a request number, -1 in the model).
    void show_undriven(const int &var, int value);
    // A variable that tells of its changes (traced_value): never compared at time steps.
    void trace_announced(const traced_int &v, const std::string &name);
    void trace_announced(const traced_flag &v, const std::string &name);
    // From traced_value, within the window: `index` changed in this time step.
    void changed(uint32_t index) {
        variable &v = m_vars[index];
        if (!v.touched) {
            v.touched = true;
            m_touched.push_back(index);
        }
    }

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
    class window_gate;
    enum class kind { boolean, int32, uint32, int64, uint64, real };
    struct variable {
        const void *object;
        kind type;
        int bits;
        std::string name;  // as given (dotted)
        std::string id;    // the VCD identifier
        uint64_t last = 0; // the last value written (bit pattern; a double's bits for real)
        // Scheduled (not sampled): before the window the latest absolute value's (time, order),
        // whether it took absolute values, increments, or both (then kept in m_changes).
        bool scheduled = false, takes_sets = false, takes_adds = false;
        uint64_t fold_at = 0, fold_seq = 0;
        // The latest absolute value scheduled and its time: a set to the value it already holds
        // from then on is no change and not kept.
        uint64_t latest_at = 0;
        int latest_value = 0;
        bool dirty = false;  // changed at the instant being written
        traced_link *announces = nullptr;  // a traced_value's: it tells of its changes
        bool touched = false;              // it did in this time step
        bool has_undriven = false;  // undriven_value is written as z
        int undriven_value = 0;
    };
    struct index_cache_entry {
        const void *object = nullptr;
        size_t index = 0;
    };
    struct change {
        uint32_t var;
        int value;
        bool relative;
    };
    void add(const void *object, kind type, int bits, const std::string &name);
    static void unsupported(const std::string &name);
    uint64_t value_of(const variable &v) const;
    void compare_and_write(size_t var, uint64_t value, uint64_t now, bool &stamped);
    void write_header();
    void write_value(const variable &v, uint64_t value);
    void write_time(uint64_t t);
    void flush();
    size_t scheduled_index(const int &var);
    void apply(const change &c);
    // Writes the scheduled changes due before `through` (through it when `inclusive`), each
    // instant with its time stamp.
    void write_scheduled(uint64_t through, bool inclusive);
    // Writes the net change of each scheduled variable changed at instant `t`.
    void write_dirty(uint64_t t, bool &stamped);
    void rebuild_sampled();
    void start_window();
    void end_window();
    void enter_kernel();
    void leave_kernel();
    void link_announced(bool open);  // tell the traced_values to announce (or stop)

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
    bool m_sampled_stale = false;  // a variable became scheduled: rebuild the arrays above
    std::unordered_map<const void *, size_t> m_index;  // object -> m_vars index
    std::array<index_cache_entry, 64> m_index_cache{};
    monotone_changes<change> m_changes;                 // scheduled, due from the window's start on
    std::vector<size_t> m_dirty;                        // scheduled variables changed at one instant
    std::vector<uint32_t> m_touched;                    // announced changes in this time step
    double m_ticks_per_s;
    std::unique_ptr<window_gate> m_gate;  // registers the file at the window's start
    bool m_in_kernel = false;             // among the kernel's trace files
    bool m_ended = false;                 // past the window's end
    std::string m_buffer;
    std::vector<std::string> m_comments;
    uint64_t m_from = 0, m_to = 0;  // in kernel resolution units; m_to 0: no end
    bool m_header_written = false;
    bool m_started = false;         // the initial values dumped
    uint64_t m_last_time = 0;       // the last time stamp written
    bool m_failed = false;
};

}  // namespace raidtlm::waveforms
