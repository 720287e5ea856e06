#include "waveforms/vcd_file.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::waveforms {

namespace {

const char *msg_type = "/raidtlm/waveforms/vcd_file";

// VCD identifiers: printable characters '!'..'~', shortest first.
std::string identifier(size_t n) {
    std::string id;
    do {
        id += char('!' + n % 94);
        n /= 94;
    } while (n > 0);
    return id;
}

struct scope_node {
    std::map<std::string, scope_node> children;
    std::vector<size_t> vars;
};

}  // namespace

// Registers the file with the kernel when simulated time reaches the window's start: before it
// the file costs no call per time step.
class vcd_file::window_gate : public sc_core::sc_module {
public:
    window_gate(sc_core::sc_module_name name, vcd_file &file, uint64_t from)
        : sc_module(name), m_file(file), m_from(sc_core::sc_time::from_value(from)) {
        SC_METHOD(open);  // at initialisation, then at the window's start
    }

private:
    SC_HAS_PROCESS(window_gate);
    void open() {
        if (sc_core::sc_time_stamp() < m_from) next_trigger(m_from - sc_core::sc_time_stamp());
        else m_file.enter_kernel();
    }
    vcd_file &m_file;
    sc_core::sc_time m_from;
};

vcd_file::vcd_file(const std::string &path, const sc_core::sc_time &from, const sc_core::sc_time &to)
    : m_path(path),
      m_ticks_per_s(1.0 / sc_core::sc_get_time_resolution().to_seconds()),
      m_from(from.value()),
      m_to(to.value()) {
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file) throw std::runtime_error(path + ": cannot write the VCD");
    m_buffer.reserve(1 << 20);
    if (m_from == 0) enter_kernel();
    else m_gate = std::make_unique<window_gate>(sc_core::sc_gen_unique_name("waves_window"), *this, m_from);
}

vcd_file::~vcd_file() {
    try {
        close();
    } catch (const std::exception &) {
        // close() reported nothing to anyone here; a failed write was already an error if asked.
    }
    leave_kernel();
}

void vcd_file::enter_kernel() {
    if (m_in_kernel || m_ended || !m_file) return;
    sc_core::sc_get_curr_simcontext()->add_trace_file(this);
    m_in_kernel = true;
}

void vcd_file::leave_kernel() {
    // Only when registered: SystemC's remove_trace_file erases whatever it finds, even nothing.
    if (!m_in_kernel) return;
    sc_core::sc_get_curr_simcontext()->remove_trace_file(this);
    m_in_kernel = false;
}

double vcd_file::time_unit_s() const { return sc_core::sc_get_time_resolution().to_seconds(); }

// Width 1 (sc_trace's width argument): a 0/1 int shown as a 1-bit wire, e.g. a flag scheduled
// ahead (scheduled changes are ints).
void vcd_file::trace(const int &object, const std::string &name, int width) {
    add(&object, kind::int32, width == 1 ? 1 : 32, name);
}
void vcd_file::trace(const unsigned int &object, const std::string &name, int) { add(&object, kind::uint32, 32, name); }
void vcd_file::trace(const long &object, const std::string &name, int) {
    add(&object, sizeof(long) == 8 ? kind::int64 : kind::int32, int(8 * sizeof(long)), name);
}
void vcd_file::trace(const unsigned long &object, const std::string &name, int) {
    add(&object, sizeof(long) == 8 ? kind::uint64 : kind::uint32, int(8 * sizeof(long)), name);
}
void vcd_file::trace(const sc_dt::int64 &object, const std::string &name, int) { add(&object, kind::int64, 64, name); }
void vcd_file::trace(const sc_dt::uint64 &object, const std::string &name, int) { add(&object, kind::uint64, 64, name); }

void vcd_file::add(const void *object, kind type, int bits, const std::string &name) {
    if (m_header_written)
        SC_REPORT_ERROR(msg_type, fmt::format("{}: traced after the simulation started", name).c_str());
    m_vars.push_back({object, type, bits, name, identifier(m_vars.size())});
    m_index.emplace(object, m_vars.size() - 1);
    m_sampled_stale = true;
}

