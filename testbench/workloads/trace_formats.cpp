#include "testbench/workloads/trace_formats.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace raidtlm::testbench {

namespace {

constexpr double sector_bytes = 512.0;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Splits on runs of white space; returns how many fields there are (only the first `max` stored).
size_t split_ws(std::string_view s, std::string_view *out, size_t max) {
    size_t n = 0, i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i >= s.size()) break;
        size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        if (n < max) out[n] = s.substr(i, j - i);
        ++n;
        i = j;
    }
    return n;
}

// Splits on `sep`, trimming each field; returns the number of fields (first `max` stored).
size_t split_on(std::string_view s, char sep, std::string_view *out, size_t max) {
    size_t n = 0;
    for (;;) {
        const size_t k = s.find(sep);
        if (n < max) out[n] = trim(s.substr(0, k));
        ++n;
        if (k == std::string_view::npos) return n;
        s.remove_prefix(k + 1);
    }
}

bool to_u64(std::string_view s, uint64_t &v, int base = 10) {
    if (s.empty()) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool to_double(std::string_view s, double &v) {
    if (s.empty()) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

std::string shown(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 40)) out += (static_cast<unsigned char>(c) < 32 || c == 127) ? '?' : c;
    if (s.size() > 40) out += "...";
    return out;
}

// Sectors covered by a byte range: start rounded down, end rounded up.
bool byte_range(uint64_t offset, uint64_t bytes, uint64_t &lbn, uint64_t &sectors) {
    lbn = offset / 512;
    const uint64_t rem = offset % 512;
    if (bytes > std::numeric_limits<uint64_t>::max() - rem - 511) return false;
    sectors = (rem + bytes + 511) / 512;
    return true;
}

// origin + a count of clock units rounded from a double, saturating instead of wrapping.
uint64_t add_units(uint64_t origin, double units) {
    const double max = 18446744073709549568.0;  // the largest double below 2^64
    const uint64_t u = static_cast<uint64_t>(std::nearbyint(std::clamp(units, 0.0, max)));
    return u > std::numeric_limits<uint64_t>::max() - origin ? std::numeric_limits<uint64_t>::max() : origin + u;
}

}  // namespace

const char *trace_reader::expected_form(trace_format f) {
    switch (f) {
    case trace_format::disksim:
        return "'ARRIVAL_MS DEVICE BLOCK SIZE_BLOCKS FLAGS_HEX' (DiskSim ASCII trace; flags bit 0 = read)";
    case trace_format::spc: return "'ASU,LBA,SIZE_BYTES,r|w,TIMESTAMP_S' (SPC trace)";
    case trace_format::msr:
        return "'TIMESTAMP,HOSTNAME,DISK,Read|Write,OFFSET_BYTES,SIZE_BYTES,RESPONSE_TIME' (MSR Cambridge CSV, "
               "times in 100 ns units)";
    case trace_format::blkparse:
        return "'MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS [SECTOR + COUNT [PROCESS]]' (blkparse default output)";
    }
    return "?";
}

trace_reader::trace_reader(std::istream &in, std::string name, trace_format format, char blkparse_action)
    : m_in(in), m_name(std::move(name)), m_format(format), m_action(blkparse_action), m_buffer(max_line + 2) {}

std::unique_ptr<trace_reader> trace_reader::open(const std::string &path, trace_format format, char blkparse_action) {
    auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*file)
        throw trace_error(fmt::format("{}: cannot open the trace; expected a readable {} trace", path, to_string(format)));
    auto r = std::make_unique<trace_reader>(*file, path, format, blkparse_action);
    r->m_file = std::move(file);
    return r;
}

void trace_reader::fail(const std::string &problem) const {
    throw trace_error(fmt::format("{}:{}: {}; expected {}", m_name, m_line, problem, expected_form(m_format)));
}

int trace_reader::device_id(std::string_view name) {
    const std::string key(name);
    auto it = m_device_ids.find(key);
    if (it != m_device_ids.end()) return it->second;
    const int id = static_cast<int>(m_devices.size());
    m_devices.push_back(key);
    m_device_ids.emplace(key, id);
    return id;
}

