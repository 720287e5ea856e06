// Writes GTKWave save files (.gtkw): which dump to open, the signals in named groups, their
// display format, and value-to-name translations (e.g. a drive state 2 shown as "seek").
// Plain C++.
//
// Opening anywhere: GTKWave resolves a relative [dumpfile] against its working directory, not the
// save file. What it does relocate is a save file that records where it was written: given
// [savefile] "/a/out/waves.gtkw" and [dumpfile] "/a/out/waves.vcd" (both absolute), when the dump
// is not at the recorded place it takes the dump's path relative to the recorded save file and
// applies it to where the save file now is (GTKWave's find_dumpfile; translate filter files "^N"
// that follow [savefile] are relocated the same way). So the file names every path absolutely and
// records itself: it opens from any directory, and still finds its neighbours after the folder is
// moved or copied.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace raidtlm::waveforms {

enum class gtkw_format { decimal, signed_decimal, hex, binary, analog };

struct gtkw_signal {
    std::string name;  // as GTKWave shows it, e.g. "SystemC.disk0.state[31:0]"
    gtkw_format format = gtkw_format::decimal;
    std::string translate_file;  // a GTKWave translate filter file ("value name" lines), or empty
    // The row's label in GTKWave ("disk0 mech_state"); empty: GTKWave's own (the leaf name only).
    std::string alias;
};

struct gtkw_group {
    std::string name;
    std::vector<gtkw_signal> signals;
    bool closed = false;  // shown collapsed
};

struct gtkw_layout {
    // The dump, and below each signal's translate filter: relative names are taken relative to the
    // directory of save_file and written absolute.
    std::string dump_file;
    // Absolute path the save file is written to, recorded as [savefile] (write_gtkw sets it).
    std::string save_file;
    // Time span (in the dump's time unit) the wave pane shows from view_start when the file opens;
    // 0 leaves GTKWave's default zoom.
    uint64_t view_time = 0;
    uint64_t view_start = 0;  // left edge of the wave pane when the file opens (dump time unit)
    int window_width_px = 1400;
    int window_height_px = 800;
    std::vector<gtkw_group> groups;
};

// The text of a .gtkw file (layout.save_file must be set when a name in it is relative).
std::string make_gtkw(const gtkw_layout &layout);
// Writes it to `path`, recorded as the save file; throws std::runtime_error("PATH: cannot write ...") on failure.
void write_gtkw(const std::string &path, const gtkw_layout &layout);

// Writes a GTKWave translate filter file: one "value name" line per entry (values in decimal, as
// a decimal-formatted trace shows them).
void write_translate_filter(const std::string &path, const std::map<int, std::string> &names);

}  // namespace raidtlm::waveforms