// The arrays compared at each time step: every variable not scheduled, with its last value written.
void vcd_file::rebuild_sampled() {
    m_int_objects.clear();
    m_int_last.clear();
    m_int_var.clear();
    m_bool_objects.clear();
    m_bool_last.clear();
    m_bool_var.clear();
    m_other_var.clear();
    for (size_t i = 0; i < m_vars.size(); ++i) {
        const variable &v = m_vars[i];
        if (v.scheduled || v.announces) continue;
        if (v.type == kind::int32 || v.type == kind::uint32) {
            m_int_objects.push_back(static_cast<const int32_t *>(v.object));
            m_int_last.push_back(int32_t(uint32_t(v.last)));
            m_int_var.push_back(i);
        } else if (v.type == kind::boolean) {
            m_bool_objects.push_back(static_cast<const bool *>(v.object));
            m_bool_last.push_back(char(v.last != 0));
            m_bool_var.push_back(i);
        } else {
            m_other_var.push_back(i);
        }
    }
    m_sampled_stale = false;
}

void tell_changed(const traced_link &link) { link.sink->changed(link.index); }

void trace(sc_core::sc_trace_file *tf, const traced_int &v, const std::string &name) {
    if (auto *f = dynamic_cast<vcd_file *>(tf)) f->trace_announced(v, name);
    else sc_core::sc_trace(tf, v.stored(), name);
}

void trace(sc_core::sc_trace_file *tf, const traced_flag &v, const std::string &name) {
    if (auto *f = dynamic_cast<vcd_file *>(tf)) f->trace_announced(v, name);
    else sc_core::sc_trace(tf, v.stored(), name);
}

void vcd_file::trace_announced(const traced_int &v, const std::string &name) {
    add(&v.stored(), kind::int32, 32, name);
    m_vars.back().announces = &v.link();
}

void vcd_file::trace_announced(const traced_flag &v, const std::string &name) {
    add(&v.stored(), kind::boolean, 1, name);
    m_vars.back().announces = &v.link();
}

void vcd_file::link_announced(bool open) {
    for (size_t i = 0; i < m_vars.size(); ++i)
        if (m_vars[i].announces) *m_vars[i].announces = {open ? this : nullptr, uint32_t(i)};
}

void vcd_file::show_undriven(const int &var, int value) {
    const auto it = m_index.find(&var);
    if (it == m_index.end() || m_vars[it->second].type != kind::int32)
        SC_REPORT_ERROR(msg_type, "an undriven value for an int this file does not trace");
    m_vars[it->second].has_undriven = true;
    m_vars[it->second].undriven_value = value;
}

size_t vcd_file::scheduled_index(const int &var) {
    // A few variables take nearly all changes: a direct-mapped cache before the hash map.
    index_cache_entry &e = m_index_cache[(reinterpret_cast<uintptr_t>(&var) >> 2) % m_index_cache.size()];
    if (e.object == &var) return e.index;
    const auto it = m_index.find(&var);
    if (it == m_index.end() || m_vars[it->second].type != kind::int32)
        SC_REPORT_ERROR(msg_type, "a change scheduled for an int this file does not trace");
    variable &v = m_vars[it->second];
    if (!v.scheduled) {
        v.scheduled = true;
        v.latest_value = *static_cast<const int *>(v.object);
        m_sampled_stale = true;
    }
    e = {&var, it->second};
    return it->second;
}

void vcd_file::schedule(const int &var, int value, bool relative, double at_s) {
    if (m_ended || !m_file) return;
    const uint64_t now = sc_core::sc_time_stamp().value();
    // Rounded as sc_time(at_s, SC_SEC) rounds.
    uint64_t at = at_s > 0 ? uint64_t(at_s * m_ticks_per_s + 0.5) : 0;
    if (at < now) at = now;
    if (m_to > 0 && at > m_to) return;  // beyond the window
    const size_t i = scheduled_index(var);
    variable &v = m_vars[i];
    (relative ? v.takes_adds : v.takes_sets) = true;
    if (relative ? value == 0 : at >= v.latest_at && value == v.latest_value && !v.takes_adds)
        return;  // no change: the variable already holds it from the latest change on
    if (!relative && at >= v.latest_at) {
        v.latest_at = at;
        v.latest_value = value;
    }
    if (!m_started && at < m_from && !(v.takes_sets && v.takes_adds)) {
        // Before the window only its value at the start matters: the latest absolute value, or
        // the sum of the increments.
        int &x = *const_cast<int *>(&var);
        const uint64_t seq = m_changes.next_seq();
        if (relative) {
            x += value;
        } else if (at > v.fold_at || (at == v.fold_at && seq >= v.fold_seq)) {
            x = value;
            v.fold_at = at;
            v.fold_seq = seq;
        }
        m_changes.skip_seq();
        return;
    }
    m_changes.push(at, {uint32_t(i), value, relative});
}

