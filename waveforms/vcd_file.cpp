#include "waveforms/vcd_file.h"

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

vcd_file::vcd_file(const std::string &path, const sc_core::sc_time &from, const sc_core::sc_time &to)
    : m_path(path), m_from(from.value()), m_to(to.value()) {
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file) throw std::runtime_error(path + ": cannot write the VCD");
    m_buffer.reserve(1 << 20);
    sc_core::sc_get_curr_simcontext()->add_trace_file(this);
}

vcd_file::~vcd_file() {
    try {
        close();
    } catch (const std::exception &) {
        // close() reported nothing to anyone here; a failed write was already an error if asked.
    }
    sc_core::sc_get_curr_simcontext()->remove_trace_file(this);
}

double vcd_file::time_unit_s() const { return sc_core::sc_get_time_resolution().to_seconds(); }

void vcd_file::trace(const int &object, const std::string &name, int) { add(&object, kind::int32, 32, name); }
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
    m_vars.push_back({object, type, bits, name, identifier(m_vars.size()), 0});
    const size_t index = m_vars.size() - 1;
    if (type == kind::int32 || type == kind::uint32) {
        m_int_objects.push_back(static_cast<const int32_t *>(object));
        m_int_last.push_back(0);
        m_int_var.push_back(index);
    } else if (type == kind::boolean) {
        m_bool_objects.push_back(static_cast<const bool *>(object));
        m_bool_last.push_back(0);
        m_bool_var.push_back(index);
    } else {
        m_other_var.push_back(index);
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
    char digits[24];
    char *p = digits + sizeof digits;
    do {
        *--p = char('0' + t % 10);
        t /= 10;
    } while (t > 0);
    m_buffer += '#';
    m_buffer.append(p, size_t(digits + sizeof digits - p));
    m_buffer += '\n';
}

void vcd_file::write_value(const variable &v, uint64_t value) {
    if (v.type == kind::real) {
        double d;
        std::memcpy(&d, &value, sizeof d);
        m_buffer += fmt::format("r{:.17g} {}\n", d, v.id);
        return;
    }
    // One append per line: "0id", "1id" or "b<binary> id".
    char line[80];
    size_t n = 0;
    if (v.bits == 1) {
        line[n++] = value ? '1' : '0';
    } else {
        line[n++] = 'b';
        const int top = value ? 63 - __builtin_clzll(value) : 0;
        for (int i = top; i >= 0; --i) line[n++] = ((value >> i) & 1) ? '1' : '0';
        line[n++] = ' ';
    }
    m_buffer.append(line, n);
    m_buffer += v.id;
    m_buffer += '\n';
}

void vcd_file::cycle(bool delta_cycle) {
    if (delta_cycle || !m_file) return;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (!m_header_written) write_header();
    if (m_to > 0 && now > m_to) return;  // past the window
    if (!m_started) {
        // Before the window only the values are followed; at its start they are the initial ones.
        if (now <= m_from) {
            for (auto &v : m_vars) v.last = value_of(v);
            for (size_t i = 0; i < m_int_objects.size(); ++i) m_int_last[i] = *m_int_objects[i];
            for (size_t i = 0; i < m_bool_objects.size(); ++i) m_bool_last[i] = char(*m_bool_objects[i]);
        }
        if (now < m_from) return;
        write_time(m_from);
        m_buffer += "$dumpvars\n";
        for (const auto &v : m_vars) write_value(v, v.last);
        m_buffer += "$end\n";
        m_started = true;
        if (now == m_from) return;
    }
    bool stamped = false;
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
        // The run ended before the window: its last values.
        if (!m_header_written) write_header();
        write_time(m_from);
        m_buffer += "$dumpvars\n";
        for (auto &v : m_vars) write_value(v, value_of(v));
        m_buffer += "$end\n";
        m_started = true;
    }
    // The window's end, when it ends before the run does.
    if (m_to > 0 && m_to <= now && m_to > m_last_time) write_time(m_to);
    flush();
    if (std::fclose(m_file) != 0) m_failed = true;
    m_file = nullptr;
    if (m_failed) throw std::runtime_error(m_path + ": cannot write the VCD");
}

}  // namespace raidtlm::waveforms
