#include "disks/diskspec_limits.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace raidtlm::disks {

namespace {

// Milliseconds: no drive overhead, seek or settle takes a second; a minute is absurd.
constexpr double max_drive_time_ms = 60000;
// No lower bound here: the loader's own check of the parameter says what is expected below it.
constexpr double loader_checks = -std::numeric_limits<double>::infinity();
constexpr const char *time_why = "a drive's overheads and seeks take well under a second";

const physical_range ranges[] = {
    // Geometry. DiskSim's specs: 5..18 surfaces, 2,051..11,474 cylinders, 56..390 sectors per
    // track, up to 17.9M blocks. Drives of the 2020s: at most 20 surfaces (10 platters), ~500,000
    // tracks per surface, ~5,000 512-byte sectors per track, ~4e10 blocks (20 TB).
    {"Number of data surfaces", loader_checks, 256, "a drive has at most 20 data surfaces (10 platters)"},
    {"Number of cylinders", loader_checks, 10e6, "drives have at most ~500,000 cylinders"},
    {"Blocks per track", loader_checks, 1e6, "a track holds at most ~5,000 512-byte sectors"},
    {"Block count", loader_checks, 1e12, "a drive holds at most ~4e10 512-byte blocks (20 TB)"},
    {"First cylinder number", loader_checks, 10e6, "drives have at most ~500,000 cylinders"},
    {"Last cylinder number", loader_checks, 10e6, "drives have at most ~500,000 cylinders"},
    {"Number of spares", loader_checks, 1e9, "spares are a small part of a drive's ~4e10 blocks"},
    {"Empty space at zone front", loader_checks, 1e9, "a zone's front gap is a few tracks"},
    {"Rangesize for sparing", loader_checks, 10e6, "drives have at most ~500,000 cylinders"},
    {"Rotation speed (in rpms)", loader_checks, 100000, "the fastest production drives spin at 15,000 rpm"},
    // Cache. DiskSim's specs: 1..10 segments of 57..561 blocks. Drives of the 2020s carry at most
    // 512 MiB of buffer (1,048,576 blocks) and tens of segments.
    {"Number of buffer segments", 0, 4096, "drives divide their buffer into at most tens of segments"},
    {"Segment size (in blks)", 0, 2097152, "a drive's whole buffer is at most 512 MiB (1,048,576 blocks)"},
    {"Maximum number of write segments", 0, 4096, "drives divide their buffer into at most tens of segments"},
    {"Minimum read-ahead (blks)", 0, 2097152, "a drive's whole buffer is at most 512 MiB (1,048,576 blocks)"},
    {"Maximum read-ahead (blks)", -1, 2097152, "a drive's whole buffer is at most 512 MiB (1,048,576 blocks)"},
    {"Max queue length", loader_checks, 65536, "SCSI and SAS queue tags number at most 65,536"},
    // Times (ms).
    {"Single cylinder seek time", 0, max_drive_time_ms, time_why},
    {"Average seek time", 0, max_drive_time_ms, time_why},
    {"Full strobe seek time", 0, max_drive_time_ms, time_why},
    {"Constant seek time", 0, max_drive_time_ms, time_why},
    {"Constant access time", -1, max_drive_time_ms, time_why},
    {"Head switch time", 0, max_drive_time_ms, time_why},
    {"Add. write settling delay", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Bulk sector transfer time", 0, max_drive_time_ms, time_why},
    {"Per-request overhead time", 0, max_drive_time_ms, time_why},
    {"Time scale for overheads", 0, 1000, "a factor on overheads of about 1"},
    {"Read hit over. after read", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read hit over. after write", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read miss over. after read", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read miss over. after write", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write hit over. after read", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write hit over. after write", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write miss over. after read", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write miss over. after write", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read completion overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write completion overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Data preparation overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"First reselect overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Other reselect overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read disconnect afterread", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Read disconnect afterwrite", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Write disconnect overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Extradisc command overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Extradisc disconnect overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Extradisc inter-disconnect delay", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Extradisc 2nd disconnect overhead", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Extradisc seek delta", -max_drive_time_ms, max_drive_time_ms, time_why},
    {"Minimum seek delay", -max_drive_time_ms, max_drive_time_ms, time_why},
};

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

}  // namespace

const physical_range *physical_range_of(const std::string &parameter) {
    for (const physical_range &r : ranges)
        if (parameter == r.parameter) return &r;
    return nullptr;
}

std::string describe_range(const physical_range &r) {
    if (std::isinf(r.lo)) return "a value of at most " + number(r.hi) + " (" + r.why + ")";
    return "a value from " + number(r.lo) + " to " + number(r.hi) + " (" + r.why + ")";
}

}  // namespace raidtlm::disks