void vcd_file::apply(const change &c) {
    variable &v = m_vars[c.var];
    int &x = *const_cast<int *>(static_cast<const int *>(v.object));
    x = c.relative ? x + c.value : c.value;
    if (!v.dirty) {
        v.dirty = true;
        m_dirty.push_back(c.var);
    }
}

void vcd_file::write_dirty(uint64_t t, bool &stamped) {
    for (size_t i : m_dirty) {
        variable &v = m_vars[i];
        v.dirty = false;
        const uint64_t value = value_of(v);
        if (value != v.last) compare_and_write(i, value, t, stamped);  // an instant's net change only
    }
    m_dirty.clear();
}

void vcd_file::write_scheduled(uint64_t through, bool inclusive) {
    while (!m_changes.empty() &&
           (m_changes.first_due() < through || (inclusive && m_changes.first_due() == through))) {
        const uint64_t t = m_changes.apply_first_instant([this](const change &c) { apply(c); });
        bool stamped = false;
        write_dirty(t, stamped);
    }
}

void vcd_file::unsupported(const std::string &name) {
    SC_REPORT_ERROR(msg_type, fmt::format("{}: this type is not traced (bool, integers and double are)", name).c_str());
}

void vcd_file::write_comment(const std::string &comment) { m_comments.push_back(comment); }

uint64_t vcd_file::value_of(const variable &v) const {
    switch (v.type) {
    case kind::boolean: return *static_cast<const bool *>(v.object) ? 1 : 0;
    case kind::int32: return uint32_t(*static_cast<const int32_t *>(v.object));
    case kind::uint32: return *static_cast<const uint32_t *>(v.object);
    case kind::int64: return uint64_t(*static_cast<const int64_t *>(v.object));
    case kind::uint64: return *static_cast<const uint64_t *>(v.object);
    case kind::real: {
        uint64_t bits;
        std::memcpy(&bits, v.object, sizeof bits);
        return bits;
    }
    }
    return 0;
}

void vcd_file::write_header() {
    std::string &b = m_buffer;
    b += "$date\n    raidtlm\n$end\n$version\n    raidtlm waveforms::vcd_file\n$end\n";
    for (const auto &c : m_comments) b += "$comment\n" + c + "\n$end\n";
    b += "$timescale\n    " + sc_core::sc_get_time_resolution().to_string() + "\n$end\n";
    // SystemC's naming: everything under "SystemC", a dotted name as nested scopes.
    scope_node top;
    for (size_t i = 0; i < m_vars.size(); ++i) {
        scope_node *s = &top;
        const std::string &n = m_vars[i].name;
        size_t start = 0;
        for (size_t dot; (dot = n.find('.', start)) != std::string::npos; start = dot + 1)
            s = &s->children[n.substr(start, dot - start)];
        s->vars.push_back(i);
    }
    const std::function<void(const std::string &, const scope_node &)> emit = [&](const std::string &name,
                                                                                   const scope_node &s) {
        b += "$scope module " + name + " $end\n";
        for (size_t i : s.vars) {
            const variable &v = m_vars[i];
            const std::string leaf = v.name.substr(v.name.rfind('.') == std::string::npos ? 0 : v.name.rfind('.') + 1);
            if (v.type == kind::real) b += fmt::format("$var real 64 {} {} $end\n", v.id, leaf);
            else if (v.bits == 1) b += fmt::format("$var wire 1 {} {} $end\n", v.id, leaf);
            else b += fmt::format("$var wire {} {} {} [{}:0] $end\n", v.bits, v.id, leaf, v.bits - 1);
        }
        for (const auto &[child, node] : s.children) emit(child, node);
        b += "$upscope $end\n";
    };
    emit("SystemC", top);
    b += "$enddefinitions $end\n";
    m_header_written = true;
}

void vcd_file::write_time(uint64_t t) {
    m_last_time = t;
    // "#<digits>\n" built backwards, appended once.
    char line[24];
    char *p = line + sizeof line;
    *--p = '\n';
    do {
        *--p = char('0' + t % 10);
        t /= 10;
    } while (t > 0);
    *--p = '#';
    m_buffer.append(p, size_t(line + sizeof line - p));
}

