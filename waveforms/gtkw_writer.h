// Writes GTKWave save files (.gtkw): which dump to open, the signals in named groups, their
// display format, and value-to-name translations (e.g. a drive state 2 shown as "seek").
// Plain C++.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace raidtlm::waveforms {

enum class gtkw_format { decimal, hex, binary, analog };

struct gtkw_signal {
    std::string name;  // as GTKWave shows it, e.g. "SystemC.disk0.state[31:0]"
    gtkw_format format = gtkw_format::decimal;
    std::string translate_file;  // a GTKWave translate filter file ("value name" lines), or empty
};

struct gtkw_group {
    std::string name;
    std::vector<gtkw_signal> signals;
    bool closed = false;  // shown collapsed
};

struct gtkw_layout {
    std::string dump_file;   // as written into [dumpfile]; relative names resolve against the .gtkw
    // Time span (in the dump's time unit) the wave pane shows from view_start when the file opens;
    // 0 leaves GTKWave's default zoom.
    uint64_t view_time = 0;
    uint64_t view_start = 0;  // left edge of the wave pane when the file opens (dump time unit)
    int window_width_px = 1400;
    int window_height_px = 800;
    std::vector<gtkw_group> groups;
};

// The text of a .gtkw file.
std::string make_gtkw(const gtkw_layout &layout);
// Writes it; throws std::runtime_error("PATH: cannot write ...") on failure.
void write_gtkw(const std::string &path, const gtkw_layout &layout);

// Writes a GTKWave translate filter file: one "value name" line per entry (values in decimal, as
// a decimal-formatted trace shows them).
void write_translate_filter(const std::string &path, const std::map<int, std::string> &names);

}  // namespace raidtlm::waveforms
