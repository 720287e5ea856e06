// A model quantity shown in the waves that says when it changes, so the trace file need not
// compare every traced variable at every time step of the kernel (on the teaching scenarios that
// comparison was a fifth of a traced run). Used as the plain int or bool it replaces; register it
// with waveforms::trace(tf, member, name) (sc_core::sc_trace would trace a temporary copy).
//
// With raidtlm's own trace file (vcd_file) a change within the waves' window marks the variable
// for the time step's writing; outside the window, or untraced, a change costs one compare.
// With any other sc_trace_file the value is sampled as a plain variable.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

namespace raidtlm::waveforms {

class vcd_file;

// What the trace file sets in a traced value: whom to tell of a change (only while the window
// is open) and its place there.
struct traced_link {
    vcd_file *sink = nullptr;
    uint32_t index = 0;
};
void tell_changed(const traced_link &link);  // vcd_file.cpp

template <typename T>
class traced_value {
public:
    traced_value(T v = T()) : m_value(v) {}  // NOLINT: used as the plain value it replaces
    traced_value(const traced_value &o) : m_value(o.m_value) {}
    traced_value &operator=(const traced_value &o) { return *this = o.m_value; }
    traced_value &operator=(T v) {
        if (v != m_value) {
            m_value = v;
            if (m_link.sink) tell_changed(m_link);
        }
        return *this;
    }
    operator T() const { return m_value; }  // NOLINT
    T value() const { return m_value; }
    traced_value &operator+=(T d) { return *this = T(m_value + d); }
    traced_value &operator-=(T d) { return *this = T(m_value - d); }
    traced_value &operator++() { return *this = T(m_value + 1); }
    traced_value &operator--() { return *this = T(m_value - 1); }
    T operator++(int) {
        const T old = m_value;
        ++*this;
        return old;
    }
    T operator--(int) {
        const T old = m_value;
        --*this;
        return old;
    }

    // For the trace file.
    const T &stored() const { return m_value; }
    traced_link &link() const { return m_link; }

private:
    T m_value;
    mutable traced_link m_link;  // set by the trace file: not part of the value
};

using traced_int = traced_value<int>;
using traced_flag = traced_value<bool>;

// Registers `v` as `name` in `tf`.
void trace(sc_core::sc_trace_file *tf, const traced_int &v, const std::string &name);
void trace(sc_core::sc_trace_file *tf, const traced_flag &v, const std::string &name);

}  // namespace raidtlm::waveforms