void vcd_file::write_value(const variable &v, uint64_t value) {
    if (v.type == kind::real) {
        double d;
        std::memcpy(&d, &value, sizeof d);
        m_buffer += fmt::format("r{:.17g} {}\n", d, v.id);
        return;
    }
    // One append per line: "0id", "1id", "b<binary> id" or "bz id".
    char line[96];
    size_t n = 0;
    if (v.bits == 1) {
        line[n++] = value ? '1' : '0';
    } else if (v.has_undriven && int32_t(uint32_t(value)) == v.undriven_value) {
        line[n++] = 'b';
        line[n++] = 'z';
        line[n++] = ' ';
    } else {
        line[n++] = 'b';
        const int top = value ? 63 - __builtin_clzll(value) : 0;
        for (int i = top; i >= 0; --i) line[n++] = ((value >> i) & 1) ? '1' : '0';
        line[n++] = ' ';
    }
    for (char c : v.id) line[n++] = c;
    line[n++] = '\n';
    m_buffer.append(line, n);
}

// The window's start: the values then (scheduled changes due by then applied) as the initial ones.
void vcd_file::start_window() {
    if (!m_header_written) write_header();
    const uint64_t now = sc_core::sc_time_stamp().value();
    while (!m_changes.empty() && m_changes.first_due() <= now)
        m_changes.apply_first_instant([this](const change &c) { apply(c); });
    for (size_t i : m_dirty) m_vars[i].dirty = false;
    m_dirty.clear();
    write_time(m_from);
    m_buffer += "$dumpvars\n";
    for (auto &v : m_vars) {
        v.last = value_of(v);
        write_value(v, v.last);
    }
    m_buffer += "$end\n";
    m_started = true;
    rebuild_sampled();
    link_announced(true);
}

// Past the window's end: what was scheduled within it written, and no more work.
void vcd_file::end_window() {
    write_scheduled(m_to, true);
    m_ended = true;
    link_announced(false);
    leave_kernel();
}

void vcd_file::cycle(bool delta_cycle) {
    if (delta_cycle || !m_file || m_ended) return;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (m_to > 0 && now > m_to) {
        end_window();
        return;
    }
    if (!m_started) {
        start_window();
        return;
    }
    if (m_sampled_stale) rebuild_sampled();
    write_scheduled(now, false);
    bool stamped = false;
    if (!m_changes.empty() && m_changes.first_due() == now)
        m_changes.apply_first_instant([this](const change &c) { apply(c); });
    write_dirty(now, stamped);
    for (uint32_t i : m_touched) {
        variable &v = m_vars[i];
        v.touched = false;
        const uint64_t value = value_of(v);
        if (value != v.last) compare_and_write(i, value, now, stamped);  // the time step's net change
    }
    m_touched.clear();
    for (size_t i = 0; i < m_int_objects.size(); ++i)
        if (*m_int_objects[i] != m_int_last[i]) {
            m_int_last[i] = *m_int_objects[i];
            compare_and_write(m_int_var[i], uint32_t(m_int_last[i]), now, stamped);
        }
    for (size_t i = 0; i < m_bool_objects.size(); ++i)
        if (char(*m_bool_objects[i]) != m_bool_last[i]) {
            m_bool_last[i] = char(*m_bool_objects[i]);
            compare_and_write(m_bool_var[i], m_bool_last[i] ? 1u : 0u, now, stamped);
        }
    for (size_t i : m_other_var) {
        const uint64_t value = value_of(m_vars[i]);
        if (value != m_vars[i].last) compare_and_write(i, value, now, stamped);
    }
    if (m_buffer.size() > (1u << 20)) flush();
}

void vcd_file::compare_and_write(size_t var, uint64_t value, uint64_t now, bool &stamped) {
    variable &v = m_vars[var];
    if (!stamped) {
        write_time(now);
        stamped = true;
    }
    write_value(v, value);
    v.last = value;
}

void vcd_file::flush() {
    if (m_buffer.empty() || !m_file) return;
    if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size()) m_failed = true;
    m_buffer.clear();
}

void vcd_file::close() {
    if (!m_file) return;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (!m_started) {
        // The run ended before the window (or before any time step): its last values.
        if (!m_header_written) write_header();
        write_time(m_from);
        m_buffer += "$dumpvars\n";
        for (auto &v : m_vars) write_value(v, value_of(v));
        m_buffer += "$end\n";
        m_started = true;
    } else if (!m_ended) {
        // Scheduled changes due by the end of the run (or the window); later ones never happened.
        write_scheduled(m_to > 0 ? std::min(now, m_to) : now, true);
    }
    m_ended = true;
    link_announced(false);
    leave_kernel();
    // The window's end, when it ends before the run does.
    if (m_to > 0 && m_to <= now && m_to > m_last_time) write_time(m_to);
    flush();
    if (std::fclose(m_file) != 0) m_failed = true;
    m_file = nullptr;
    if (m_failed) throw std::runtime_error(m_path + ": cannot write the VCD");
}

}  // namespace raidtlm::waveforms