void trace_reader::set_time(trace_record &r, double raw_value, uint64_t raw_integer, bool integer_clock,
                            double ms_per_unit) {
    if (!m_have_origin) {
        m_have_origin = true;
        m_origin.value = raw_value;
        m_origin.integer = raw_integer;
        m_last_ms = 0;
        r.time_ms = 0;
        return;
    }
    double ms;
    if (integer_clock) {
        if (raw_integer < m_origin.integer) ms = -1;
        else ms = static_cast<double>(raw_integer - m_origin.integer) * ms_per_unit;
    } else {
        ms = (raw_value - m_origin.value) * ms_per_unit;
    }
    if (ms < m_last_ms)
        fail(fmt::format("time {:.6f} ms after the first request is before the previous request's {:.6f} ms", ms,
                         m_last_ms));
    m_last_ms = ms;
    r.time_ms = ms;
}

bool trace_reader::next(trace_record &r) {
    for (;;) {
        m_in.getline(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
        const std::streamsize got = m_in.gcount();
        if (m_in.bad()) {
            ++m_line;
            fail("read error");
        }
        if (m_in.fail()) {
            if (m_in.eof() && got == 0) return false;
            ++m_line;
            fail(fmt::format("the line is longer than {} characters", max_line));
        }
        ++m_line;
        // gcount counts the newline when one was extracted.
        const size_t len = static_cast<size_t>(got) - (m_in.eof() ? 0 : 1);
        const std::string_view line = trim(std::string_view(m_buffer.data(), len));
        if (line.empty() || line.front() == '#') continue;
        r = trace_record{};
        r.line = m_line;
        if (parse_line(line, r) == parsed::request) {
            ++m_requests;
            return true;
        }
        ++m_skipped;
    }
}

trace_reader::parsed trace_reader::parse_line(std::string_view line, trace_record &r) {
    switch (m_format) {
    case trace_format::disksim: return parse_disksim(line, r);
    case trace_format::spc: return parse_spc(line, r);
    case trace_format::msr: return parse_msr(line, r);
    case trace_format::blkparse: return parse_blkparse(line, r);
    }
    return parsed::skip;
}

trace_reader::parsed trace_reader::parse_disksim(std::string_view line, trace_record &r) {
    std::string_view f[5];
    const size_t n = split_ws(line, f, 5);
    if (n != 5) fail(fmt::format("{} fields", n));
    double t;
    if (!to_double(f[0], t) || t < 0) fail(fmt::format("arrival time '{}' is not a non-negative number", shown(f[0])));
    uint64_t dev, block, size, flags;
    if (!to_u64(f[1], dev)) fail(fmt::format("device '{}' is not a non-negative integer", shown(f[1])));
    if (!to_u64(f[2], block)) fail(fmt::format("block '{}' is not a non-negative integer", shown(f[2])));
    if (!to_u64(f[3], size) || size == 0 || size > UINT32_MAX)
        fail(fmt::format("size '{}' is not a positive integer below 2^32", shown(f[3])));
    std::string_view hex = f[4];
    if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
    if (!to_u64(hex, flags, 16)) fail(fmt::format("flags '{}' is not a hexadecimal integer", shown(f[4])));
    set_time(r, t, 0, false, 1.0);
    r.device = device_id(f[1]);
    r.lbn = block;
    r.sectors = static_cast<uint32_t>(size);
    r.read = flags & 1;
    return parsed::request;
}

trace_reader::parsed trace_reader::parse_spc(std::string_view line, trace_record &r) {
    std::string_view f[5];
    const size_t n = split_on(line, ',', f, 5);
    if (n < 5) fail(fmt::format("{} fields", n));
    uint64_t asu, lba, bytes;
    double t;
    if (!to_u64(f[0], asu)) fail(fmt::format("ASU '{}' is not a non-negative integer", shown(f[0])));
    if (!to_u64(f[1], lba) || lba > std::numeric_limits<uint64_t>::max() / 512)
        fail(fmt::format("LBA '{}' is not a non-negative integer", shown(f[1])));
    if (!to_u64(f[2], bytes)) fail(fmt::format("size '{}' is not a non-negative integer", shown(f[2])));
    if (f[3] != "r" && f[3] != "R" && f[3] != "w" && f[3] != "W")
        fail(fmt::format("opcode '{}' is not r or w", shown(f[3])));
    if (!to_double(f[4], t) || t < 0) fail(fmt::format("timestamp '{}' is not a non-negative number", shown(f[4])));
    uint64_t lbn, sectors;
    if (!byte_range(lba * 512, bytes, lbn, sectors) || sectors > UINT32_MAX)
        fail(fmt::format("size '{}' is too large", shown(f[2])));
    if (sectors == 0) return parsed::skip;
    set_time(r, t, 0, false, 1000.0);
    r.device = device_id(f[0]);
    r.lbn = lbn;
    r.sectors = static_cast<uint32_t>(sectors);
    r.read = f[3] == "r" || f[3] == "R";
    return parsed::request;
}

trace_reader::parsed trace_reader::parse_msr(std::string_view line, trace_record &r) {
    std::string_view f[7];
    const size_t n = split_on(line, ',', f, 7);
    if (n != 7) fail(fmt::format("{} fields", n));
    uint64_t ticks, disk, offset, bytes, response;
    if (!to_u64(f[0], ticks)) fail(fmt::format("timestamp '{}' is not a non-negative integer", shown(f[0])));
    if (f[1].empty()) fail("the hostname is empty");
    if (!to_u64(f[2], disk)) fail(fmt::format("disk number '{}' is not a non-negative integer", shown(f[2])));
    bool read;
    if (f[3] == "Read" || f[3] == "read" || f[3] == "READ")
        read = true;
    else if (f[3] == "Write" || f[3] == "write" || f[3] == "WRITE")
        read = false;
    else
        fail(fmt::format("type '{}' is not Read or Write", shown(f[3])));
    if (!to_u64(f[4], offset)) fail(fmt::format("offset '{}' is not a non-negative integer", shown(f[4])));
    if (!to_u64(f[5], bytes)) fail(fmt::format("size '{}' is not a non-negative integer", shown(f[5])));
    if (!to_u64(f[6], response)) fail(fmt::format("response time '{}' is not a non-negative integer", shown(f[6])));
    uint64_t lbn, sectors;
    if (!byte_range(offset, bytes, lbn, sectors) || sectors > UINT32_MAX)
        fail(fmt::format("size '{}' is too large", shown(f[5])));
    if (sectors == 0) return parsed::skip;
    set_time(r, 0, ticks, true, 1e-4);
    r.device = device_id(fmt::format("{}_{}", f[1], f[2]));
    r.lbn = lbn;
    r.sectors = static_cast<uint32_t>(sectors);
    r.read = read;
    r.response_ms = static_cast<double>(response) * 1e-4;
    return parsed::request;
}

trace_reader::parsed trace_reader::parse_blkparse(std::string_view line, trace_record &r) {
    if (m_summary) return parsed::skip;
    // blkparse ends with per-CPU and per-device totals: "CPU0 (8,0):", "Total (8,0):", ...
    auto starts = [&](std::string_view p) { return line.substr(0, p.size()) == p; };
    if ((starts("CPU") && line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[3]))) ||
        starts("Total (") || starts("Throughput") || starts("Events (") || starts("Skips:")) {
        m_summary = true;
        return parsed::skip;
    }
    std::string_view f[10];
    const size_t n = split_ws(line, f, 10);
    if (n < 7) fail(fmt::format("{} fields", n));
    const size_t comma = f[0].find(',');
    uint64_t major, minor, cpu, seq, pid;
    if (comma == std::string_view::npos || !to_u64(f[0].substr(0, comma), major) ||
        !to_u64(f[0].substr(comma + 1), minor))
        fail(fmt::format("device '{}' is not MAJ,MIN", shown(f[0])));
    if (!to_u64(f[1], cpu)) fail(fmt::format("CPU '{}' is not a non-negative integer", shown(f[1])));
    if (!to_u64(f[2], seq)) fail(fmt::format("sequence number '{}' is not a non-negative integer", shown(f[2])));
    const size_t dot = f[3].find('.');
    uint64_t sec, frac;
    const std::string_view frac_text = dot == std::string_view::npos ? std::string_view() : f[3].substr(dot + 1);
    if (dot == std::string_view::npos || !to_u64(f[3].substr(0, dot), sec) || frac_text.size() > 9 ||
        !to_u64(frac_text, frac) || sec > std::numeric_limits<uint64_t>::max() / 1000000000ULL - 1)
        fail(fmt::format("time '{}' is not SECONDS.NANOSECONDS", shown(f[3])));
    for (size_t i = frac_text.size(); i < 9; ++i) frac *= 10;
    if (!to_u64(f[4], pid)) fail(fmt::format("PID '{}' is not a non-negative integer", shown(f[4])));
    if (f[5].empty() || f[5].size() > 2 ||
        !std::all_of(f[5].begin(), f[5].end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
        fail(fmt::format("action '{}' is not one or two letters", shown(f[5])));
    if (f[5].size() != 1 || f[5][0] != m_action) return parsed::skip;
    const std::string_view rwbs = f[6];
    if (!std::all_of(rwbs.begin(), rwbs.end(), [](char c) { return std::string_view("FRWDNSAMEB").find(c) != std::string_view::npos; }))
        fail(fmt::format("RWBS '{}' is not made of F, R, W, D, N, S, A, M, E, B", shown(rwbs)));
    const bool reads = rwbs.find('R') != std::string_view::npos, writes = rwbs.find('W') != std::string_view::npos;
    // A flush or other request without data carries no "SECTOR + COUNT".
    if (n < 8 || f[7].front() == '[') return parsed::skip;
    uint64_t sector, count;
    if (n < 10 || f[8] != "+" || !to_u64(f[7], sector) || !to_u64(f[9], count) || count > UINT32_MAX)
        fail(fmt::format("'{}' after RWBS is not SECTOR + COUNT", shown(line.substr(f[7].data() - line.data()))));
    if (count == 0 || reads == writes || rwbs.find('D') != std::string_view::npos) return parsed::skip;
    set_time(r, 0, sec * 1000000000ULL + frac, true, 1e-6);
    r.device = device_id(f[0]);
    r.lbn = sector;
    r.sectors = static_cast<uint32_t>(count);
    r.read = reads;
    return parsed::request;
}

trace_writer::trace_writer(std::ostream &out, trace_format format, trace_origin origin,
                           std::vector<std::string> device_names)
    : m_out(out), m_format(format), m_origin(origin), m_devices(std::move(device_names)) {}

void trace_writer::write(const trace_record &r) {
    const std::string &dev = m_devices.at(static_cast<size_t>(r.device));
    ++m_count;
    switch (m_format) {
    case trace_format::disksim:
        m_out << fmt::format("{:.6f} {} {} {} {:x}\n", m_origin.value + r.time_ms, dev, r.lbn, r.sectors, r.read ? 1 : 0);
        break;
    case trace_format::spc:
        m_out << fmt::format("{},{},{},{},{:.6f}\n", dev, r.lbn, uint64_t(r.sectors) * 512, r.read ? 'r' : 'w',
                             m_origin.value + r.time_ms / 1000.0);
        break;
    case trace_format::msr: {
        const size_t us = dev.rfind('_');
        const std::string host = us == std::string::npos ? dev : dev.substr(0, us);
        const std::string disk = us == std::string::npos ? "0" : dev.substr(us + 1);
        m_out << fmt::format("{},{},{},{},{},{},{}\n", add_units(m_origin.integer, r.time_ms * 1e4), host, disk,
                             r.read ? "Read" : "Write", r.lbn * 512, uint64_t(r.sectors) * 512,
                             r.response_ms >= 0 ? add_units(0, r.response_ms * 1e4) : 0);
        break;
    }
    case trace_format::blkparse: {
        const uint64_t ns = add_units(m_origin.integer, r.time_ms * 1e6);
        const size_t comma = dev.find(',');
        const std::string major = comma == std::string::npos ? dev : dev.substr(0, comma);
        const std::string minor = comma == std::string::npos ? "0" : dev.substr(comma + 1);
        m_out << fmt::format("{:>3},{:<3} {:>2} {:>8} {:>5}.{:09} {:>5}  D {:>3} {} + {} [raidtlm]\n", major, minor, 0,
                             m_count, ns / 1000000000ULL, ns % 1000000000ULL, 0, r.read ? "R" : "W", r.lbn, r.sectors);
        break;
    }
    }
}

trace_source::trace_source(const trace_config &config, uint64_t capacity_sectors)
    : trace_source(trace_reader::open(config.file, config.format, config.blkparse_action), config, capacity_sectors) {}

trace_source::trace_source(std::unique_ptr<trace_reader> reader, const trace_config &config, uint64_t capacity)
    : m_reader(std::move(reader)), m_config(config), m_capacity(capacity), m_whole{0, capacity} {
    std::vector<uint64_t> offsets;
    for (const auto &[dev, offset] : config.device_map) {
        if (offset >= capacity)
            throw scenario_error(fmt::format("key 'trace.device_map': device '{}' starts at sector {}, beyond the host "
                                             "capacity of {} sectors; expected offsets below {}",
                                             dev, offset, capacity, capacity));
        offsets.push_back(offset);
    }
    std::sort(offsets.begin(), offsets.end());
    for (const auto &[dev, offset] : config.device_map) {
        const auto next = std::upper_bound(offsets.begin(), offsets.end(), offset);
        m_map.push_back({dev, slice{offset, (next == offsets.end() ? capacity : *next) - offset}});
    }
}

const trace_source::slice &trace_source::slice_of(const trace_record &r) {
    if (m_map.empty()) return m_whole;
    const size_t d = static_cast<size_t>(r.device);
    if (d >= m_slice_of_device.size()) m_slice_of_device.resize(d + 1, -1);
    if (m_slice_of_device[d] == -1) {
        const std::string &name = m_reader->device_names()[d];
        m_slice_of_device[d] = -2;
        for (size_t i = 0; i < m_map.size(); ++i)
            if (m_map[i].first == name) m_slice_of_device[d] = static_cast<int>(i);
    }
    if (m_slice_of_device[d] < 0) {
        std::string known;
        for (const auto &m : m_map) known += (known.empty() ? "" : ", ") + m.first;
        throw trace_error(fmt::format("{}:{}: device '{}' is not in trace.device_map; expected a device of the map ({})",
                                      m_reader->name(), r.line, m_reader->device_names()[d], known));
    }
    return m_map[static_cast<size_t>(m_slice_of_device[d])].second;
}

bool trace_source::next(double &at_ms, host_request &out) {
    trace_record r;
    for (;;) {
        if (!m_reader->next(r)) return false;
        const slice &s = slice_of(r);
        uint64_t lbn = r.lbn;
        if (r.sectors > s.size || lbn > s.size - r.sectors) {
            if (m_config.beyond_capacity == beyond_capacity_policy::skip) {
                ++m_skipped_beyond;
                continue;
            }
            if (m_config.beyond_capacity == beyond_capacity_policy::error || r.sectors > s.size)
                throw trace_error(fmt::format(
                    "{}:{}: sectors {}..{} of device '{}' lie beyond its {} sectors of host space; expected addresses "
                    "inside it (or trace.beyond_capacity wrap or skip, or a trace.device_map with more room)",
                    m_reader->name(), r.line, r.lbn, r.lbn + r.sectors - 1, m_reader->device_names()[r.device], s.size));
            lbn %= s.size;
            if (lbn > s.size - r.sectors) lbn = s.size - r.sectors;
            ++m_wrapped;
        }
        out.lbn = s.offset + lbn;
        out.sectors = r.sectors;
        out.read = r.read;
        at_ms = r.time_ms * m_config.time_scale;
        if (!(at_ms <= m_max_arrival_ms))
            throw trace_error(fmt::format(
                "{}:{}: arrival {:g} ms after the first request (times trace.time_scale {:g}) lies beyond the {:g} ms "
                "of simulated time the SystemC kernel can represent; expected arrival times within it",
                m_reader->name(), r.line, at_ms, m_config.time_scale, m_max_arrival_ms));
        return true;
    }
}

}  // namespace raidtlm::testbench
