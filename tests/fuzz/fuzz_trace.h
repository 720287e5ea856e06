// The body of every trace-parser fuzz target (libFuzzer's LLVMFuzzerTestOneInput): read the input
// as a trace of one format, record by record, as `raidtlm run` does. A trace_error is the
// expected answer to bad input; anything else that escapes, a crash, a sanitizer report or a
// broken invariant (__builtin_trap) is a bug. Records that parse are written back in the same
// format and read again: they must come back the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/workloads/trace_formats.h"

namespace raidtlm::fuzz {

inline int fuzz_trace(const uint8_t *data, size_t size, testbench::trace_format format) {
    using namespace raidtlm::testbench;
    std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
    trace_reader reader(in, "fuzz", format);
    std::vector<trace_record> records;
    try {
        double last = 0;
        for (trace_record r; reader.next(r);) {
            if (r.sectors == 0 || r.time_ms < last || r.device < 0 ||
                static_cast<size_t>(r.device) >= reader.device_names().size())
                __builtin_trap();
            last = r.time_ms;
            records.push_back(r);
        }
    } catch (const trace_error &) {
    }
    if (records.empty()) return 0;
    std::ostringstream out;
    trace_writer writer(out, format, reader.origin(), reader.device_names());
    for (const auto &r : records) writer.write(r);
    std::istringstream back(out.str());
    trace_reader again(back, "written", format);
    size_t i = 0;
    try {
        for (trace_record r; again.next(r); ++i) {
            const trace_record &o = records.at(i);
            if (r.lbn != o.lbn || r.sectors != o.sectors || r.read != o.read ||
                again.device_names()[r.device] != reader.device_names()[o.device])
                __builtin_trap();
        }
    } catch (const trace_error &) {
        __builtin_trap();  // what the writer wrote must read back
    }
    if (i != records.size()) __builtin_trap();
    return 0;
}

}  // namespace raidtlm::fuzz
