#include "waveforms/gtkw_writer.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace raidtlm::waveforms {

namespace {

// GTKWave trace flags (gtkwave's analyzer.h).
constexpr unsigned tr_hex = 0x2, tr_dec = 0x4, tr_bin = 0x8, tr_rjustify = 0x20, tr_blank = 0x200, tr_signed = 0x400,
                   tr_ftranslated = 0x2000, tr_analog_step = 0x8000, tr_closed = 0x400000, tr_grp_begin = 0x800000,
                   tr_grp_end = 0x1000000;

unsigned flags_of(const gtkw_signal &s) {
    unsigned f = tr_rjustify;
    switch (s.format) {
    case gtkw_format::decimal: f |= tr_dec; break;
    case gtkw_format::signed_decimal: f |= tr_dec | tr_signed; break;
    case gtkw_format::hex: f |= tr_hex; break;
    case gtkw_format::binary: f |= tr_bin; break;
    case gtkw_format::analog: f |= tr_dec | tr_analog_step; break;
    }
    if (!s.translate_file.empty()) f |= tr_ftranslated;
    return f;
}

// `name` made absolute against the directory of the save file.
std::string beside_save_file(const gtkw_layout &l, const std::string &name) {
    namespace fs = std::filesystem;
    const fs::path p(name);
    if (p.is_absolute()) return p.lexically_normal().string();
    if (!fs::path(l.save_file).is_absolute())
        throw std::invalid_argument("GTKWave save file: '" + name + "' is relative but the save file's own path ('" +
                                    l.save_file + "') is not absolute");
    return (fs::path(l.save_file).parent_path() / p).lexically_normal().string();
}

}  // namespace

std::string make_gtkw(const gtkw_layout &l) {
    std::string o;
    o += "[*]\n[*] raidtlm waveform layout; open with: gtkwave <this file>\n[*]\n";
    o += fmt::format("[dumpfile] \"{}\"\n", beside_save_file(l, l.dump_file));
    // Before any "^N" line: GTKWave relocates the filters against the save file it has read so far.
    if (!l.save_file.empty()) o += fmt::format("[savefile] \"{}\"\n", beside_save_file(l, l.save_file));
    o += fmt::format("[timestart] {}\n", l.view_start);
    o += fmt::format("[size] {} {}\n", l.window_width_px, l.window_height_px);
    o += "[pos] -1 -1\n";
    if (l.view_time > 0) {
        // GTKWave 3.3's zoom z shows about 2^-z / 200 time units per pixel (measured on a
        // 1400-pixel window, whose wave pane is ~870 pixels wide).
        const double pane_px = std::max(100, l.window_width_px - 530);
        const double zoom = -std::log2(static_cast<double>(l.view_time) / pane_px * 199.0);
        o += fmt::format("*{:.6f} 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
                         zoom);
    }
    o += "[sst_width] 220\n[signals_width] 230\n[sst_expanded] 1\n[sst_vpaned_height] 240\n";
    std::map<std::string, int> filters;  // one filter number per file
    for (const auto &g : l.groups) {
        o += fmt::format("@{:x}\n-{}\n", tr_grp_begin | tr_blank | (g.closed ? tr_closed : 0u), g.name);
        for (const auto &s : g.signals) {
            if (!s.translate_file.empty()) {
                const std::string file = beside_save_file(l, s.translate_file);
                const int n = filters.emplace(file, static_cast<int>(filters.size()) + 1).first->second;
                o += fmt::format("^{} {}\n", n, file);
            }
            if (s.alias.empty()) o += fmt::format("@{:x}\n{}\n", flags_of(s), s.name);
            else o += fmt::format("@{:x}\n+{{{}}} {}\n", flags_of(s), s.alias, s.name);
        }
        o += fmt::format("@{:x}\n-{}\n", tr_grp_end | tr_blank | (g.closed ? tr_closed : 0u), g.name);
    }
    o += "[pattern_trace] 1\n[pattern_trace] 0\n";
    return o;
}

void write_gtkw(const std::string &path, const gtkw_layout &layout) {
    gtkw_layout placed = layout;
    // Resolved as GTKWave resolves the file it opens (realpath), so the recorded names agree with it.
    placed.save_file = std::filesystem::weakly_canonical(std::filesystem::absolute(path)).string();
    const std::string text = make_gtkw(placed);
    std::ofstream out(path);
    out << text;
    out.close();
    if (!out) throw std::runtime_error(path + ": cannot write the GTKWave save file");
}

void write_translate_filter(const std::string &path, const std::map<int, std::string> &names) {
    std::ofstream out(path);
    for (const auto &[value, name] : names) out << value << ' ' << name << '\n';
    out.close();
    if (!out) throw std::runtime_error(path + ": cannot write the GTKWave translate filter");
}

}  // namespace raidtlm::waveforms
