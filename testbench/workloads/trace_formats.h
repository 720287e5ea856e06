// Block I/O traces from other tools, read one line at a time (memory does not grow with the file)
// and written back. Plain C++, no SystemC.
//
// Formats (one request per line; blank lines and lines starting with '#' are skipped):
//   disksim   DiskSim 4.0 ASCII (manual 4.1.1): ARRIVAL_MS DEVICE BLOCK SIZE_BLOCKS FLAGS_HEX,
//             white-space separated; flags bit 0 set = read; arrival times ascending.
//   spc       SPC / UMass trace repository (Financial, WebSearch): ASU,LBA,SIZE_BYTES,OPCODE,
//             TIMESTAMP_S[,...]; LBA in 512-byte blocks, opcode r/R/w/W; further fields ignored.
//   msr       MSR Cambridge CSV: TIMESTAMP,HOSTNAME,DISK,TYPE,OFFSET_BYTES,SIZE_BYTES,RESPONSE_TIME;
//             timestamps and response times in Windows filetime units (100 ns), type Read/Write.
//             The device is HOSTNAME_DISK (e.g. usr_0, as the published file names).
//   blkparse  blkparse's default text output: MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS then, for
//             actions with data, SECTOR + COUNT [PROCESS]. Only the chosen action (D: issued to
//             the device, or Q: queued) is a request; other actions, data-less lines (flushes),
//             discards and the per-CPU summary blkparse prints at the end are skipped.
// Byte addresses and sizes become 512-byte sectors (start rounded down, end rounded up); a
// request of size 0 is skipped. Times become ms relative to the first request; a time earlier
// than the previous request's is an error (replay needs them in order).
//
// Every problem is a trace_error whose what() is one line:
//   FILE:LINE: <problem>; expected <the line form>
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "testbench/workloads/host_request.h"
#include "testbench/workloads/trace_config.h"
#include "testbench/commands/validate_trace.h"  // trace_error

namespace raidtlm::testbench {

struct trace_record {
    double time_ms = 0;  // since the file's first request
    int device = 0;      // index into trace_reader::device_names()
    uint64_t lbn = 0;    // 512-byte sectors
    uint32_t sectors = 0;
    bool read = true;
    double response_ms = -1;  // the response time the trace measured (msr), else -1
    uint64_t line = 0;
};

// The first request's time in the format's own clock, so a writer can restore absolute times.
struct trace_origin {
    double value = 0;      // disksim: ms; spc: s
    uint64_t integer = 0;  // msr: filetime ticks; blkparse: ns
};

class trace_reader {
public:
    static constexpr size_t max_line = 4096;

    // Reads `in` (which must outlive the reader); `name` prefixes errors.
    trace_reader(std::istream &in, std::string name, trace_format format, char blkparse_action = 'D');
    // Opens a file; throws trace_error when it cannot be read.
    static std::unique_ptr<trace_reader> open(const std::string &path, trace_format format,
                                              char blkparse_action = 'D');

    // The next request; false at the end of the input.
    bool next(trace_record &r);

    trace_format format() const { return m_format; }
    const std::string &name() const { return m_name; }
    const std::vector<std::string> &device_names() const { return m_devices; }
    uint64_t lines() const { return m_line; }
    uint64_t requests() const { return m_requests; }
    uint64_t skipped() const { return m_skipped; }  // non-blank lines that are not requests
    const trace_origin &origin() const { return m_origin; }
    // The accepted line form of a format, as in the errors.
    static const char *expected_form(trace_format format);

private:
    enum class parsed { request, skip };
    parsed parse_line(std::string_view line, trace_record &r);
    parsed parse_disksim(std::string_view line, trace_record &r);
    parsed parse_spc(std::string_view line, trace_record &r);
    parsed parse_msr(std::string_view line, trace_record &r);
    parsed parse_blkparse(std::string_view line, trace_record &r);
    int device_id(std::string_view name);
    // Turns the format's raw time into ms since the first request, checking the order.
    void set_time(trace_record &r, double raw_value, uint64_t raw_integer, bool integer_clock, double ms_per_unit);
    [[noreturn]] void fail(const std::string &problem) const;

    std::unique_ptr<std::ifstream> m_file;
    std::istream &m_in;
    std::string m_name;
    trace_format m_format;
    char m_action;
    uint64_t m_line = 0;
    uint64_t m_requests = 0;
    uint64_t m_skipped = 0;
    bool m_summary = false;  // blkparse: inside the closing summary
    bool m_have_origin = false;
    trace_origin m_origin;
    double m_last_ms = 0;
    std::vector<std::string> m_devices;
    std::unordered_map<std::string, int> m_device_ids;
    std::vector<char> m_buffer;
};

// Writes records in a format (blkparse: D lines with CPU 0, PID 0 and process "raidtlm").
// device_names are the names the records' device indexes refer to; for disksim and spc they
// must be integers, for msr HOSTNAME_DISK.
class trace_writer {
public:
    trace_writer(std::ostream &out, trace_format format, trace_origin origin,
                 std::vector<std::string> device_names);
    void write(const trace_record &r);

private:
    std::ostream &m_out;
    trace_format m_format;
    trace_origin m_origin;
    std::vector<std::string> m_devices;
    uint64_t m_count = 0;
};

// A trace as host requests: trace devices placed on the host space by trace.device_map, arrival
// times multiplied by trace.time_scale, and addresses past a device's slice handled by
// trace.beyond_capacity (error, wrap around the slice, or skip the request).
class trace_source {
public:
    // Throws scenario_error when a device_map offset lies outside the host space.
    trace_source(const trace_config &config, uint64_t capacity_sectors);
    trace_source(std::unique_ptr<trace_reader> reader, const trace_config &config, uint64_t capacity_sectors);

    // The next request and its arrival time (ms after the replay started); false at the end.
    // Throws trace_error (FILE:LINE) for an arrival beyond limit_arrival_ms.
    bool next(double &at_ms, host_request &r);
    // The latest arrival the replay can represent: the simulation kernel's time range
    // (sc_max_time(), ~1.8e10 ms at SystemC's 1 ps resolution). Unlimited by default.
    void limit_arrival_ms(double ms) { m_max_arrival_ms = ms; }

    const trace_reader &reader() const { return *m_reader; }
    uint64_t wrapped() const { return m_wrapped; }
    uint64_t skipped_beyond() const { return m_skipped_beyond; }

private:
    struct slice {
        uint64_t offset = 0, size = 0;
    };
    const slice &slice_of(const trace_record &r);

    std::unique_ptr<trace_reader> m_reader;
    trace_config m_config;
    uint64_t m_capacity;
    std::vector<std::pair<std::string, slice>> m_map;  // from trace.device_map
    std::vector<int> m_slice_of_device;                // reader device id -> index into m_map, -2 unknown
    slice m_whole;
    uint64_t m_wrapped = 0, m_skipped_beyond = 0;
    double m_max_arrival_ms = std::numeric_limits<double>::infinity();
};

}  // namespace raidtlm::testbench
